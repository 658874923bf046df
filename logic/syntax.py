"""Read a rule's text, once, into the literals of grammar/query.py.

Our rules are written in pyDatalog's syntax (the engine loads that text, see
engine.py). Everything else that reads a rule (strata.py's plan, the
explainer's solver, refute) reads the literals built here: atoms, negated
atoms, function lookups, and comparisons whose sides are small expression
trees (variables, constants, + - * / // % **, tuples, ``Fraction(a, b)``)
evaluated through an operator table. No rule text is ever evaluated.

    >>> head, body = parse_rule("b1(S, V, 'cap', 1) <= b0(S, 'cap', N) & evclass(S, V, 'partial') & (N < 1)")
    >>> head.name, [type(lit).__name__ for lit in body], str(body[2])
    ('b1', ['Atom', 'Atom', 'Compare'], '(N < 1)')
    >>> holds(body[2], {"N": 0})
    True
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Dict, Mapping, Tuple

from lark import Lark, Transformer, UnexpectedInput, v_args
from lark.exceptions import VisitError

from ..grammar.query import Atom, Compare, Const, FuncEq, Literal, Negated, Term, Var, distinct

__all__ = ["Aggregate", "Atom", "BinOp", "Compare", "Const", "FuncEq", "Literal", "Neg", "Negated", "TupleOf", "Var",
           "evaluate", "holds", "parse_rule", "solve_compare", "variables_needed"]


@dataclass(frozen=True)
class BinOp:
    """``left op right`` of arithmetic or tuple concatenation."""

    op: str
    left: Any
    right: Any

    def variables(self) -> Tuple[str, ...]:
        return distinct(self.left.variables() + self.right.variables())


@dataclass(frozen=True)
class Neg:
    operand: Any

    def variables(self) -> Tuple[str, ...]:
        return self.operand.variables()


@dataclass(frozen=True)
class TupleOf:
    """``(A, B)``, ``(F,)``, ``()``: a tuple built from the items' values (fact-id lists, chain paths)."""

    items: Tuple[Any, ...]

    def variables(self) -> Tuple[str, ...]:
        return distinct(n for i in self.items for n in i.variables())


@dataclass(frozen=True)
class Aggregate:
    """The value of an aggregate head (``min_(S, order_by=(B, R, S))``); pyDatalog computes it, we only name it."""

    function: str
    text: str = field(compare=False, default="")

    def variables(self) -> Tuple[str, ...]:
        return ()

    def __str__(self) -> str:
        return self.text


#: Arithmetic, as Python computes it on the values (pyDatalog does the same).
OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
             "//": operator.floordiv, "%": operator.mod, "**": operator.pow}
#: Tests a comparison may make.
TESTS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
         ">=": operator.ge, "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


def evaluate(expr, env: Mapping[str, Any]):
    """The value of an expression under ``env`` (its variables must be bound)."""
    if isinstance(expr, Var):
        return env[expr.name]
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, BinOp):
        return OPERATORS[expr.op](evaluate(expr.left, env), evaluate(expr.right, env))
    if isinstance(expr, TupleOf):
        return tuple(evaluate(i, env) for i in expr.items)
    if isinstance(expr, Neg):
        return -evaluate(expr.operand, env)
    raise ValueError(f"not an expression: {expr!r}")


def holds(cmp: Compare, env: Mapping[str, Any]) -> bool:
    """Whether a comparison holds under ``env``; values that cannot be ordered (a string and a
    number) never compare."""
    try:
        return bool(TESTS[cmp.op](evaluate(cmp.left, env), evaluate(cmp.right, env)))
    except TypeError:
        return False


_GRAMMAR = r"""
rule: head "<=" body
?head: atom
     | "(" NAME "[" expr ("," expr)* "]" "==" aggregate ")"   -> head_function
aggregate: NAME "(" expr ("," keyword)* ")"
keyword: NAME "=" expr
body: literal ("&" literal)*
?literal: atom
        | "~" atom                                    -> negated
        | "(" expr CMP expr ")"                       -> comparison
        | "(" NAME "[" expr ("," expr)* "]" "==" expr ")"  -> function_eq
        | VAR "." "in_" "(" expr ")"                   -> member
        | VAR "." "_not_in" "(" expr ")"               -> not_member
atom: NAME "(" [expr ("," expr)*] ")"

?expr: sum
?sum: product
    | sum "+" product        -> add
    | sum "-" product        -> sub
?product: power
        | product "*" power  -> mul
        | product "/" power  -> div
        | product "//" power -> floordiv
        | product "%" power  -> mod
?power: unary
      | unary "**" power     -> pow
?unary: primary
      | "-" unary            -> neg
?primary: VAR                -> var
        | STRING             -> string
        | NUMBER             -> number
        | "Fraction" "(" expr ["," expr] ")" -> fraction
        | "(" expr ")"
        | "(" ")"                           -> empty
        | "(" expr "," [expr ("," expr)*] ")" -> tuple

NAME: /[a-z_][a-z0-9_]*/
VAR: /(?!Fraction\b)[A-Z][A-Za-z0-9_]*/
STRING: /'[^'\n]*'/
NUMBER: /\d+/
CMP: "==" | "!=" | "<=" | ">=" | "<" | ">"
%ignore " "
"""


@v_args(meta=True)
class _Build(Transformer):
    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def _source(self, meta) -> str:
        return self.text[meta.start_pos:meta.end_pos]

    def var(self, meta, c):
        return Var(str(c[0]))

    def string(self, meta, c):
        return Const(str(c[0])[1:-1], str(c[0]))

    def number(self, meta, c):
        return Const(int(c[0]), str(c[0]))

    def fraction(self, meta, c):
        a, b = c
        if not isinstance(a, Const) or not (b is None or isinstance(b, Const)):
            raise ValueError(f"Fraction of constants only: {self._source(meta)}")
        return Const(Fraction(a.value, 1 if b is None else b.value), self._source(meta))

    def empty(self, meta, c):
        return Const((), "()")

    def tuple(self, meta, c):
        return TupleOf(tuple(i for i in c if i is not None))

    def neg(self, meta, c):
        return Const(-c[0].value, self._source(meta)) if isinstance(c[0], Const) else Neg(c[0])

    def _binop(op):  # noqa: N805 - a factory of transformer methods
        return lambda self, meta, c: BinOp(op, c[0], c[1])

    add, sub, mul, div = _binop("+"), _binop("-"), _binop("*"), _binop("/")
    floordiv, mod, pow = _binop("//"), _binop("%"), _binop("**")

    def _term(self, expr, meta) -> Term:
        if not isinstance(expr, (Var, Const)):
            raise ValueError(f"an argument must be a variable or a constant: {self._source(meta)}")
        return expr

    def atom(self, meta, c):
        name, *args = c
        return Atom(str(name), tuple(self._term(a, meta) for a in args if a is not None), meta.column)

    def negated(self, meta, c):
        return Negated(c[0], meta.column)

    def comparison(self, meta, c):
        left, op, right = c
        return Compare(left, str(op), right, meta.column, self._source(meta))

    def _member(self, meta, c, op):
        var, arg = c
        arg_text = self._source(meta).split("(", 1)[1][:-1]
        return Compare(Var(str(var)), op, arg, meta.column, f"({var} {op} {arg_text})")

    def member(self, meta, c):
        return self._member(meta, c, "in")

    def not_member(self, meta, c):
        return self._member(meta, c, "not in")

    def function_eq(self, meta, c):
        name, *args, value = c
        return FuncEq(str(name), tuple(self._term(a, meta) for a in args), value, meta.column)

    def head_function(self, meta, c):
        name, *args, agg = c
        return FuncEq(str(name), tuple(self._term(a, meta) for a in args), agg, meta.column)

    def aggregate(self, meta, c):
        return Aggregate(str(c[0]), self._source(meta))

    def keyword(self, meta, c):
        return c

    def body(self, meta, c):
        return c

    def rule(self, meta, c):
        return c[0], c[1]


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(_GRAMMAR, start="rule", parser="lalr", propagate_positions=True)


@lru_cache(maxsize=None)
def parse_rule(text: str) -> Tuple[Literal, Tuple[Literal, ...]]:
    """A rule's head and body literals (cached: a rule is parsed once). Our own text: a rule that does
    not parse is a programming error, raised as ValueError naming it."""
    try:
        head, body = _Build(text).transform(_parser().parse(text))
    except UnexpectedInput as e:
        raise ValueError(f"not a rule provlog reads (column {e.column}): {text}") from None
    except VisitError as e:  # a transformer's refusal (a Fraction of variables, an expression as an argument)
        raise ValueError(f"not a rule provlog reads ({e.orig_exc}): {text}") from None
    return head, tuple(body)


def variables_needed(lit: Literal, env: Mapping[str, Any]) -> Tuple[str, ...]:
    """The variables a comparison reads before it can be decided: an assignment ``(X == expr)``
    with X unbound reads only ``expr``."""
    if isinstance(lit, Compare) and lit.assigns and lit.assigns not in env:
        return lit.right.variables()
    return lit.variables()


def solve_compare(lit: Compare, env: Dict[str, Any]):
    """``env`` extended by the comparison: an unbound ``(X == expr)`` binds X; else ``env`` where
    it holds, None where it does not."""
    if lit.assigns and lit.assigns not in env:
        out = dict(env)
        out[lit.assigns] = evaluate(lit.right, env)
        return out
    return env if holds(lit, env) else None
