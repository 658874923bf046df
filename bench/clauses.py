"""Clauses that give a generated signal its bound (logic/clauses.py BOUNDS, logic/policies.py NEEDS).

The generator draws a signal's dimension, direction and bound from the org's underlying value
(floors at or below it, caps at or above it, mostly), then a clause from the curator's usual ones
(generate.py FLOOR_RULES, CAP_RULES). Where that clause does not give the bound (W120), or the
org's policies and legal form do not give the floor (W121), :func:`clause_for` names one that
does, asking logic/bounds.py the question ``check`` asks. Where no clause of the dimension gives
the bound, it takes the nearest weaker bound one gives (a lower floor, a higher cap), else the
other direction a step weaker (a floor n becomes a cap above n, else of n: G has no floor below
2, so a floor 1 becomes a cap 2), which keeps the evidence on the side of the underlying value it
was drawn from, and so the share of conflicts (1,210 of 8,000 values at 1,000 orgs, 1,234
before); only then a stronger one. So a generated world is clean of W120 and W121.

    >>> import random
    >>> clause_for(random.Random(1), "S", "cap", 0, "S.2", "vc", ())   # no clause caps S below 2
    ('S.2', 'cap', 2)
    >>> clause_for(random.Random(1), "G", "floor", 3, "G.2", "vc", ())  # a for-profit's G.2 floor is 2
    ('G.2', 'floor', 2)
    >>> clause_for(random.Random(1), "X", "floor", 1, "X.4", "vc", ())[1:]  # X floors start at 3
    ('cap', 2)
    >>> clause_for(random.Random(1), "R", "cap", 2, "R.6", "nonprofit", ())
    ('R.6', 'cap', 2)
"""
from __future__ import annotations

import functools
import random
from typing import Iterable, List, Tuple

from provlog.logic import bounds, stated
from provlog.logic.clauses import BOUNDS, INFORMATIONAL, NO_BOUND, clause_dims

ORG = "o"  # the org of the one-signal view asked of logic/bounds.py


@functools.lru_cache(maxsize=None)
def on(dim: str) -> Tuple[str, ...]:
    """Clauses a signal on ``dim`` may name with a bound: its own letter's, and section 9 (which gives
    floors up to 2 on S, R and M and cap 0 on A; its Bound says where)."""
    return tuple(sorted(c for c, b in BOUNDS.items()
                        if b not in (INFORMATIONAL, NO_BOUND) and (dim in clause_dims(c) or c == "9")))


class _View:
    """What logic/bounds.py reads of a world for one signal: the org's ``type``."""

    def __init__(self, org_type: str):
        self.nodes = {ORG: {"type": org_type}}


class _Policy(dict):
    """A statement of the view, as logic/stated.py ``by_org`` pairs it with its kind (a policy, or a
    kind a Four reads besides policies, such as ``ranking``)."""

    def __init__(self, kind: str):
        super().__init__(policy=kind)
        self.kind = "policy" if kind not in stated.SAID else kind
        self.values = {"id": f"generated {kind}", "holder": "a person", "subject": "a lab"}


def gives(clause: str, dim: str, kind: str, n: int, org_type: str, policies: Iterable[str]) -> bool:
    """``check`` finds neither W120 nor W121 on an active ``kind n`` signal on ``dim`` naming ``clause``
    for an org of ``org_type`` stating ``policies``."""
    signal = {"id": "s", "org": ORG, "dim": dim, "kind": kind, "bound": n, "rule": clause}
    return bounds.finding(_View(org_type), signal, {ORG: [(p, _Policy(p)) for p in policies]}) is None


def clause_for(rng: random.Random, dim: str, kind: str, n: int, drawn: str, org_type: str,
               policies: Iterable[str]) -> Tuple[str, str, int]:
    """``(clause, kind, bound)``: ``drawn``, ``kind`` and ``n`` where the clause gives them, else a clause of
    ``dim`` that gives the first of :func:`_nearest` that one gives (drawn with ``rng``)."""
    policies = tuple(policies)
    if gives(drawn, dim, kind, n, org_type, policies):
        return drawn, kind, n
    for k, m in _nearest(kind, n):
        fits: List[str] = [c for c in on(dim) if gives(c, dim, k, m, org_type, policies)]
        if fits:
            return (drawn if drawn in fits else rng.choice(fits)), k, m
    raise ValueError(f"no clause gives a bound on {dim} for type {org_type}")  # A.1 gives any: never


def _nearest(kind: str, n: int) -> List[Tuple[str, int]]:
    """The bounds to try for ``kind n``, in order: weaker of the same kind, the other kind one step weaker
    on (a floor n drawn at the underlying value becomes a cap above it), then the rest (floor 2: floor
    2 1 0, cap 3 4 2, floor 3 4, cap 1 0)."""
    other = "cap" if kind == "floor" else "floor"
    weaker = {"floor": list(range(n, -1, -1)), "cap": list(range(n, 5))}
    flipped = {"floor": list(range(n - 1, -1, -1)) + [n], "cap": list(range(n + 1, 5)) + [n]}
    stronger = {"floor": list(range(n + 1, 5)), "cap": list(range(n - 1, -1, -1))}
    return ([(kind, m) for m in weaker[kind]] + [(other, m) for m in flipped[other] if 0 <= m <= 4]
            + [(kind, m) for m in stronger[kind]] + [(other, m) for m in stronger[other] if m != n])
