"""Goals read by Lark from query.lark into :mod:`provlog.grammar.query`'s literals.

Imported by :func:`provlog.grammar.read_goal.parse_goal` when a goal is read, so that the
commands that read none (a stored card, a why) do not import Lark.
"""
from __future__ import annotations

from importlib import resources
from typing import Optional, Tuple

from lark import Lark, Token, Transformer, UnexpectedInput, v_args
from lark.exceptions import VisitError

from .query import MAX_DIGITS, Atom, Compare, Const, FuncEq, Literal, Negated, QueryError, Var

_PARSER: Optional[Lark] = None


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        text = resources.files(__package__).joinpath("query.lark").read_text(encoding="utf-8")
        _PARSER = Lark(text, start="goal", parser="lalr", propagate_positions=True)
    return _PARSER


def number(token: Token) -> int:
    """A whole number as written, refused past :data:`MAX_DIGITS` digits (with the column)."""
    digits = token.value.lstrip("-")
    if len(digits) > MAX_DIGITS:
        raise QueryError(f"a number of {len(digits)} digits; at most {MAX_DIGITS}", token.column)
    return int(token.value)


class _Build(Transformer):
    def var(self, c):
        return Var(str(c[0]))

    def string(self, c):
        return Const(str(c[0])[1:-1], str(c[0]))

    def number(self, c):
        return Const(number(c[0]), str(c[0]))

    @v_args(meta=True)
    def atom(self, meta, c):
        name, *args = c
        return Atom(str(name), tuple(a for a in args if a is not None), meta.column)

    @v_args(meta=True)
    def negated(self, meta, c):
        return Negated(c[0], meta.column)

    @v_args(meta=True)
    def comparison(self, meta, c):
        left, op, right = c
        return Compare(left, str(op), right, meta.column)

    @v_args(meta=True)
    def function_eq(self, meta, c):
        name, *args, value = c
        return FuncEq(str(name), tuple(args), value, meta.column)

    def goal(self, c):
        return tuple(c)


def read(text: str) -> Tuple[Literal, ...]:
    """The literals of a goal; :class:`QueryError` (with the column) if it is not a goal provlog reads."""
    try:
        tree = _parser().parse(text)
        literals = _Build().transform(tree)
    except UnexpectedInput as e:
        column = e.column if isinstance(e.column, int) and e.column > 0 else len(text) + 1
        if column <= len(text) and text[column - 1].isdigit():  # ٣, ²: a digit, but not one of 0-9
            raise QueryError(f"a number is written with the digits 0-9, got {text[column - 1]!r}", column) from None
        raise QueryError("write literals like value(O, 'F', 'standard', X, S, R) joined by &, comparisons "
                         "like (X > 2)", column, syntax=True) from None
    except VisitError as e:
        if isinstance(e.orig_exc, QueryError):
            raise e.orig_exc from None
        raise
    return literals
