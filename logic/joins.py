"""Rules over kept relations, joined in Python: the same rows as pyDatalog, without its per-step price.

strata.py asks each relation once, after every relation its rules read has
been replaced by its answers (facts in tables). A rule is then a join: atoms
over those tables, negated atoms over them, and comparisons (an unbound
``(X == expr)`` binds X), read once by logic/syntax.py. For such a rule
pyDatalog's SLG resolution pays about 25-40 us per answer and per join step; a
nested loop over the tables' indexes pays a tenth of that. A relation that
only reads an aggregate (``r(K, V) <= (f[K] == V)``, ``f`` a ``min_``,
``len_`` or ``sum_`` of such a body) is grouped here as pyDatalog groups it;
such a function read inside a body (``(f[K] == V) & ...``) joins as a relation of
those groups. A linear recursive relation (each rule reads its own head at most
once, never negated: ``chain``, ``hop_within``, ...) is a semi-naive fixpoint:
each round joins only the rows the last round made, until a round makes none
(the rules bound their depth). ``X.in_(Xs)`` with X free binds X to each
member of the tuple Xs. :func:`compile_rules` returns ``None`` for anything
else (a body over a relation not kept, another aggregate, a recursion through
two atoms), which pyDatalog keeps answering. The rules are unchanged (the explainer walks them), and
tests/test_joins.py derives worlds both ways and compares every kept row.

    >>> from provlog.logic.engine import Program
    >>> from provlog.logic.rules import Rule
    >>> p = Program()
    >>> p.assert_rows("r", [(1, "a"), (2, "b"), (3, "a")])
    >>> p.assert_rows("bad", [(3,)])
    >>> join = compile_rules([Rule("def", "q(X) <= r(X, 'a') & ~bad(X) & (X >= 1)", "")], p)
    >>> join()
    [(1,)]
"""
from __future__ import annotations

import re
from operator import itemgetter
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .rules import Rule
from .syntax import OPERATORS, TESTS, Aggregate, Atom, BinOp, Compare, Const, FuncEq, Neg, Negated, TupleOf, Var

#: An aggregate's arguments as our rules write them: ``min_(S, order_by=(B, R, S))``, ``len_(Src)``,
#: ``sum_(P, for_each=Path)``.
_AGGREGATE = re.compile(r"(min_|len_|sum_)\(\s*([A-Z]\w*)\s*(?:,\s*(order_by|for_each)\s*=\s*\(?([^()]*)\)?\s*)?\)\Z")


class _Unsupported(Exception):
    pass


class _Plan:
    """One rule body as steps over variable slots: atoms most-bound first (among equals, in the rule's own
    order, written for the engine), each test and negation as soon as its variables are bound."""

    def __init__(self, body: Sequence, program, extra: Optional[Dict[str, int]] = None, first: Optional[str] = None):
        """``extra``: relations given when the plan runs (name -> arity: a recursive relation's last round,
        an aggregate's groups) beside the kept ones; ``first``: the relation to join first (the last round)."""
        self.slots: Dict[str, int] = {}
        self.steps: List[Tuple] = []
        bound: set = set()
        extra = extra or {}
        positive = sorted((lit for lit in body if isinstance(lit, Atom)), key=lambda a: a.name != first)
        pending = [lit for lit in body if isinstance(lit, (Negated, Compare))]
        if len(positive) + len(pending) != len(body):
            raise _Unsupported("a function in the body")
        for lit in positive + [lit for lit in pending if isinstance(lit, Negated)]:
            if lit.name in extra:
                if extra[lit.name] != len(lit.args) or (isinstance(lit, Negated) and lit.name == first):
                    raise _Unsupported(lit.name)
                continue
            rows = program.tables.get(lit.name)
            if rows is None or (rows and len(rows[0]) != len(lit.args)):
                raise _Unsupported(lit.name)  # not (yet) kept as facts
        self._place(pending, bound)
        while positive:
            best = max(positive, key=lambda a: sum(1 for t in a.args if isinstance(t, Var) and t.name in bound))
            positive.remove(best)
            self.steps.append(("atom", best.name, self._args(best.args, bound)))
            bound |= set(best.variables())
            self._place(pending, bound)
        # X.in_(Xs) with X free once every atom is joined (an atom that binds X makes it a test)
        while self._place(pending, bound, members=True):
            self._place(pending, bound)
        for lit in pending:  # a negated atom with variables no atom binds: "no row exists" over them
            if not isinstance(lit, Negated):
                raise _Unsupported(str(lit))
            self.steps.append(("not", lit.name, self._args(lit.args, bound, free_ok=True)))
        self.bound = bound

    def slot(self, var: str) -> int:
        return self.slots.setdefault(var, len(self.slots))

    def _args(self, args, bound, free_ok=False):
        """Per argument: ('const', v), ('bound', slot), ('new', slot), or ('same', slot) for a new variable's
        later place in the same atom (('free', None) in a negated atom: any value)."""
        out, new = [], set()
        for t in args:
            if isinstance(t, Const):
                out.append(("const", t.value))
            elif t.name in bound:
                out.append(("bound", self.slot(t.name)))
            elif free_ok:
                out.append(("free", None))
            else:
                out.append(("same" if t.name in new else "new", self.slot(t.name)))
                new.add(t.name)
        return out

    def _place(self, pending: List, bound: set, members: bool = False) -> bool:
        """Place each pending literal its bound variables allow; with ``members``, only the first
        ``X.in_(Xs)`` with X free and Xs bound, as a step binding X to each member (True if one was)."""
        for lit in list(pending):
            if members:
                if isinstance(lit, Compare) and lit.op == "in" and isinstance(lit.left, Var) \
                        and lit.left.name not in bound and all(v in bound for v in lit.right.variables()):
                    self.steps.append(("each", self.slot(lit.left.name), self.expr(lit.right)))
                    bound.add(lit.left.name)
                    pending.remove(lit)
                    return True
                continue
            if isinstance(lit, Negated):
                if all(v in bound for v in lit.variables()):
                    self.steps.append(("not", lit.name, self._args(lit.args, bound)))
                    pending.remove(lit)
            elif lit.assigns and lit.assigns not in bound:  # (X == expr) binds X once expr is known
                if all(v in bound for v in lit.right.variables()):
                    self.steps.append(("let", self.slot(lit.assigns), self.expr(lit.right)))
                    bound.add(lit.assigns)
                    pending.remove(lit)
            elif all(v in bound for v in lit.variables()):
                self.steps.append(("test", TESTS[lit.op], self.expr(lit.left), self.expr(lit.right)))
                pending.remove(lit)
        return False

    def expr(self, e) -> Callable[[List[Any]], Any]:
        """An expression of bound variables as a function of the slots (syntax.evaluate's reading)."""
        if isinstance(e, Var):
            s = self.slot(e.name)
            return lambda env: env[s]
        if isinstance(e, Const):
            v = e.value
            return lambda env: v
        if isinstance(e, BinOp):
            f, left, right = OPERATORS[e.op], self.expr(e.left), self.expr(e.right)
            return lambda env: f(left(env), right(env))
        if isinstance(e, TupleOf):
            items = [self.expr(i) for i in e.items]
            return lambda env: tuple(i(env) for i in items)
        if isinstance(e, Neg):
            operand = self.expr(e.operand)
            return lambda env: -operand(env)
        raise _Unsupported(repr(e))

    def columns(self, terms) -> List[Callable[[List[Any]], Any]]:
        """The output columns: a head's terms (each variable bound by the body)."""
        if any(isinstance(t, Var) and t.name not in self.bound for t in terms):
            raise _Unsupported("a head variable the body does not bind")
        return [self.expr(t) for t in terms]


def _aggregate_read(rule: Rule, program, defining: Callable[[str], Sequence[Rule]]):
    """``r(K.., V) <= (f[K..] == V)``: the body of ``f`` joined, then grouped by K.. as pyDatalog groups
    it: min_ is the Y of the first row in order_by order (``-X`` descending), len_ the number of distinct
    Y, sum_ the sum of Y over distinct (Y, for_each) rows."""
    head, (read,) = rule.head_literal, rule.body_literals
    if not isinstance(head, Atom) or tuple(head.args) != tuple(read.args) + (read.value,):
        raise _Unsupported(rule.text)
    agg_rules = defining(read.name) or ()
    agg_head = agg_rules[0].head_literal if len(agg_rules) == 1 else None
    if not isinstance(agg_head, FuncEq) or not isinstance(agg_head.value, Aggregate) or agg_head.args != read.args:
        raise _Unsupported(read.name)
    m = _AGGREGATE.match(agg_head.value.text)
    if m is None or not all(isinstance(k, Var) for k in read.args) or (m.group(1) != "len_") != bool(m.group(3)):
        raise _Unsupported(agg_head.value.text)
    return _groups(agg_rules[0], m, program)


def _function(lit: FuncEq, program, defining: Optional[Callable[[str], Sequence[Rule]]]):
    """A function read inside a body, ``(f[K..] == V)``: an atom ``f[](K.., V)`` over the groups of the
    aggregate that defines ``f``, and the function that computes them (see :func:`_aggregate_read`)."""
    agg_rules = (defining(lit.name) if defining is not None else None) or ()
    agg_head = agg_rules[0].head_literal if len(agg_rules) == 1 else None
    if not isinstance(agg_head, FuncEq) or not isinstance(agg_head.value, Aggregate) \
            or not isinstance(lit.value, (Var, Const)) or len(agg_head.args) != len(lit.args):
        raise _Unsupported(str(lit))
    m = _AGGREGATE.match(agg_head.value.text)
    keys = [k.name for k in agg_head.args if isinstance(k, Var)]
    if m is None or len(set(keys)) != len(agg_head.args) or (m.group(1) != "len_") != bool(m.group(3)):
        raise _Unsupported(agg_head.value.text)
    return Atom(lit.name + "[]", tuple(lit.args) + (lit.value,)), _groups(agg_rules[0], m, program)


def aggregate_rows(rules: Sequence[Rule], program) -> Optional[List[Tuple[Any, ...]]]:
    """The rows ``K.. + (value,)`` of the function ``rules`` define (one aggregate, ``f[K..] == min_/len_/
    sum_(..)``), its body joined over ``program``'s tables as :func:`_function` joins it; None if it has
    another shape or reads a relation not kept (then pyDatalog answers it)."""
    head = rules[0].head_literal if len(rules) == 1 else None
    if not isinstance(head, FuncEq) or not isinstance(head.value, Aggregate):
        return None
    m = _AGGREGATE.match(head.value.text)
    keys = [k.name for k in head.args if isinstance(k, Var)]
    if m is None or len(set(keys)) != len(head.args) or (m.group(1) != "len_") != bool(m.group(3)):
        return None
    try:
        return _groups(rules[0], m, program)()
    except _Unsupported:
        return None


def _groups(agg_rule: Rule, m, program) -> Callable[[], List[Tuple[Any, ...]]]:
    """The rows ``K.. + (value,)`` of the aggregate ``agg_rule`` (``f[K..] == min_/len_/sum_(..)``,
    matched by ``m``): its body joined, then grouped."""
    kind, extra = m.group(1), [x.strip() for x in (m.group(4) or "").split(",") if x.strip()]
    plan = _Plan(agg_rule.body_literals, program)
    nk = len(agg_rule.head_literal.args)
    columns = plan.columns(list(agg_rule.head_literal.args) + [Var(m.group(2))] + [Var(x.lstrip("-")) for x in extra])
    descending = [x.startswith("-") for x in extra]

    def answers() -> List[Tuple[Any, ...]]:
        rows: Dict[Tuple, None] = {}
        _run(plan, columns, program, rows)
        out: Dict[Tuple, Any] = {}
        if kind == "min_":
            best: Dict[Tuple, Tuple] = {}
            for row in rows:
                order = tuple(-v if d else v for d, v in zip(descending, row[nk + 1:]))
                had = best.get(row[:nk])
                if had is None or order < had[0]:
                    best[row[:nk]] = (order, row[nk])
            out = {k: v[1] for k, v in best.items()}
        elif kind == "len_":
            for row in dict.fromkeys(r[:nk + 1] for r in rows):
                out[row[:nk]] = out.get(row[:nk], 0) + 1
        else:
            for row in rows:
                out[row[:nk]] = out.get(row[:nk], 0) + row[nk]
        return [k + (v,) for k, v in out.items()]
    return answers


#: the relation of the keys a bounded rule set is joined from (compile_rules ``keys``)
KEYS = "_keys"


def compile_rules(rules: Sequence[Rule], program, defining: Optional[Callable[[str], Sequence[Rule]]] = None,
                  keys: Optional[Tuple[int, Sequence[Any]]] = None) -> Optional[Callable[[], List[Tuple[Any, ...]]]]:
    """A function answering the relation of ``rules`` by joins over ``program``'s tables, or None if a rule
    has another shape (then pyDatalog answers it). ``defining(name)`` gives the rules of an aggregate a
    rule reads (``r(K, V) <= (f[K] == V)``). ``keys`` = (i, values): only the rows whose argument i is one
    of ``values``, each rule joined from them (logic/bounded.py; None if a head's argument i is not a
    variable, or the relation is recursive)."""
    name = rules[0].head_name
    try:
        body = rules[0].body_literals
        if keys is None and defining is not None and len(rules) == 1 and len(body) == 1 and isinstance(body[0], FuncEq):
            return _aggregate_read(rules[0], program, defining)
        functions: Dict[str, Callable[[], List[Tuple[Any, ...]]]] = {}  # f[] -> the groups of aggregate f
        arity: Dict[str, int] = {}
        base, recursive = [], []
        for r in rules:
            if not isinstance(r.head_literal, Atom):
                raise _Unsupported(r.text)
            body = list(r.body_literals)
            for i, lit in enumerate(body):
                if isinstance(lit, FuncEq):
                    body[i], functions[lit.name + "[]"] = _function(lit, program, defining)
                    arity[lit.name + "[]"] = len(body[i].args)
            reads = [lit for lit in body if isinstance(lit, (Atom, Negated)) and lit.name == name]
            if len(reads) > 1:
                raise _Unsupported("a recursion through two atoms")
            extra = dict(arity)
            if reads:
                extra[name] = len(r.head_literal.args)
            first = name if reads else None
            if keys is not None:
                key = r.head_literal.args[keys[0]]
                if reads or not isinstance(key, Var):
                    raise _Unsupported("keys of a recursive relation, or of a constant")
                body, extra[KEYS], first = [Atom(KEYS, (key,))] + body, 1, KEYS
            plan = _Plan(body, program, extra, first=first)
            (recursive if reads else base).append((plan, plan.columns(r.head_literal.args)))
    except _Unsupported:
        return None

    def answers() -> List[Tuple[Any, ...]]:
        tables = {f: _Rows(groups()) for f, groups in functions.items()}
        if keys is not None:
            tables[KEYS] = _Rows([(k,) for k in keys[1]])
        out: Dict[Tuple, None] = {}
        for plan, columns in base:
            _run(plan, columns, program, out, tables)
        if recursive:
            _fixpoint(name, recursive, program, out, tables)
        return list(out)
    return answers


def join(body: Sequence[Atom], program, given: Dict[str, List[Tuple[Any, ...]]], terms: Sequence
         ) -> Optional[List[Tuple[Any, ...]]]:
    """The distinct values of ``terms`` over the atoms ``body`` (the first joined first): a relation named
    in ``given`` read from those rows, any other from ``program``'s kept tables; None if one is not kept
    or the atoms do not bind every variable of ``terms``.

        >>> from provlog.logic.engine import Program
        >>> p = Program()
        >>> p.assert_rows("owns", [("x", "o1"), ("y", "o2")])
        >>> join([Atom("moved", (Var("X"),)), Atom("owns", (Var("X"), Var("O")))], p, {"moved": [("x",)]}, [Var("O")])
        [('o1',)]
    """
    try:
        plan = _Plan(list(body), program, {a.name: len(a.args) for a in body if a.name in given}, first=body[0].name)
        columns = plan.columns(terms)
    except _Unsupported:
        return None
    out: Dict[Tuple, None] = {}
    _run(plan, columns, program, out, {n: _Rows(rs) for n, rs in given.items()})
    return list(out)


#: rounds a recursive relation may take; the rules bound their depth (6 links, 4 ties), so this is
#: only reached by a rule written without a bound over values it makes (``N == N1 + 1`` round a circle)
MAX_ROUNDS = 10_000


def _fixpoint(name: str, plans, program, out: Dict, tables: Dict) -> None:
    """Semi-naive: each round joins the recursive rules over the rows the last round added to ``out``
    (each rule reads ``name`` once, so every new row is found from some new row), until none are new."""
    new = list(out)
    for _ in range(MAX_ROUNDS):
        if not new:
            return
        found: Dict[Tuple, None] = {}
        last = {**tables, name: _Rows(new)}
        for plan, columns in plans:
            _run(plan, columns, program, found, last)
        new = [row for row in found if row not in out]
        out.update(dict.fromkeys(new))
    raise RecursionError(f"{name}: rows still new after {MAX_ROUNDS} rounds: a recursive rule with no bound")


class _Rows:
    """Rows given to a plan as it runs (a recursive relation's last round, an aggregate's groups), read
    as a kept table is: ``rows``, and ``lookup`` through an index on one argument built on first use."""

    __slots__ = ("rows", "_index")

    def __init__(self, rows: List[Tuple[Any, ...]]):
        self.rows, self._index = rows, {}

    def lookup(self, position: int, value: Any) -> Sequence[Tuple[Any, ...]]:
        index = self._index.get(position)
        if index is None:
            index = self._index[position] = {}
            for row in self.rows:
                index.setdefault(row[position], []).append(row)
        return index.get(value, ())


def _rows_of(table, args) -> Callable[[List[Any]], Sequence[Tuple[Any, ...]]]:
    """How one atom finds its rows from the slots: the table's index on its one bound argument, or an index
    on all its bound arguments together, built for this run only (and so freed after it)."""
    if table is None:
        return lambda env: ()
    consts = [(j, a[1]) for j, a in enumerate(args) if a[0] == "const"]
    known = [(j, a[1]) for j, a in enumerate(args) if a[0] == "bound"]
    if not consts and not known:
        rows = table.rows
        return lambda env: rows
    if not known and len(consts) == 1:
        rows = table.lookup(*consts[0])
        return lambda env: rows
    if not consts and len(known) == 1:
        (j, s), lookup = known[0], table.lookup
        return lambda env: lookup(j, env[s])
    key = itemgetter(*([j for j, _ in consts] + [j for j, _ in known]))  # (two or more: a tuple)
    fixed = tuple(v for _, v in consts)
    slots = [s for _, s in known]
    # the key of the slots' values, read in C (a generator per lookup was a third of a join's time)
    if not slots:
        wanted = lambda env: fixed  # noqa: E731
    elif len(slots) == 1:
        one = slots[0]
        wanted = lambda env: fixed + (env[one],)  # noqa: E731
    else:
        several = itemgetter(*slots)
        wanted = (lambda env: fixed + several(env)) if fixed else several
    index: Dict[Tuple, List[Tuple[Any, ...]]] = {}

    def rows_of(env):
        if not index:
            for row in table.rows:
                index.setdefault(key(row), []).append(row)
            index[None] = []  # built (even if the table is empty)
        return index.get(wanted(env), ())
    return rows_of


def _run(plan: _Plan, columns, program, out: Dict, tables: Optional[Dict[str, "_Rows"]] = None) -> None:
    """Every answer of one plan into ``out``: a nested loop over the tables' indexes (``tables``: the
    relations given to this run, before the program's kept ones)."""
    steps = []
    for step in plan.steps:  # per atom: how it finds its rows, its new variables, its repeated ones
        if step[0] in ("atom", "not"):
            args = step[2]
            table = tables[step[1]] if tables and step[1] in tables else program.indexed(step[1], len(args))
            steps.append((step[0], _rows_of(table, args),
                          [(j, a[1]) for j, a in enumerate(args) if a[0] == "new"],
                          [(j, a[1]) for j, a in enumerate(args) if a[0] == "same"]))
        else:
            steps.append(step)
    last = len(steps)
    env: List[Any] = [None] * len(plan.slots)

    def go(i: int) -> None:
        while i < last:
            step = steps[i]
            kind = step[0]
            if kind == "atom":
                _, rows_of, new, same = step
                for row in rows_of(env):
                    for j, s in new:
                        env[s] = row[j]
                    if not same or all(env[s] == row[j] for j, s in same):
                        go(i + 1)
                return
            if kind == "not":
                if step[1](env):
                    return
            elif kind == "each":  # X.in_(Xs) with X free: each member of the tuple in turn
                _, s, members = step
                try:
                    items = tuple(members(env))
                except TypeError:  # not a tuple: no member
                    return
                for env[s] in items:
                    go(i + 1)
                return
            elif kind == "test":
                _, test, left, right = step
                try:
                    if not test(left(env), right(env)):
                        return
                except TypeError:  # values that cannot be ordered never compare (syntax.holds)
                    return
            else:  # let
                env[step[1]] = step[2](env)
            i += 1
        out[tuple(c(env) for c in columns)] = None

    go(0)
    go = None  # noqa: F841 - go's cell refers to go: a cycle (with this run's indexes) the paused collector keeps
