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

from pyDatalog import Logic, pyDatalog, pyEngine, pyParser

_LOCK = threading.RLock()


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
            for row in rows:
                assert_(Clause(Literal(predicate, [Const(v) for v in row]), []))
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
