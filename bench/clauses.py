"""Clauses that give a generated signal its bound (logic/clauses.py BOUNDS, logic/policies.py NEEDS).

The generator draws a signal's dimension, direction and bound from the org's underlying value,
then a clause from the curator's usual ones (generate.py FLOOR_RULES, CAP_RULES). Where that
clause does not give the bound (W120), or the org's policies and legal form do not give the floor
(W121), :func:`clause_for` names one that does, asking logic/bounds.py the question ``check``
asks; where no clause of the dimension gives the bound, the nearest bound one gives (the weaker
of two as near: a lower floor, a higher cap). So a generated world is clean of W120 and W121.

    >>> import random
    >>> clause_for(random.Random(1), "S", "cap", 0, "S.2", "vc", ())   # no clause caps S at 0; S.2 caps at 2
    ('S.2', 2)
    >>> clause_for(random.Random(1), "G", "floor", 3, "G.2", "vc", ())  # a for-profit's G.2 floor is 2
    ('G.2', 2)
    >>> clause_for(random.Random(1), "R", "cap", 2, "R.6", "nonprofit", ())
    ('R.6', 2)
"""
from __future__ import annotations

import functools
import random
from typing import Iterable, List, Tuple

from provlog.logic import bounds
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


def gives(clause: str, dim: str, kind: str, n: int, org_type: str, policies: Iterable[str]) -> bool:
    """``check`` finds neither W120 nor W121 on an active ``kind n`` signal on ``dim`` naming ``clause``
    for an org of ``org_type`` stating ``policies``."""
    signal = {"id": "s", "org": ORG, "dim": dim, "kind": kind, "bound": n, "rule": clause}
    return bounds.finding(_View(org_type), signal, {ORG: [{"policy": p} for p in policies]}) is None


def clause_for(rng: random.Random, dim: str, kind: str, n: int, drawn: str, org_type: str,
               policies: Iterable[str]) -> Tuple[str, int]:
    """``(clause, bound)``: ``drawn`` and ``n`` where the clause gives them, else a clause of ``dim`` that
    gives ``n`` (drawn with ``rng``), else the nearest bound one gives (the weaker first)."""
    policies = tuple(policies)
    if gives(drawn, dim, kind, n, org_type, policies):
        return drawn, n
    weaker = -1 if kind == "floor" else 1
    for step in range(5):
        for m in ((n,) if step == 0 else (n + weaker * step, n - weaker * step)):
            fits: List[str] = [c for c in on(dim) if 0 <= m <= 4 and gives(c, dim, kind, m, org_type, policies)]
            if fits:
                return (drawn if drawn in fits else rng.choice(fits)), m
    raise ValueError(f"no clause gives a {kind} on {dim} for type {org_type}")  # A.1 gives any: never on A
