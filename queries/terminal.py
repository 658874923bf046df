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

from ..errors import printable

__all__ = ["markup", "printable"]


def markup(text: str) -> str:
    """:func:`printable`, and escaped for rich's markup, for world text inside a styled line."""
    from rich.markup import escape

    return escape(printable(text))
