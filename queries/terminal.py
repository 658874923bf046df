"""World text made safe to print on a terminal: control characters escaped, as error messages
escape them, so a name or a goal from a stranger's world cannot retitle a window, move the cursor,
hide text or reverse a line. Escaped as JSON writes them (``\\u001b``, ``\\u202e``), so that
escaping JSON output leaves it the same JSON (in a JSON string it is the same character).

A world's strings may hold any character but a line end (docs/language.md); the web explorer and
the static site escape them for HTML (``visible()``), the text commands with :func:`printable`:

    >>> printable("Eval\\x1b]0;pwned\\x07 Co \\u202egnp.exe\\tok")
    'Eval\\\\u001b]0;pwned\\\\u0007 Co \\\\u202egnp.exe\\tok'
    >>> markup("[bold]x[/]")   # for rich: a name is text, never a style
    '\\\\[bold]x\\\\[/]'
"""
from __future__ import annotations

import re

# C0 and C1 controls but tab and line feed, DEL, the bidirectional marks, embeddings, overrides and
# isolates, and the Unicode line and paragraph separators.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` with every control character escaped as ``\\uXXXX`` (tabs and line ends kept)."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def markup(text: str) -> str:
    """:func:`printable`, and escaped for rich's markup, for world text inside a styled line."""
    from rich.markup import escape

    return escape(printable(text))
