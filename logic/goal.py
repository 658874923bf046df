"""Answer a goal (grammar/query.py) over a program's relations: a join, left to right.

A goal is checked before anything is read: every relation known with its
arity, and every variable of a negated literal or a comparison bound by a
positive literal (range restriction; the literals are reordered so that
tests come once their variables are bound). Then its literals are joined left
to right, a negated literal holding where no row matches (negation as
failure), comparisons made on the typed values. Nothing of the goal becomes
program text.

The goal reads its relations through :class:`Tables`, the read interface a
:class:`~provlog.logic.engine.Program` offers (and any other store of the
same relations may offer):

    >>> from provlog.logic.engine import Program
    >>> from provlog.grammar import parse_goal
    >>> p = Program()
    >>> p.assert_rows("lab", [("acme",), ("zeta",)])
    >>> p.assert_rows("owns", [("ann", "acme")])
    >>> answer(parse_goal("lab(L) & ~owns('ann', L)"), p)
    [('zeta',)]
"""
from __future__ import annotations

import difflib
import os
from typing import Any, Dict, Iterator, List, Mapping, Optional, Protocol, Sequence, Tuple

from ..grammar.query import Atom, Compare, Const, FuncEq, Goal, Literal, Negated, QueryError, Var, safe_order
from .syntax import evaluate, holds

Row = Tuple[Any, ...]

#: The rows a goal may examine before it is stopped: far above what any shipped world's goal needs
#: (the largest examines about 2,000), well below a join that would run for minutes.
DEFAULT_LIMIT = 1_000_000
#: The environment variable that raises (or lowers) the limit: ``PROVLOG_GOAL_LIMIT=20000000``.
LIMIT_ENV = "PROVLOG_GOAL_LIMIT"


class GoalLimit(QueryError):
    """A goal that examined more rows than its limit allows (a join that grows as a product)."""


def goal_limit() -> int:
    """The limit on a goal's work: ``PROVLOG_GOAL_LIMIT`` if set to a whole number, else DEFAULT_LIMIT."""
    text = os.environ.get(LIMIT_ENV, "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else DEFAULT_LIMIT


class _Budget:
    """What is left of a goal's work: every row a literal reads, every negated lookup and test costs one."""

    def __init__(self, limit: int):
        self.limit, self.left = limit, limit

    def spend(self, n: int, lit) -> None:
        self.left -= n
        if self.left < 0:
            raise GoalLimit(f"the goal examined more than {self.limit:,} rows without finishing (literals that "
                            f"share no variable join as the product of their relations); bind more of its "
                            f"variables, or raise the limit: {LIMIT_ENV}={self.limit * 10}",
                            getattr(lit, "column", 1))


class Tables(Protocol):
    """What a goal reads. ``relations()``: name -> arity; ``functions()``: name -> keys + 1 (the
    value); ``match(name, arity, bound, function=False)``: the rows with value v at each
    (position, v) of ``bound`` (a function's rows are its keys, then its value), or LookupError
    when the relation cannot be listed with the other arguments free."""

    def relations(self) -> Mapping[str, int]: ...

    def functions(self) -> Mapping[str, int]: ...

    def match(self, name: str, arity: int, bound: Sequence[Tuple[int, Any]],
              function: bool = False) -> Sequence[Row]: ...


def _arity(lit) -> int:
    return len(lit.args) + 1 if isinstance(lit, FuncEq) else len(lit.args)


def check_names(goal: Goal, tables: Tables) -> None:
    """Every relation of the goal exists with the goal's arity, else a located :class:`QueryError`."""
    relations, functions = tables.relations(), tables.functions()
    for lit in goal.literals:
        if isinstance(lit, Compare):
            continue
        known = functions if isinstance(lit, FuncEq) else relations
        n = _arity(lit)
        if known.get(lit.name) == n:
            continue
        shown = f"{lit.name}[{n - 1}]" if isinstance(lit, FuncEq) else f"{lit.name}/{n}"
        if lit.name in known:
            has = known[lit.name] - 1 if isinstance(lit, FuncEq) else known[lit.name]
            hint = f"; {lit.name} takes {has} {'key' if isinstance(lit, FuncEq) else 'argument'}{'s' if has != 1 else ''}"
        else:
            near = difflib.get_close_matches(lit.name, sorted(known), n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
        what = "function" if isinstance(lit, FuncEq) else "relation"
        raise QueryError(f"no {what} named {shown} (name/arity){hint}", lit.column)


def _bound(args, env: Mapping[str, Any]) -> List[Tuple[int, Any]]:
    out = []
    for i, a in enumerate(args):
        if isinstance(a, Const):
            out.append((i, a.value))
        elif a.name in env:
            out.append((i, env[a.name]))
    return out


def _unify(args, row: Row, env: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    out = env
    for a, v in zip(args, row):
        if isinstance(a, Var):
            if a.name in out:
                if out[a.name] != v:
                    return None
            else:
                if out is env:
                    out = dict(env)
                out[a.name] = v
        elif a.value != v:
            return None
    return out


def _rows(tables: Tables, lit, args, env, budget: _Budget, function: bool = False) -> Sequence[Row]:
    try:
        rows = tables.match(lit.name, len(args), _bound(args, env), function)
    except LookupError:
        raise QueryError(f"{lit.name} cannot be asked with these arguments free; bind more of them",
                         lit.column) from None
    budget.spend(len(rows) + 1, lit)
    return rows


def _solve(order: Sequence[Literal], tables: Tables, env: Dict[str, Any], budget: _Budget) -> Iterator[Dict[str, Any]]:
    if not order:
        yield env
        return
    lit, rest = order[0], order[1:]
    if isinstance(lit, Negated):
        if not _rows(tables, lit, lit.args, env, budget):
            yield from _solve(rest, tables, env, budget)
    elif isinstance(lit, (Atom, FuncEq)):
        args = lit.args + (lit.value,) if isinstance(lit, FuncEq) else lit.args
        for row in _rows(tables, lit, args, env, budget, isinstance(lit, FuncEq)):
            e = _unify(args, row, env)
            if e is not None:
                yield from _solve(rest, tables, e, budget)
    else:
        budget.spend(1, lit)
        free = [side for side in (lit.left, lit.right) if isinstance(side, Var) and side.name not in env]
        if free:  # (X == c): X takes the other side's value
            other = lit.right if free[0] is lit.left else lit.left
            yield from _solve(rest, tables, dict(env, **{free[0].name: evaluate(other, env)}), budget)
        elif holds(lit, env):
            yield from _solve(rest, tables, env, budget)


def answer(goal: Goal, tables: Tables, limit: Optional[int] = None) -> List[Row]:
    """Every answer of ``goal``: one tuple per distinct binding of its variables (in order of first
    appearance), in the order found; a ground goal that holds answers ``[()]``. :class:`GoalLimit`
    once it has examined more than ``limit`` rows (default :func:`goal_limit`)."""
    check_names(goal, tables)
    order = safe_order(goal)
    names = goal.variables()
    out = {}
    for env in _solve(order, tables, {}, _Budget(goal_limit() if limit is None else limit)):
        out.setdefault(tuple(env[n] for n in names), None)
    return list(out)
