"""Rules over kept relations, joined in Python: the same rows as pyDatalog, without its per-step price.

strata.py asks each relation once, after every relation its rules read has
been replaced by its answers (facts in tables). A rule is then a join: atoms
over those tables, negated atoms over them, and comparisons (an unbound
``(X == expr)`` binds X), read once by logic/syntax.py. For such a rule
pyDatalog's SLG resolution pays about 25-40 us per answer and per join step; a
nested loop over the tables' indexes pays a tenth of that. A relation that
only reads an aggregate (``r(K, V) <= (f[K] == V)``, ``f`` a ``min_``,
``len_`` or ``sum_`` of such a body) is grouped here as pyDatalog groups it.
:func:`compile_rules` returns ``None`` for anything else (recursion, a body
over a relation not kept, another aggregate), which pyDatalog keeps
answering. The rules are unchanged (the explainer walks them), and
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

    def __init__(self, body: Sequence, program):
        self.slots: Dict[str, int] = {}
        self.steps: List[Tuple] = []
        bound: set = set()
        positive = [lit for lit in body if isinstance(lit, Atom)]
        pending = [lit for lit in body if isinstance(lit, (Negated, Compare))]
        if len(positive) + len(pending) != len(body):
            raise _Unsupported("a function in the body")
        for lit in positive + [lit for lit in pending if isinstance(lit, Negated)]:
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

    def _place(self, pending: List, bound: set) -> None:
        for lit in list(pending):
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
    kind, extra = m.group(1), [x.strip() for x in (m.group(4) or "").split(",") if x.strip()]
    plan = _Plan(agg_rules[0].body_literals, program)
    nk = len(read.args)
    columns = plan.columns(list(read.args) + [Var(m.group(2))] + [Var(x.lstrip("-")) for x in extra])
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


def compile_rules(rules: Sequence[Rule], program, defining: Optional[Callable[[str], Sequence[Rule]]] = None
                  ) -> Optional[Callable[[], List[Tuple[Any, ...]]]]:
    """A function answering the relation of ``rules`` by joins over ``program``'s tables, or None if a rule
    has another shape (then pyDatalog answers it). ``defining(name)`` gives the rules of an aggregate a
    rule reads (``r(K, V) <= (f[K] == V)``)."""
    name = rules[0].head_name
    try:
        body = rules[0].body_literals
        if defining is not None and len(rules) == 1 and len(body) == 1 and isinstance(body[0], FuncEq):
            return _aggregate_read(rules[0], program, defining)
        plans = []
        for r in rules:
            if not isinstance(r.head_literal, Atom):
                raise _Unsupported(r.text)
            plan = _Plan(r.body_literals, program)
            plans.append((plan, plan.columns(r.head_literal.args)))
    except _Unsupported:
        return None
    if any(lit.name == name for r in rules for lit in r.body_literals if isinstance(lit, (Atom, Negated))):
        return None  # recursive

    def answers() -> List[Tuple[Any, ...]]:
        out: Dict[Tuple, None] = {}
        for plan, columns in plans:
            _run(plan, columns, program, out)
        return list(out)
    return answers


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
    positions = [j for j, _ in consts] + [j for j, _ in known]
    fixed = tuple(v for _, v in consts)
    slots = [s for _, s in known]
    index: Dict[Tuple, List[Tuple[Any, ...]]] = {}

    def rows_of(env):
        if not index:
            for row in table.rows:
                index.setdefault(tuple(row[j] for j in positions), []).append(row)
            index[None] = []  # built (even if the table is empty)
        return index.get(fixed + tuple(env[s] for s in slots), ())
    return rows_of


def _run(plan: _Plan, columns, program, out: Dict) -> None:
    """Every answer of one plan into ``out``: a nested loop over the tables' indexes."""
    steps = []
    for step in plan.steps:  # per atom: how it finds its rows, its new variables, its repeated ones
        if step[0] in ("atom", "not"):
            args = step[2]
            steps.append((step[0], _rows_of(program.indexed(step[1], len(args)), args),
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
