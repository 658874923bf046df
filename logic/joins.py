"""Plain rules over kept relations, joined in Python: same answers as pyDatalog, without its per-step price.

strata.py asks each relation once, after every relation its rules read has
been replaced by its answers (facts in tables). Most rules are then a plain
join: positive atoms over those tables, negated atoms over them, and
comparisons of variables and constants. For such a rule pyDatalog's SLG
resolution pays about 25-40 us per answer and per join step; a hash join over
the tables' own indexes pays about a tenth. :func:`compile_rules` accepts
exactly that shape and returns ``None`` for anything else (aggregates,
arithmetic, recursion, ``Fraction`` constants), which pyDatalog keeps
answering. The rules themselves are unchanged: the explainer walks them, and
tests/test_joins.py checks that both evaluations keep the same rows.

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

import operator
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .rules import Rule

_VAR = re.compile(r"[A-Z][A-Za-z0-9_]*\Z")
_INT = re.compile(r"-?\d+\Z")
_STR = re.compile(r"'([^'\\]*)'\Z")
_ATOM = re.compile(r"(~?)([a-z_][a-z0-9_]*)\((.*)\)\Z")
_COMPARE = re.compile(r"\((\S+) (==|!=|<=|>=|<|>) (\S+)\)\Z")
_IN = re.compile(r"([A-Z][A-Za-z0-9_]*)\.in_\(\((.*)\)\)\Z")
_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class _Unsupported(Exception):
    pass


def _split(text: str, sep: str) -> List[str]:
    """``text`` split at ``sep`` outside brackets and quotes."""
    out, depth, quoted, start, i = [], 0, False, 0, 0
    while i < len(text):
        c = text[i]
        if c == "'":
            quoted = not quoted
        elif not quoted and c in "([":
            depth += 1
        elif not quoted and c in ")]":
            depth -= 1
        elif not quoted and depth == 0 and text.startswith(sep, i):
            out.append(text[start:i].strip())
            start = i = i + len(sep)
            continue
        i += 1
    out.append(text[start:].strip())
    return out


def _term(arg: str):
    """('var', name) or ('const', value) for a variable, an integer or a quoted string; else unsupported."""
    if _VAR.match(arg):
        return ("var", arg)
    if _INT.match(arg):
        return ("const", int(arg))
    m = _STR.match(arg)
    if m:
        return ("const", m.group(1))
    raise _Unsupported(arg)


def _parse(rule: Rule):
    head = _ATOM.match(rule.head)
    if head is None or head.group(1):
        raise _Unsupported(rule.head)
    atoms, tests = _parse_body(rule.body)
    return head.group(2), [_term(a) for a in _split(head.group(3), ",")], atoms, tests


def _parse_body(body: str):
    atoms, tests = [], []
    for lit in _split(body, " & "):
        m = _ATOM.match(lit)
        if m:
            args = [_term(a) for a in _split(m.group(3), ",")] if m.group(3).strip() else []
            atoms.append((bool(m.group(1)), m.group(2), args))
            continue
        m = _COMPARE.match(lit)
        if m:
            tests.append(("cmp", m.group(2), _term(m.group(1)), _term(m.group(3))))
            continue
        m = _IN.match(lit)
        if m:
            values = frozenset(_term(a)[1] for a in _split(m.group(2), ",") if a)
            tests.append(("in", values, ("var", m.group(1))))
            continue
        raise _Unsupported(lit)
    return atoms, tests


class _Plan:
    """One rule as a sequence of steps over variable slots, positive atoms ordered most-bound first."""

    def __init__(self, head: List[Tuple[str, Any]], atoms: List, tests: List, program):
        self.slots: Dict[str, int] = {}
        self.steps: List[Tuple] = []
        bound: set = set()
        positive = [a for a in atoms if not a[0]]
        negative = [a for a in atoms if a[0]]
        for _, rel, args in atoms:
            rows = program.tables.get(rel)
            if rows is None or (rows and len(rows[0]) != len(args)):
                raise _Unsupported(rel)  # not (yet) kept as facts
        pending = list(tests) + negative
        self._place(pending, bound)
        while positive:
            # the atom with the most arguments bound; among equals, the rule's own order (written for the engine)
            best = max(positive, key=lambda a: sum(1 for k, v in a[2] if k == "var" and v in bound))
            positive.remove(best)
            self.steps.append(("atom", best[1], self._args(best[2], bound)))
            bound |= {v for k, v in best[2] if k == "var"}
            self._place(pending, bound)
        for item in pending:  # negated atoms whose other variables no positive atom binds: "no row exists"
            if item[0] is not True:
                raise _Unsupported(str(item))  # a test with an unbound variable (unsafe; pyDatalog decides)
            self.steps.append(("not", item[1], self._args(item[2], bound, free_ok=True)))
        self.head = [(k, self.slots[v] if k == "var" else v) for k, v in head]
        if any(k == "var" and v not in bound for k, v in head):
            raise _Unsupported("head variable not bound")

    def _slot(self, var: str) -> int:
        return self.slots.setdefault(var, len(self.slots))

    def _args(self, args, bound, free_ok=False):
        """Per argument: ('const', v), ('bound', slot), ('new', slot), or ('same', slot) for a new variable's
        later place in the same atom (or ('free', None) in a negated atom: any value)."""
        out, new = [], set()
        for k, v in args:
            if k == "const":
                out.append(("const", v))
            elif v in bound:
                out.append(("bound", self._slot(v)))
            elif free_ok:
                out.append(("free", None))
            else:
                out.append(("same" if v in new else "new", self._slot(v)))
                new.add(v)
        return out

    def _place(self, pending: List, bound: set) -> None:
        """Add each test or negated atom whose variables are all bound (an equality may bind one side)."""
        for item in list(pending):
            if item[0] is True:  # negated atom
                if all(k == "const" or v in bound for k, v in item[2]):
                    self.steps.append(("not", item[1], self._args(item[2], bound)))
                    pending.remove(item)
            elif item[0] == "in":
                if item[2][1] in bound:
                    self.steps.append(("in", item[1], self._slot(item[2][1])))
                    pending.remove(item)
            else:
                _, op, a, b = item
                free = [t[1] for t in (a, b) if t[0] == "var" and t[1] not in bound]
                if not free:
                    self.steps.append(("cmp", _OPS[op], self._ref(a), self._ref(b)))
                    pending.remove(item)
                elif op == "==" and len(free) == 1:  # (C == S) binds C
                    target, source = (a, b) if a[0] == "var" and a[1] in free else (b, a)
                    self.steps.append(("let", self._slot(target[1]), self._ref(source)))
                    bound.add(target[1])
                    pending.remove(item)

    def _ref(self, term):
        return ("const", term[1]) if term[0] == "const" else ("bound", self._slot(term[1]))


_READ = re.compile(r"\(([a-z_][a-z0-9_]*)\[(.*)\] == ([A-Z][A-Za-z0-9_]*)\)\Z")
_AGGREGATE = re.compile(r"\(([a-z_][a-z0-9_]*)\[(.*)\] == (min_|len_)\((.*)\)\)\Z")


def _aggregate_read(rule: Rule, program, defining: Callable[[str], Sequence[Rule]]):
    """``r(K.., V) <= (f[K..] == V)`` where ``f`` is a ``min_(Y, order_by=...)`` or ``len_(Y)`` of a plain
    body: that body joined, then grouped by K.. as pyDatalog's aggregate does (min_: Y of the first row in
    order_by order, ``-X`` descending; len_: the number of distinct Y)."""
    read = _READ.match(rule.body)
    head = _ATOM.match(rule.head)
    if read is None or head is None:
        raise _Unsupported(rule.body)
    keys = [_term(a) for a in _split(read.group(2), ",")]
    if [_term(a) for a in _split(head.group(3), ",")] != keys + [("var", read.group(3))]:
        raise _Unsupported(rule.head)
    agg_rules = defining(read.group(1)) or ()
    agg = _AGGREGATE.match(agg_rules[0].head) if len(agg_rules) == 1 else None
    if agg is None or [_term(a) for a in _split(agg.group(2), ",")] != keys or any(k != "var" for k, _ in keys):
        raise _Unsupported(read.group(1))
    args = _split(agg.group(4), ",") if agg.group(3) == "len_" else _split(agg.group(4), ", order_by=")
    y = _term(args[0])
    order: List[Tuple[bool, Tuple[str, Any]]] = []
    if agg.group(3) == "min_":
        if len(args) != 2:
            raise _Unsupported(agg.group(4))
        for o in _split(args[1].strip("()"), ","):
            order.append((o.startswith("-"), _term(o.lstrip("-"))))
    elif len(args) != 1:
        raise _Unsupported(agg.group(4))
    columns = keys + [y] + [t for _, t in order]
    atoms, tests = _parse_body(agg_rules[0].body)
    plan = _Plan(columns, atoms, tests, program)
    nk = len(keys)

    def answers() -> List[Tuple[Any, ...]]:
        rows: Dict[Tuple, None] = {}
        _run(plan, program, rows)
        if agg.group(3) == "len_":
            count: Dict[Tuple, int] = {}
            for row in dict.fromkeys(r[:nk + 1] for r in rows):
                count[row[:nk]] = count.get(row[:nk], 0) + 1
            return [k + (n,) for k, n in count.items()]
        best: Dict[Tuple, Tuple] = {}
        for row in rows:
            key = tuple(-v if neg else v for (neg, _), v in zip(order, row[nk + 1:]))
            had = best.get(row[:nk])
            if had is None or key < had[0]:
                best[row[:nk]] = (key, row[nk])
        return [k + (v[1],) for k, v in best.items()]
    return answers


def compile_rules(rules: Sequence[Rule], program, defining: Optional[Callable[[str], Sequence[Rule]]] = None
                  ) -> Optional[Callable[[], List[Tuple[Any, ...]]]]:
    """A function answering the relation of ``rules`` by joins over ``program``'s tables, or None if a rule
    has another shape (then pyDatalog answers it). ``defining(name)`` gives the rules of an aggregate a
    rule reads (``r(K, V) <= (f[K] == V)``)."""
    name = rules[0].head_name
    try:
        if defining is not None and len(rules) == 1 and _READ.match(rules[0].body):
            return _aggregate_read(rules[0], program, defining)
        plans = [_Plan(*_parse(r)[1:], program) for r in rules]
    except _Unsupported:
        return None
    if any(step[0] in ("atom", "not") and step[1] == name for p in plans for step in p.steps):
        return None  # recursive

    def answers() -> List[Tuple[Any, ...]]:
        out: Dict[Tuple, None] = {}
        for plan in plans:
            _run(plan, program, out)
        return list(out)
    return answers


def _run(plan: _Plan, program, out: Dict) -> None:
    """Every answer of one plan into ``out``: a nested loop over the tables' indexes, tests as soon as bound."""
    steps = []
    for step in plan.steps:  # per atom: its constants, its bound variables, its new ones, its repeated ones
        if step[0] in ("atom", "not"):
            args = step[2]
            table = program.indexed(step[1], len(args))
            steps.append((step[0], table.match if table is not None else (lambda bound: ()),
                          [(j, a[1]) for j, a in enumerate(args) if a[0] == "const"],
                          [(j, a[1]) for j, a in enumerate(args) if a[0] == "bound"],
                          [(j, a[1]) for j, a in enumerate(args) if a[0] == "new"],
                          [(j, a[1]) for j, a in enumerate(args) if a[0] == "same"]))
        else:
            steps.append(step)
    head = plan.head
    last = len(steps)
    env: List[Any] = [None] * len(plan.slots)

    def go(i: int) -> None:
        while i < last:
            step = steps[i]
            kind = step[0]
            if kind == "atom":
                _, match, consts, known, new, same = step
                for row in match(consts + [(j, env[s]) for j, s in known] if known else consts):
                    for j, s in new:
                        env[s] = row[j]
                    if not same or all(env[s] == row[j] for j, s in same):
                        go(i + 1)
                return
            if kind == "not":
                _, match, consts, known = step[:4]
                if match(consts + [(j, env[s]) for j, s in known] if known else consts):
                    return
            elif kind == "cmp":
                _, op, a, b = step
                if not op(a[1] if a[0] == "const" else env[a[1]], b[1] if b[0] == "const" else env[b[1]]):
                    return
            elif kind == "in":
                if env[step[2]] not in step[1]:
                    return
            else:  # let
                _, slot, src = step
                env[slot] = src[1] if src[0] == "const" else env[src[1]]
            i += 1
        out[tuple(v if k == "const" else env[v] for k, v in head)] = None

    go(0)
