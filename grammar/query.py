"""Parse an ad-hoc query goal and render it for pyDatalog.

Goals are parsed by a grammar of their own (query.lark) rather than handed to
pyDatalog's ``ask``, which evaluates Python: only literals, negation,
comparisons and function lookups get through.

    >>> render_goal("value(O, 'F', 'standard', X, S, R) & (X < 2)")
    ("value(O,'F','standard',X,S,R) & (X < 2)", ['O', 'X', 'S', 'R'])
"""
from __future__ import annotations

from importlib import resources
from typing import List, Optional, Tuple

from lark import Lark, Transformer, UnexpectedInput

from ..errors import ProvlogError

_PARSER: Optional[Lark] = None


class QueryError(ProvlogError, ValueError):
    """A goal that is not a Datalog query provlog accepts; ``column`` is where in the goal (1-based)."""

    exit_code = 2

    def __init__(self, message: str, column: int = 1):
        super().__init__(message)
        self.column = column


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        text = resources.files(__package__).joinpath("query.lark").read_text(encoding="utf-8")
        _PARSER = Lark(text, start="goal", parser="lalr")
    return _PARSER


class _Render(Transformer):
    def __init__(self):
        super().__init__()
        self.vars: List[str] = []

    def var(self, c):
        name = str(c[0])
        if name not in self.vars:
            self.vars.append(name)
        return name

    def string(self, c):
        return "'" + str(c[0])[1:-1] + "'"

    def number(self, c):
        return str(int(c[0]))

    def atom(self, c):
        name, *args = c
        return f"{name}({','.join(a for a in args if a is not None)})"

    def negated(self, c):
        return "~" + c[0]

    def comparison(self, c):
        return f"({c[0]} {c[1]} {c[2]})"

    def function_eq(self, c):
        name, *args, value = c
        return f"({name}[{','.join(args)}] == {value})"

    def goal(self, c):
        return " & ".join(c)


def render_goal(text: str) -> Tuple[str, List[str]]:
    """The goal in pyDatalog's syntax, and its variables in order of appearance."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise QueryError(f"query:1:{e.column}: not a Datalog goal here: write literals like "
                         f"value(O, 'F', 'standard', X, S, R) joined by &", e.column) from None
    r = _Render()
    return r.transform(tree), r.vars
