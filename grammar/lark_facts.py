"""facts.lark read by Lark's LALR parser: the terminals parser.py's scanner is built from, and the
parser oracle.py reads with. Below both, so that neither imports the other for it."""
from __future__ import annotations

from importlib import resources
from typing import Optional

from lark import Lark


def _grammar_text() -> str:
    """The text of facts.lark, from the package's data."""
    return resources.files(__package__).joinpath("facts.lark").read_text(encoding="utf-8")


class _Continuation:
    """Post-lexer for the Lark oracle: a line that starts with spaces or tabs
    continues the statement above."""

    always_accept = ("_NL",)

    def process(self, stream):
        pending = None
        seen_statement = False
        for tok in stream:
            if tok.type == "_NL":
                if seen_statement:
                    pending = tok
                continue
            if pending is not None and tok.column == 1:
                yield pending
            pending = None
            seen_statement = True
            yield tok


_LARK: Optional[Lark] = None


def lark_parser() -> Lark:
    """The Lark LALR parser of facts.lark (the oracle; and the source of the terminals)."""
    global _LARK
    if _LARK is None:
        _LARK = Lark(_grammar_text(), parser="lalr", postlex=_Continuation(), propagate_positions=False,
                     maybe_placeholders=False)
    return _LARK
