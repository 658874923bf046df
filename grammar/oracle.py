"""The fact language read by Lark's LALR parser (grammar/lark_facts.py): an oracle for
:mod:`provlog.grammar.parser`.

parser.py reads the statements itself (linear, exact error recovery; its terminals come from
lark_facts.py too); the tests compare the two readings (tests/test_fuzz.py).
"""
from __future__ import annotations

from typing import List

from lark import Token, Transformer

from .lark_facts import lark_parser
from .parser import Arg, Eq, Item, Pair, RawStatement, _unescape, source_lines


# -- the Lark oracle ------------------------------------------------------------------------------

class _ToStatements(Transformer):
    def __init__(self, file: str, lines: List[str]):
        super().__init__()
        self.file = file
        self.lines = lines

    def word(self, children):
        (t,) = children
        return Arg(str(t), False, t.line, t.column)

    def string(self, children):
        (t,) = children
        return Arg(_unescape(str(t)), True, t.line, t.column)

    def pair(self, children):
        key = children[0]
        return Pair(str(key)[:-1], tuple(children[1:]), key.line, key.column)

    def statement(self, children):
        kw = children[0]
        items: List[Item] = []
        for c in children[1:]:
            if isinstance(c, Token) and c.type == "EQ":
                items.append(Eq(c.line, c.column))
            else:
                items.append(c)
        text = self.lines[kw.line - 1] if 0 < kw.line <= len(self.lines) else ""
        return RawStatement(str(kw), self.file, kw.line, kw.column, items, text)

    def start(self, children):
        return [c for c in children if isinstance(c, RawStatement)]


def parse_text_lark(text: str, file: str) -> List[RawStatement]:
    """Parse well-formed ``text`` with Lark's LALR parser (no error recovery:
    raises :class:`lark.exceptions.UnexpectedInput`). The same grammar as
    :func:`parse_text`; kept as an oracle for it."""
    lines = source_lines(text)
    tree = lark_parser().parse("\n".join(lines))  # Lark counts lines by LF only
    return _ToStatements(file, lines).transform(tree)
