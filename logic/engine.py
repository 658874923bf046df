"""A pyDatalog program owned by one world.

pyDatalog keeps its clauses in a per-thread global (``Logic()``). A
:class:`Program` owns its own ``Logic`` and switches to it for every call, so
several worlds can live side by side in one process without leaking facts or
rules into each other. Its facts live in :class:`Table` objects that the engine
reads through its Python-resolver hook, and a relation is asked of the engine
directly (:meth:`Program.relation`), whole or one value of an argument at a time.

    >>> p = Program()
    >>> p.load_rules(["q(X) <= r(X) & (X > 1)"])
    >>> p.assert_rows("r", [(1,), (2,), (3,)])
    >>> sorted(p.ask("q(X)"))
    [(2,), (3,)]
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from fractions import Fraction

from .syntax import Atom, FuncEq, parse_rule

_LOCK = threading.RLock()
_PYD: Optional[SimpleNamespace] = None


def pydatalog() -> SimpleNamespace:
    """pyDatalog's modules (``Aggregate``, ``Logic``, ``pyDatalog``, ``pyEngine``, ``pyParser``) and
    ``DatalogError``, imported on first use: joins.py answers every relation of a derivation, so a
    derivation, an edit and a card never pay pyDatalog's import (with SQLAlchemy, about 0.35 s);
    a goal, the explainer or a rulebook that asks the engine does, once.

    The pyDatalog internals this module relies on, beyond its documented API (:data:`INTERNALS`,
    setup.cfg pins the versions they were tested with), are checked here: a missing one fails,
    naming itself, instead of silently turning a patch off.
    """
    global _PYD
    if _PYD is None:
        from pyDatalog import Aggregate, Logic, pyDatalog as pyd, pyEngine, pyParser
        from pyDatalog.util import DatalogError

        missing = [f"{owner.__name__}.{name}" for owner, name in _internals(pyEngine, Aggregate)
                   if not hasattr(owner, name)]
        if missing:
            raise ImportError(f"provlog needs pyDatalog 0.22 (its internals {', '.join(missing)} are gone); "
                              f"install the version setup.cfg names")
        _PYD = SimpleNamespace(Aggregate=Aggregate, Logic=Logic, pyDatalog=pyd, pyEngine=pyEngine,
                               pyParser=pyParser, DatalogError=DatalogError)
    return _PYD


def _internals(pyEngine, Aggregate):
    return (
        (pyEngine, "Python_resolvers"),  # the resolver hook Tables are served through
        (pyEngine, "Literal"), (pyEngine, "Const"), (pyEngine, "Var"), (pyEngine, "Pred"), (pyEngine, "retract"),
        (Aggregate.Aggregate, "complete"), (Aggregate.Aggregate, "_process_group_concurrently"),
        (Aggregate.Aggregate, "key"), (Aggregate.Aggregate, "fact_candidate"),
    )


def __getattr__(name):
    # INTERNALS names pyDatalog's objects, so reading it imports pyDatalog (the module itself does not)
    if name == "INTERNALS":
        pyd = pydatalog()
        return _internals(pyd.pyEngine, pyd.Aggregate)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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



#: a pattern of several bound arguments asked more often than this gets an index on them all
MANY_AFTER = 32


class Table:
    """The rows of one relation, served to the engine through an index on each argument.

    pyDatalog asks a Python resolver (its documented ``@pyDatalog.predicate``
    hook) before its own clause store. Facts kept here instead of as engine
    clauses cost no assertion and a tenth of the memory; an argument bound in a
    call is answered through a dict on that argument, built on first use.
    """

    __slots__ = ("rows", "_index", "_asks")

    def __init__(self):
        self.rows: List[Tuple[Any, ...]] = []
        self._index: Dict[Any, Dict[Any, Sequence[Tuple[Any, ...]]]] = {}  # position(s) -> value(s) -> rows
        self._asks: Dict[Tuple[int, ...], int] = {}  # several bound positions -> how often they were asked

    def extend(self, rows: Iterable[Tuple[Any, ...]]) -> int:
        before = len(self.rows)
        self.rows.extend(rows)
        self._index.clear()
        return len(self.rows) - before

    def lookup(self, position: int, value: Any) -> Sequence[Tuple[Any, ...]]:
        """The rows whose argument ``position`` is ``value``."""
        index = self._index.get(position)
        if index is None:
            index = self._build(position)
        got = index.get(value, ())
        return got if type(got) is list or not got else (got,)

    def _build(self, position: int) -> Dict[Any, Any]:
        """The index on one argument: value -> its one row (most keys: a signal, a source), or a list of
        its rows; no list or 1-tuple for a single row (at 5,000 orgs, tens of MiB)."""
        index: Dict[Any, Any] = {}  # published whole once built: a reader in another thread never sees it half-filled
        for row in self.rows:
            key = row[position]
            had = index.get(key)
            if had is None:
                index[key] = row
            elif type(had) is list:
                had.append(row)
            else:
                index[key] = [had, row]
        for key, had in index.items():
            if type(had) is list and len(had) > 2:
                index[key] = had[:]  # a list grown by appends holds spare room: a copy holds none
        self._index[position] = index
        return index

    def match(self, bound: Sequence[Tuple[int, Any]]) -> Sequence[Tuple[Any, ...]]:
        """The rows with value v at each (position, v) of ``bound``, read through the most selective
        index: one already built if it narrows to a few rows, else every bound position's."""
        if not bound:
            return self.rows
        built = [self.lookup(i, v) for i, v in bound if i in self._index]
        found = min(built, key=len) if built else None
        if found is None or (len(found) > 8 and len(built) < len(bound)):
            found = min((self.lookup(i, v) for i, v in bound), key=len)
        if len(bound) == 1:
            return found
        if len(found) > 16:  # a reader's pattern asked again and again (signals of an org on a dim, ...)
            positions = tuple(sorted(i for i, _ in bound))
            asked = self._asks[positions] = self._asks.get(positions, 0) + 1
            if asked > MANY_AFTER:  # ... is worth an index on all its arguments; a proof's one question is not
                return self._lookup_many(bound)
        return [row for row in found if all(row[i] == v for i, v in bound)]

    def _lookup_many(self, bound: Sequence[Tuple[int, Any]]) -> Sequence[Tuple[Any, ...]]:
        """The rows with value v at each (position, v) of ``bound``, through an index on those positions
        together (built on first use, kept beside the one-argument indexes)."""
        positions = tuple(sorted(i for i, _ in bound))
        index = self._index.get(positions)
        if index is None:
            index = {}
            for row in self.rows:
                index.setdefault(tuple(row[i] for i in positions), []).append(row)
            self._index[positions] = index
        want = dict(bound)
        return index.get(tuple(want[i] for i in positions), ())

    def __call__(self, *terms):
        """pyDatalog's resolver call: ``terms`` are its Var and Const objects."""
        bound = [(i, t.id) for i, t in enumerate(terms) if t.is_const()]
        if len(bound) == 1:  # the usual call: one bound argument, its index built
            index = self._index.get(bound[0][0])
            if index is not None:
                got = index.get(bound[0][1], ())
                return got if type(got) is list or not got else (got,)
        return self.match(bound)


class Program:
    """One Datalog program: rules loaded into it, facts kept beside it in tables.

    Its pyDatalog logic is made the first time the engine is asked something (:meth:`active`):
    until then the rules loaded and the relations replaced by facts are only noted, and replayed in
    order then, so a program whose relations joins.py answers never imports pyDatalog.
    """

    def __init__(self):
        self._logic = None  # pyDatalog's Logic of this program, once started (_started)
        self._pending: List[Tuple] = []  # ("load", clauses) / ("drop", predicate, arity), until started
        self._tables: Dict[str, Table] = {}  # "name/arity" -> its facts (the engine's resolvers while active)
        self.sizes: Dict[str, int] = {}  # facts per predicate (strata.py skips joins with an empty one)
        self.tables: Dict[str, List[Tuple[Any, ...]]] = {}  # the same rows by name (strata keeps answers here)
        self._defined: Dict[str, int] = {}  # relations the rules define: name -> arity
        self._functions: Dict[str, int] = {}  # functions (aggregates) the rules define: name -> keys + 1
        self._asked: Dict[Tuple[str, int, bool], Table] = {}  # rows of relations asked whole, not kept
        self._read_by: Dict[str, str] = {}  # function f -> a relation r(K.., V) <= (f[K..] == V): the same rows
        self._aggregates: Dict[str, List[str]] = {}  # function f -> the clauses that define it

    def _started(self) -> SimpleNamespace:
        """pyDatalog, with this program's logic made and every noted load and drop replayed in order."""
        pyd = pydatalog()
        with _LOCK:  # one start, even if two threads ask at once
            if self._logic is None:
                pyd.Logic()  # a fresh, empty logic for this thread...
                self._logic = pyd.Logic(True)  # ...which this program keeps
                pending, self._pending = self._pending, []
                for op in pending:
                    (self._load if op[0] == "load" else self._retract)(*op[1:])
        return pyd

    @contextmanager
    def active(self):
        """Make this program the thread's current logic for the block: its tables join the engine's
        resolvers (beside any the caller declared) and aggregates run group by group; both are given
        back after."""
        pyd = self._started()
        Logic, pyEngine, Aggregate = pyd.Logic, pyd.pyEngine, pyd.Aggregate
        with _LOCK:
            Logic(self._logic)
            outer = pyEngine.Python_resolvers
            pyEngine.Python_resolvers = {**outer, **self._tables}
            complete = Aggregate.Aggregate.complete
            Aggregate.Aggregate.complete = _complete_in_order
            try:
                yield
            finally:
                Aggregate.Aggregate.complete = complete
                pyEngine.Python_resolvers = outer
                self._logic = Logic(True)

    def load_rules(self, clauses: Sequence[str]) -> None:
        """Load Datalog clauses written in pyDatalog's syntax (our own rule text, never a user's)."""
        for text in clauses:
            head, body = parse_rule(text)
            if isinstance(head, Atom):
                self._defined[head.name] = len(head.args)
                read = body[0] if len(body) == 1 else None
                if isinstance(read, FuncEq) and tuple(head.args) == tuple(read.args) + (read.value,) \
                        and len(set(map(str, head.args))) == len(head.args):
                    self._read_by.setdefault(read.name, head.name)
            else:
                self._functions[head.name] = len(head.args) + 1
                self._aggregates.setdefault(head.name, []).append(text)
        self._asked.clear()
        if self._logic is None:
            self._pending.append(("load", list(clauses)))
        else:
            self._load(clauses)

    def _load(self, clauses: Sequence[str]) -> None:
        with self.active():
            # Rules may name Fraction, so thresholds are exact (Fraction(1, 5) is 20%).
            pydatalog().pyParser.load("\n".join(clauses), newglobals={"Fraction": Fraction}, defined={"Fraction"})

    def _table(self, predicate: str, arity: int) -> Table:
        key = f"{predicate}/{arity}"
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = Table()
            self.tables[predicate] = table.rows
        return table

    def declare(self, predicate: str, arity: int) -> None:
        """Make a fact predicate known even when it has no rows (so rules over it answer 'none')."""
        self._table(predicate, arity)
        self.sizes.setdefault(predicate, 0)

    def assert_rows(self, predicate: str, rows: Iterable[Sequence[Any]]) -> None:
        """Add ground facts ``predicate(*row)`` (each row once)."""
        rows = list(dict.fromkeys(tuple(r) for r in rows))
        self._asked.clear()
        if not rows:
            self.sizes.setdefault(predicate, 0)
            return
        n = self._table(predicate, len(rows[0])).extend(rows)
        self.sizes[predicate] = self.sizes.get(predicate, 0) + n

    def replace_with_facts(self, predicate: str, arity: int, rows: Iterable[Sequence[Any]]) -> None:
        """Drop the rules of ``predicate`` and keep ``rows`` as its facts (see strata.py)."""
        if self._logic is None:
            self._pending.append(("drop", predicate, arity))
        else:
            self._retract(predicate, arity)
        self._tables.pop(f"{predicate}/{arity}", None)
        self.sizes[predicate] = 0
        self.tables.pop(predicate, None)
        self.declare(predicate, arity)
        self.assert_rows(predicate, rows)

    def _retract(self, predicate: str, arity: int) -> None:
        with self.active():
            pyEngine = pydatalog().pyEngine
            pred = pyEngine.Pred(predicate, arity)
            for clause in list(pred.clauses.values()):
                pyEngine.retract(clause)

    def table(self, predicate: str) -> List[Tuple[Any, ...]]:
        """The facts of a predicate: asserted ones, or a relation's answers kept by strata.py."""
        if predicate not in self.tables:
            raise KeyError(f"relation {predicate!r} was not evaluated by strata")
        return self.tables[predicate]

    def indexed(self, predicate: str, arity: int) -> Optional[Table]:
        """The :class:`Table` of a predicate's facts (its rows and indexes), if it has one."""
        return self._tables.get(f"{predicate}/{arity}")

    # -- the read interface: what goals (logic/goal.py) and the explainer read ---------------------------
    def relations(self) -> Dict[str, int]:
        """Every relation of the program (facts and rules): name -> arity."""
        out = dict(self._defined)
        out.update((key.split("/")[0], int(key.split("/")[1])) for key in self._tables)
        return out

    def functions(self) -> Dict[str, int]:
        """Every function the rules define (``f[K1, K2] == V``): name -> its keys and value (3 here)."""
        return dict(self._functions)

    def match(self, predicate: str, arity: int, bound: Sequence[Tuple[int, Any]],
              function: bool = False) -> Sequence[Tuple[Any, ...]]:
        """The rows of ``predicate`` with value v at each (position, v) of ``bound``: its facts (kept
        answers too) through their indexes; a relation or function the rules define, asked of the
        engine whole once and indexed the same way (with ``bound`` fixed if it cannot be asked whole;
        LookupError if not even so). An unknown name has no rows. A function's rows are its keys, then
        its value.
        """
        table = self._tables.get(f"{predicate}/{arity}" if not function else f"{self._read_by.get(predicate)}/{arity}")
        if table is not None:  # facts or kept answers; a function through the kept relation that reads it whole
            return table.match(bound)
        if (self._functions if function else self._defined).get(predicate) != arity:
            return []
        key = (predicate, arity, function)
        table = self._asked.get(key)
        if table is None:
            try:
                rows = self._joined(predicate) if function else None
                if rows is None:
                    rows = self._ask_whole(predicate, arity, function)
            except pydatalog().DatalogError:  # a relation the engine answers only with some arguments bound
                return self._ask_bound(predicate, arity, bound, function)
            table = self._asked[key] = Table()
            table.extend(rows)
        return table.match(bound)

    def _joined(self, function: str) -> Optional[List[Tuple[Any, ...]]]:
        """A function no kept relation reads (``lab_revenue_share``), joined in Python from its aggregate as
        strata.py joins relations (joins.py), so storing it asks pyDatalog nothing; None if joins cannot."""
        from .joins import aggregate_rows
        from .rules import Rule

        return aggregate_rows([Rule("", text, "") for text in self._aggregates.get(function, ())], self)

    def _ask_bound(self, predicate: str, arity: int, bound, function: bool) -> List[Tuple[Any, ...]]:
        if not function:
            try:
                return self.relation(predicate, arity, dict(bound))
            except pydatalog().DatalogError:
                pass
        raise LookupError(f"{predicate} cannot be listed with these arguments free")

    def _ask_whole(self, predicate: str, arity: int, function: bool) -> List[Tuple[Any, ...]]:
        if not function:
            return self.relation(predicate, arity)
        with self.active():
            pyEngine = pydatalog().pyEngine
            # pyDatalog's literal for f[K1..Kn] == V: predicate "f[n]==", a class prefix, the keys, the value
            goal = pyEngine.Literal(f"{predicate}[{arity - 1}]==",
                                    [pyEngine.Const("_pyD_class")] + [pyEngine.Var(f"V{i}") for i in range(arity)],
                                    prearity=arity)
            found = goal.ask()
        return [tuple(row[1:]) for row in found or ()]

    def relation(self, predicate: str, arity: int, bound: Optional[Dict[int, Any]] = None) -> List[Tuple[Any, ...]]:
        """Every answer of ``predicate(V0, ..., Vn)`` (with ``bound`` arguments fixed), asked of the engine directly.

        Same answers as ``ask``, without the query clause pyDatalog's parser wraps
        around a goal (one resolution step less per answer).
        """
        bound = bound or {}
        with self.active():
            pyEngine = pydatalog().pyEngine
            goal = pyEngine.Literal(predicate, [pyEngine.Const(bound[i]) if i in bound else pyEngine.Var(f"V{i}")
                                                for i in range(arity)])
            found = goal.ask()
        if found is True:
            return [()]
        return found or []

    def ask(self, goal: str) -> List[Tuple[Any, ...]]:
        """Answer a goal written in pyDatalog's syntax; one tuple per answer (its variables in order of
        appearance). pyDatalog evaluates the text as Python: for our own text only (tests, the doctest
        above), never a user's or a file's (those are goals: logic/goal.py).

        A ground goal that holds answers ``[()]``; no answer is ``[]``.
        """
        with self.active():
            ans = pydatalog().pyDatalog.ask(goal)
        if ans is None:
            return []
        if ans.answers is True:
            return [()]
        return list(ans.answers)
