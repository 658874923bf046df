"""A pyDatalog program owned by one world.

pyDatalog keeps its clauses in a per-thread global (``Logic()``). A
:class:`Program` owns its own ``Logic`` and switches to it for every call, so
several worlds can live side by side in one process without leaking facts or
rules into each other.

    >>> p = Program()
    >>> p.load_rules(["q(X) <= r(X) & (X > 1)"])
    >>> p.assert_rows("r", [(1,), (2,), (3,)])
    >>> sorted(p.ask("q(X)"))
    [(2,), (3,)]
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Dict, Iterable, List, Sequence, Tuple

from fractions import Fraction

from pyDatalog import Aggregate, Logic, pyDatalog, pyEngine, pyParser

_LOCK = threading.RLock()


def _complete_in_order(self, base_subgoal, subgoal):
    """pyDatalog's ``Aggregate.complete``, one group after another.

    pyDatalog 0.22 evaluates the groups of an aggregate in a thread pool (for
    free-threaded Pythons); under the GIL that only adds a future and a lock per
    group (about 1 s of 20 at 200 orgs). Same groups, same order, same rows.
    """
    groups = {}
    for lit in base_subgoal.facts.values():
        row = tuple(lit.terms)
        groups.setdefault(self.key(row), []).append(row)
    for rows in groups.values():
        for out in self._process_group_concurrently(rows):
            self.fact_candidate(subgoal, out)


if hasattr(Aggregate.Aggregate, "_process_group_concurrently"):
    Aggregate.Aggregate.complete = _complete_in_order


class Program:
    """One Datalog program: facts asserted into it, rules loaded into it."""

    def __init__(self):
        with _LOCK:
            Logic()  # a fresh, empty logic for this thread...
            self._logic = Logic(True)  # ...which this program keeps
        self.sizes: Dict[str, int] = {}  # facts asserted per predicate (strata.py skips joins with an empty one)
        self.tables: Dict[str, List[Tuple[Any, ...]]] = {}  # every fact asserted, by predicate (strata keeps answers here)

    @contextmanager
    def active(self):
        """Make this program the thread's current logic for the block."""
        with _LOCK:
            Logic(self._logic)
            try:
                yield
            finally:
                self._logic = Logic(True)

    def load_rules(self, clauses: Sequence[str]) -> None:
        """Load Datalog clauses written in pyDatalog's syntax."""
        with self.active():
            # Rules may name Fraction, so thresholds are exact (Fraction(1, 5) is 20%).
            pyParser.load("\n".join(clauses), newglobals={"Fraction": Fraction}, defined={"Fraction"})

    def assert_rows(self, predicate: str, rows: Iterable[Sequence[Any]]) -> None:
        """Assert ground facts ``predicate(*row)`` (straight into the engine's tables), and keep them."""
        Const, Literal, Clause, assert_ = pyEngine.Const, pyEngine.Literal, pyEngine.Clause, pyEngine.assert_
        kept = self.tables.setdefault(predicate, [])
        n = 0
        with self.active():
            pred = None
            for row in rows:
                if pred is None:  # the predicate object once, not a registry lookup per row
                    pred = Literal(predicate, [Const(v) for v in row]).pred
                assert_(Clause(Literal(pred, [Const(v) for v in row]), []))
                kept.append(tuple(row))
                n += 1
        self.sizes[predicate] = self.sizes.get(predicate, 0) + n

    def declare(self, predicate: str, arity: int) -> None:
        """Make an EDB predicate known even when it has no rows (so rules over it answer 'none')."""
        with self.active():
            pred = pyEngine.Pred(predicate, arity)
            pred.prearity = arity
            pyEngine.insert(pred)

    def replace_with_facts(self, predicate: str, arity: int, rows: Iterable[Sequence[Any]]) -> None:
        """Drop the rules of ``predicate`` and keep ``rows`` as its facts (see strata.py)."""
        with self.active():
            pred = pyEngine.Pred(predicate, arity)
            for clause in list(pred.clauses.values()):
                pyEngine.retract(clause)
            pred.prearity = arity
            pyEngine.insert(pred)
        self.sizes[predicate] = 0
        self.tables[predicate] = []
        self.assert_rows(predicate, rows)

    def table(self, predicate: str) -> List[Tuple[Any, ...]]:
        """The facts of a predicate: asserted ones, or a relation's answers kept by strata.py."""
        if predicate not in self.tables:
            raise KeyError(f"relation {predicate!r} was not evaluated by strata")
        return self.tables[predicate]

    def relation(self, predicate: str, arity: int) -> List[Tuple[Any, ...]]:
        """Every answer of ``predicate(V0, ..., Vn)``, asked of the engine directly.

        Same answers as ``ask`` with every argument free, without the query clause
        pyDatalog's parser wraps around a goal (one resolution step less per answer).
        """
        with self.active():
            goal = pyEngine.Literal(predicate, [pyEngine.Var(f"V{i}") for i in range(arity)])
            found = goal.ask()
        if found is True:
            return [()]
        return found or []

    def ask(self, goal: str) -> List[Tuple[Any, ...]]:
        """Answer a goal; one tuple per answer (its variables in order of appearance).

        A ground goal that holds answers ``[()]``; no answer is ``[]``.
        """
        with self.active():
            ans = pyDatalog.ask(goal)
        if ans is None:
            return []
        if ans.answers is True:
            return [()]
        return list(ans.answers)
