"""The root of every error provlog reports to a user, with the exit code it means.

    >>> from provlog.errors import ProvlogError
    >>> from provlog.facts import LoadError
    >>> issubclass(LoadError, ProvlogError), LoadError.exit_code
    (True, 1)

Under it: :class:`provlog.grammar.ParseError` (a syntax error, one of a load's),
:class:`provlog.facts.LoadError` (a world that does not load: exit 1),
:class:`provlog.grammar.QueryError` (a malformed goal: exit 2) and
:class:`provlog.queries.UnknownName` (an unknown org, dimension, policy,
preset or rulebook: exit 2). ``except ProvlogError`` catches what a user did
wrong and nothing else; any other exception is a bug in provlog. It lives at
the top of the package, below every layer, so that each can raise under it.
"""
from __future__ import annotations

import re

# C0 and C1 controls but tab and line feed, DEL, the bidirectional marks, embeddings, overrides and
# isolates, and the Unicode line and paragraph separators: never printed or shown as themselves
# (the web pages show them as [U+XXXX]; queries/web/static/app.js keeps the same set).
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` with every control character escaped as ``\\uXXXX`` (tabs and line ends kept): what
    every message and answer provlog prints goes through (queries/terminal.py says why).

    >>> printable("a\\x1b]0;x\\x07b")
    'a\\\\u001b]0;x\\\\u0007b'
    """
    return CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class ProvlogError(Exception):
    """Something a user wrote or asked that provlog refuses; ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class UnknownName(ProvlogError, ValueError):
    """An org, dimension, policy or preset the world does not have."""

    exit_code = 2
