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
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any, Dict, List, Mapping, Tuple


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


#: The rule language, a token at a time: only spaces separate tokens (Rule.add joins a rule's lines).
_TOKEN = re.compile(r" *(?:(?P<STRING>'[^'\n]*')|(?P<NUMBER>\d+)|(?P<WORD>[A-Za-z_][A-Za-z0-9_]*)"
                    r"|(?P<OP><=|>=|==|!=|//|\*\*|[-+*/%<>()\[\],&~.=]))")
_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
_VAR = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")
_CMP = frozenset(("==", "!=", "<=", ">=", "<", ">"))
_SUM = frozenset(("+", "-"))
_PRODUCT = frozenset(("*", "/", "//", "%"))


class _Refused(Exception):
    """A rule that does not parse: why, and the column (1-based) where reading stopped."""

    def __init__(self, why: str, column: int):
        super().__init__(why)
        self.column = column


def _tokens(text: str) -> List[Tuple[str, str, int, int]]:
    """``(kind, text, start, end)`` of each token; kinds NAME, VAR, FRACTION, STRING, NUMBER, an operator's text."""
    out, at = [], 0
    text = text.rstrip(" ")
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None:
            rest = text[at:]
            raise _Refused("a character the rule language does not have", at + len(rest) - len(rest.lstrip(" ")) + 1)
        kind = m.lastgroup
        word = m.group(kind)
        if kind == "WORD":
            kind = "FRACTION" if word == "Fraction" else "NAME" if _NAME.match(word) else "VAR" if _VAR.match(word) else ""
            if not kind:
                raise _Refused(f"{word!r} is neither a relation (lower case) nor a variable (capitalised)",
                               m.start("WORD") + 1)
        elif kind == "OP":
            kind = word
        out.append((kind, word, m.start(m.lastgroup), m.end()))
        at = m.end()
    return out


class _Reader:
    """A rule's text read by recursive descent into logic/syntax.py's literals.

    The language (pyDatalog's, as our rules write it)::

        rule     = head "<=" literal ("&" literal)*
        head     = atom | "(" NAME "[" expr ("," expr)* "]" "==" NAME "(" expr ("," NAME "=" expr)* ")" ")"
        literal  = atom | "~" atom | "(" expr CMP expr ")" | "(" NAME "[" expr ("," expr)* "]" "==" expr ")"
                 | VAR "." ("in_" | "_not_in") "(" expr ")"
        atom     = NAME "(" [expr ("," expr)*] ")"          (each argument a variable or a constant)
        expr     = product (("+" | "-") product)*
        product  = power (("*" | "/" | "//" | "%") power)*
        power    = unary ["**" power]
        unary    = "-" unary | primary
        primary  = VAR | STRING | NUMBER | "Fraction" "(" expr ["," expr] ")" | "(" ")" | "(" expr ")"
                 | "(" expr "," [expr ("," expr)*] ")"

    A hand-written reader, not a Lark grammar: the explainer reads a few dozen rules in every
    ``why``, and Lark's parser cost more to build and run than the rest of a stored ``why``
    (tests/test_syntax.py checks this reader against that grammar, kept there as its oracle).
    """

    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    # -- tokens --------------------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> str:
        j = self.i + ahead
        return self.toks[j][0] if j < len(self.toks) else ""

    def column(self) -> int:
        """Where the next token starts (1-based), or just past the end."""
        return self.toks[self.i][2] + 1 if self.i < len(self.toks) else len(self.text.rstrip(" ")) + 1

    def take(self, *kinds: str) -> Tuple[str, str, int, int]:
        if self.peek() not in kinds:
            raise _Refused(f"expected {' or '.join(kinds)}", self.column())
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def source(self, start: int) -> str:
        """The text from offset ``start`` to the end of the last token taken."""
        return self.text[start:self.toks[self.i - 1][3]]

    # -- rules and literals ----------------------------------------------------------------------
    def rule(self) -> Tuple[Literal, Tuple[Literal, ...]]:
        head = self.function(aggregate=True) if self.peek() == "(" else self.atom()
        self.take("<=")
        body = [self.literal()]
        while self.peek() == "&":
            self.i += 1
            body.append(self.literal())
        if self.i < len(self.toks):
            raise _Refused("expected & or the end of the rule", self.column())
        return head, tuple(body)

    def literal(self) -> Literal:
        kind = self.peek()
        if kind == "~":
            col = self.column()
            self.i += 1
            return Negated(self.atom(), col)
        if kind == "(" and self.peek(1) == "NAME":
            return self.function(aggregate=False)
        if kind == "(":
            start, col = self.toks[self.i][2], self.column()
            self.i += 1
            left = self.expr()
            op = self.take(*_CMP)[1]
            right = self.expr()
            self.take(")")
            return Compare(left, op, right, col, self.source(start))
        if kind == "VAR" and self.peek(1) == ".":
            return self.member()
        return self.atom()

    def atom(self) -> Atom:
        _, name, start, _ = self.take("NAME")
        self.take("(")
        args = self.exprs() if self.peek() != ")" else []
        self.take(")")
        return Atom(name, tuple(self.term(a, start) for a in args), start + 1)

    def function(self, aggregate: bool) -> FuncEq:
        """``(f[A, B] == X)`` in a body, ``(f[A, B] == min_(X, order_by=...))`` as a head."""
        start = self.toks[self.i][2]
        self.take("(")
        name = self.take("NAME")[1]
        self.take("[")
        args = self.exprs()
        self.take("]")
        self.take("==")
        value = self.aggregate() if aggregate else self.expr()
        self.take(")")
        return FuncEq(name, tuple(self.term(a, start) for a in args), value, start + 1)

    def aggregate(self) -> Aggregate:
        _, name, start, _ = self.take("NAME")
        self.take("(")
        self.expr()
        while self.peek() == ",":
            self.i += 1
            self.take("NAME")
            self.take("=")
            self.expr()
        self.take(")")
        return Aggregate(name, self.source(start))

    def member(self) -> Compare:
        """``X.in_(expr)``, ``X._not_in(expr)``: a membership test."""
        _, var, start, _ = self.take("VAR")
        self.take(".")
        how = self.take("NAME")
        if how[1] not in ("in_", "_not_in"):
            raise _Refused("expected in_ or _not_in", how[2] + 1)
        op = "in" if how[1] == "in_" else "not in"
        inner = self.take("(")[3]
        arg = self.expr()
        self.take(")")
        return Compare(Var(var), op, arg, start + 1, f"({var} {op} {self.text[inner:self.toks[self.i - 1][2]]})")

    def term(self, expr, start: int) -> Term:
        if not isinstance(expr, (Var, Const)):
            raise _Refused(f"an argument must be a variable or a constant: {self.source(start)}", start + 1)
        return expr

    # -- expressions -----------------------------------------------------------------------------
    def exprs(self) -> List:
        out = [self.expr()]
        while self.peek() == ",":
            self.i += 1
            out.append(self.expr())
        return out

    def expr(self):
        return self.chain(_SUM, self.product)

    def product(self):
        return self.chain(_PRODUCT, self.power)

    def chain(self, ops, operand):
        """``operand (op operand)*`` for the operators ``ops``, grouped from the left."""
        left = operand()
        while self.peek() in ops:
            op = self.take(*ops)[0]
            left = BinOp(op, left, operand())
        return left

    def power(self):
        base = self.unary()
        if self.peek() == "**":
            self.i += 1
            return BinOp("**", base, self.power())
        return base

    def unary(self):
        if self.peek() != "-":
            return self.primary()
        start = self.toks[self.i][2]
        self.i += 1
        operand = self.unary()
        if not isinstance(operand, Const):
            return Neg(operand)
        try:
            return Const(-operand.value, self.source(start))
        except TypeError:
            raise _Refused(f"no negative of {operand}", start + 1) from None

    def primary(self):
        kind, word, start, _ = self.toks[self.i] if self.i < len(self.toks) else ("", "", 0, 0)
        if kind == "VAR":
            self.i += 1
            return Var(word)
        if kind == "STRING":
            self.i += 1
            return Const(word[1:-1], word)
        if kind == "NUMBER":
            self.i += 1
            return Const(int(word), word)
        if kind == "FRACTION":
            self.i += 1
            self.take("(")
            parts = self.exprs()
            self.take(")")
            if len(parts) > 2 or not all(isinstance(p, Const) for p in parts):
                raise _Refused(f"Fraction of constants only: {self.source(start)}", start + 1)
            try:
                value = Fraction(parts[0].value, parts[1].value if len(parts) == 2 else 1)
            except (TypeError, ValueError, ZeroDivisionError) as e:  # Fraction('cap'), Fraction(1, 0)
                raise _Refused(f"{self.source(start)}: {e}", start + 1) from None
            return Const(value, self.source(start))
        if kind == "(":
            self.i += 1
            if self.peek() == ")":
                self.i += 1
                return Const((), "()")
            first = self.expr()
            if self.peek() != ",":
                self.take(")")
                return first
            self.i += 1
            items = [first] + (self.exprs() if self.peek() != ")" else [])
            self.take(")")
            return TupleOf(tuple(items))
        raise _Refused("expected a variable, a constant or (", self.column())


@lru_cache(maxsize=None)
def parse_rule(text: str) -> Tuple[Literal, Tuple[Literal, ...]]:
    """A rule's head and body literals (cached: a rule is parsed once). Our own text: a rule that does
    not parse is a programming error, raised as ValueError naming it and the column.

        >>> head, body = parse_rule("(low[O] == min_(B, order_by=B)) <= bound(O, B)")
        >>> head.name, str(head.value), body[0].args
        ('low', 'min_(B, order_by=B)', (Var(name='O'), Var(name='B')))
    """
    try:
        return _Reader(text).rule()
    except _Refused as e:
        raise ValueError(f"not a rule provlog reads (column {e.column}: {e}): {text}") from None


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
