"""Parse an ad-hoc query goal into typed literals.

A goal is read by a grammar of its own (query.lark) into a small tree of
literals whose constants are typed values (str or int). Nothing a goal says
becomes program text: logic/goal.py evaluates the tree over the derived
tables, and the rules' own literals (logic/syntax.py) are the same kinds.
The goal's text is read by :func:`provlog.grammar.read_goal.parse_goal`.

    >>> from provlog.grammar import parse_goal
    >>> g = parse_goal("value(O, 'F', 'standard', X, S, R) & (X < 2)")
    >>> [str(lit) for lit in g.literals], g.variables()
    (["value(O, 'F', 'standard', X, S, R)", '(X < 2)'], ('O', 'X', 'S', 'R'))

Strings are quoted with ' or " and hold any character but their own quote
and a line end; a backslash is an ordinary character (there are no escapes).
Numbers are whole, at most :data:`MAX_DIGITS` digits.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, List, Optional, Set, Tuple, Union

from ..errors import ProvlogError

#: The longest number a goal may write (Python refuses to read ints of 4,300+ digits; no value needs 20).
MAX_DIGITS = 20


class QueryError(ProvlogError, ValueError):
    """A goal that is not a Datalog query provlog accepts: ``query:1:<column>: <reason>``; ``column``
    is where in the goal (1-based)."""

    exit_code = 2

    def __init__(self, reason: str, column: int = 1, syntax: bool = False):
        super().__init__(f"query:1:{column}: {'not a Datalog goal here: ' if syntax else ''}{reason}")
        self.reason = reason
        self.column = column


def distinct(names: Iterable[str]) -> Tuple[str, ...]:
    """The names in order of first appearance, each once."""
    return tuple(dict.fromkeys(names))


# -- terms -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Var:
    """A variable: ``X``."""

    name: str

    def variables(self) -> Tuple[str, ...]:
        return (self.name,)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Const:
    """A constant, a typed value (str or int in goals; rules also write Fractions and tuples).
    ``text`` is how it was written, for display."""

    value: Any
    text: str = field(default="", compare=False)

    def variables(self) -> Tuple[str, ...]:
        return ()

    def __str__(self) -> str:
        return self.text or repr(self.value)


Term = Union[Var, Const]


# -- literals ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Atom:
    """``name(arg, ...)``."""

    name: str
    args: Tuple[Term, ...]
    column: int = field(default=1, compare=False)
    negated: ClassVar[bool] = False

    def variables(self) -> Tuple[str, ...]:
        return distinct(n for a in self.args for n in a.variables())

    def __str__(self) -> str:
        return f"{self.name}({', '.join(map(str, self.args))})"


@dataclass(frozen=True)
class Negated:
    """``~atom``: holds where no row of the atom matches (negation as failure)."""

    atom: Atom
    column: int = field(default=1, compare=False)
    negated: ClassVar[bool] = True

    @property
    def name(self) -> str:
        return self.atom.name

    @property
    def args(self) -> Tuple[Term, ...]:
        return self.atom.args

    def variables(self) -> Tuple[str, ...]:
        return self.atom.variables()

    def __str__(self) -> str:
        return f"~{self.atom}"


@dataclass(frozen=True)
class Compare:
    """``(left op right)``; in a goal both sides are terms, in a rule expressions (logic/syntax.py).
    ``text`` is the comparison as written, for display."""

    left: Any
    op: str
    right: Any
    column: int = field(default=1, compare=False)
    text: str = field(default="", compare=False)

    def variables(self) -> Tuple[str, ...]:
        return distinct(self.left.variables() + self.right.variables())

    @property
    def assigns(self) -> Optional[str]:
        """``(X == expr)`` may bind X where X is not yet bound: its name, else None."""
        return self.left.name if self.op == "==" and isinstance(self.left, Var) else None

    def __str__(self) -> str:
        return self.text or f"({self.left} {self.op} {self.right})"


@dataclass(frozen=True)
class FuncEq:
    """``name[key, ...] == value``: a function's value (an aggregate's, in the rules)."""

    name: str
    args: Tuple[Term, ...]
    value: Any
    column: int = field(default=1, compare=False)

    def variables(self) -> Tuple[str, ...]:
        return distinct(n for a in self.args + (self.value,) for n in a.variables())

    def __str__(self) -> str:
        return f"{self.name}[{', '.join(map(str, self.args))}] == {self.value}"


Literal = Union[Atom, Negated, Compare, FuncEq]


@dataclass(frozen=True)
class Goal:
    """Literals joined by ``&``."""

    literals: Tuple[Literal, ...]
    text: str = field(default="", compare=False)

    def variables(self) -> Tuple[str, ...]:
        """Every variable, in order of first appearance (the columns of an answer)."""
        return distinct(n for lit in self.literals for n in lit.variables())

    def __str__(self) -> str:
        return " & ".join(map(str, self.literals))


# -- parsing ---------------------------------------------------------------------------------------
def _ready(lit: Literal, bound: Set[str]) -> bool:
    """Whether a literal can be decided with ``bound`` variables: a positive one always; a test once
    its variables are bound (``(X == c)`` binds X)."""
    if isinstance(lit, (Atom, FuncEq)):
        return True
    free = [v for v in lit.variables() if v not in bound]
    if not free:
        return True
    if not (isinstance(lit, Compare) and lit.op == "==" and len(free) == 1):
        return False
    sides = (lit.left, lit.right)
    return any(side == Var(free[0]) and free[0] not in other.variables() for side, other in (sides, sides[::-1]))


def safe_order(goal: Goal) -> List[Literal]:
    """The literals in an order that binds every variable before a test reads it (range restriction):
    the first literal that is ready, again and again. A variable no positive literal binds is a
    located :class:`QueryError`."""
    pending, order, bound = list(goal.literals), [], set()
    while pending:
        i = next((i for i, lit in enumerate(pending) if _ready(lit, bound)), None)
        if i is None:
            lit = pending[0]
            free = [v for v in lit.variables() if v not in bound]
            where = "under negation" if isinstance(lit, Negated) else "in a comparison"
            raise QueryError(f"variable {free[0]} appears only {where} ({lit}): every variable of a negation "
                             "or a comparison must appear in a positive literal of the goal", lit.column)
        lit = pending.pop(i)
        order.append(lit)
        bound.update(lit.variables())
    return order
