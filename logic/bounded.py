"""A relation derived again only for the keys an edit reaches (issue 27; logic/spread.py calls it).

``derive`` and ``uses`` (the derived signals' rows: logic/structure.py, mechanics.py, lanes.py) are
made org by org: their second argument is the org. After an edit moved rows of some relations their
rules read, only the orgs a moved row reaches can have rows that change; :func:`reached` finds them
from the rules (their literals, never their text), logic/spread.py derives those orgs' rows again
(joins.py ``compile_rules(keys=...)``: each rule joined from the keys) and keeps every other org's
rows from the store.

Why that is all. Take a rule ``h <= B1 & ... & Bn`` whose head holds the key in variable K, and a row of
h with key k there after the edit and not before. The rule derives it after the edit under some
assignment; before the edit the same assignment fails, so some literal Bi reads a row that moved: a
positive literal's row was added, a negated one's removed, a function's row (its keys and value)
changed. So a moved row d of Bi's relation fits Bi under that assignment, and every other positive
literal's row exists after the edit. Joining d with the other positive literals, each over its rows
before and after the edit (tests, negations and function reads dropped: they only keep rows out),
therefore finds k: it is d's own argument if K is one of Bi's, else the join binds it. A row there
before and not after is the same argument with before and after swapped. A rule whose join cannot bind
K (K bound only by a test or a function, or a relation not kept as rows) makes :func:`reached` return
None, and the caller derives the relation whole.

    >>> from provlog.logic.engine import Program
    >>> from provlog.logic.rules import Rule
    >>> rules = [Rule("def", "flag(O, X) <= owns(O, X) & bad(X)", "")]
    >>> p = Program()
    >>> p.assert_rows("owns", [("o1", "x"), ("o2", "y")])
    >>> p.assert_rows("bad", [("y",)])
    >>> from types import SimpleNamespace
    >>> bad = SimpleNamespace(removed={("x",)}, added={("y",)}, rows=[("y",)])   # x no longer bad, y now
    >>> sorted(reached(rules, 0, {"bad": bad}, p))
    ['o1', 'o2']
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .joins import join
from .syntax import Atom, FuncEq, Negated, Var

#: relations derived again per key by this argument (a derived signal's org: what spread.py remakes them
#: by), whatever :func:`key_column` would choose
KEYS = {"derive": 1, "uses": 1}


def key_column(rules, kinds: Sequence[str], moved: Set[str]) -> Optional[int]:
    """The argument to derive one relation's ``rules`` again by: :data:`KEYS`'s, else one that every
    head holds in a variable and the store keeps as text (``kinds``: its columns'), the one the fewest
    literals of ``moved`` relations lack (found with no join); None if there is none.

        >>> from provlog.logic.rules import Rule
        >>> key_column([Rule("def", "flag(O, X) <= owns(O, X) & bad(X)", "")], ["text", "text"], {"bad"})
        1
    """
    name = rules[0].head_name
    if name in KEYS:
        return KEYS[name]
    if not all(isinstance(r.head_literal, Atom) for r in rules):
        return None

    def lacking(col: int) -> int:
        return sum(1 for r in rules for lit in r.body_literals if getattr(lit, "name", None) in moved
                   and r.head_literal.args[col] not in _args(lit))
    cols = [c for c, kind in enumerate(kinds) if kind == "text"
            and all(isinstance(r.head_literal.args[c], Var) for r in rules)]
    return min(cols, key=lambda c: (lacking(c), c)) if cols else None


def reached(rules, col: int, moved: Dict[str, Any], program) -> Optional[Set[Any]]:
    """The values of argument ``col`` of the rows of ``rules`` (one relation's, not recursive) that the
    ``moved`` rows can change (per relation: ``removed``, ``added`` and ``rows``, as spread.Changed);
    ``program`` holds every other relation the rules read as kept rows. None if a rule's moved row
    reaches no key (the module docstring)."""
    keys: Set[Any] = set()
    for rule in rules:
        k = rule.head_literal.args[col] if isinstance(rule.head_literal, Atom) else None
        if not isinstance(k, Var):
            return None
        body = rule.body_literals
        for i, lit in enumerate(body):
            if not isinstance(lit, (Atom, Negated, FuncEq)) or lit.name not in moved:
                continue
            m = moved[lit.name]
            delta = list(m.removed | m.added)
            if not delta:
                continue
            args = _args(lit)
            at = next((j for j, t in enumerate(args) if isinstance(t, Var) and t.name == k.name), None)
            if at is not None:
                keys.update(d[at] for d in delta)
                continue
            got = _joined(args, [b for j, b in enumerate(body) if j != i and isinstance(b, Atom)], delta, moved,
                          program, k)
            if got is None:
                return None
            keys.update(got)
    return keys


def _args(lit) -> Tuple:
    """A literal's arguments as its relation's rows hold them (a function read ``f[K..] == V``: K.., V)."""
    return tuple(lit.args) + ((lit.value,) if isinstance(lit, FuncEq) else ())


def _joined(args, others: List[Atom], delta: List[Tuple], moved: Dict[str, Any], program, k: Var
            ) -> Optional[List[Any]]:
    """The keys ``k`` the moved rows ``delta`` (of a literal with ``args``) join to through the positive
    atoms ``others``, each over its rows before and after the edit."""
    given: Dict[str, List[Tuple]] = {"_moved": delta}
    body = [Atom("_moved", args)]
    for j, a in enumerate(others):
        if a.name in moved:
            m = moved[a.name]
            given[f"_both{j}"] = list(dict.fromkeys(list(m.rows) + list(m.removed)))
            a = Atom(f"_both{j}", a.args)
        body.append(a)
    got = join(body, program, given, [k])
    return None if got is None else [r[0] for r in got]
