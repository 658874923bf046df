"""What an org states that a floor's clause reads (logic/policies.py): its policies, and three kinds
of fact a Four reads besides them.

A ``policy`` statement states its kind (``cooling-off``, ``open-code``, ...). The others are read
from the facts that state them, each under a kind of its own:

* ``lab-equity`` (P.8's "no equity" is its absence): a present ``stake`` held by a person with a
  present role at the org other than ``advisor`` (its board, executives, staff), in a lab or a lab
  investor (a node with a stake in or an investment in a lab, or with 50% or more of such a node:
  F.4's look-through, over stated stakes, at most 6 levels as logic/structure.py bounds it);
* ``adverse-finding`` (R.5): a source the org publishes with ``adverse=`` (and ``adverse-to=``,
  the lab that did not welcome it), not quarantined;
* ``ranking`` (R.5: "A leaderboard ranking alone is not an adverse finding"): a benchmark
  ``result`` of the org, or a source it publishes with ``lane=``. It gives nothing.

    >>> from provlog.facts import load_text
    >>> w = load_text('lab l "L"\\norg o "O" type=nonprofit\\nperson p "P"\\nrole p executive o\\n'
    ...               'stake p l 1%\\npolicy o cooling-off\\n', "w.facts")
    >>> [(kind, f.kind) for kind, f in by_org(w)["o"]]
    [('cooling-off', 'policy'), ('lab-equity', 'stake')]
"""
from __future__ import annotations

from fractions import Fraction
from typing import Dict, List, Set, Tuple

from ..facts import Fact, FactSet
from .edb import _ended, world_as_of

EQUITY, ADVERSE, RANKING = "lab-equity", "adverse-finding", "ranking"
HALF = Fraction(1, 2)  # F.4's look-through: 50% or more of a lab investor

#: Roles that make a person one of the org's own (an advisor is not its board, executive or staff).
OWN_ROLES = frozenset({"founder", "executive", "director", "board", "committee", "employee", "partner"})

#: How each kind read from other facts is shown in a message (a policy shows its kind).
SAID = {EQUITY: "stake {holder} in {subject}", ADVERSE: "adverse finding {id}", RANKING: "ranking {id}"}


def by_org(facts: FactSet) -> Dict[str, List[Tuple[str, Fact]]]:
    """org -> [(kind, the fact that states it)], policies first, in file order."""
    out: Dict[str, List[Tuple[str, Fact]]] = {}
    for p in facts.of("policy"):
        out.setdefault(p["org"], []).append((p["policy"], p))
    now = world_as_of(facts)
    for org, stake in _equity(facts, now):
        out.setdefault(org, []).append((EQUITY, stake))
    orgs = {f["id"] for f in facts.of("org")}
    for s in facts.of("source"):
        if s["publisher"] in orgs and "quarantined" not in s.flags and (s["adverse"] or s["lane"]):
            out.setdefault(s["publisher"], []).append((ADVERSE if s["adverse"] else RANKING, s))
    for r in facts.of("result"):
        out.setdefault(r["org"], []).append((RANKING, r))
    return out


def said(kind: str, f: Fact) -> str:
    """How one stated kind is named in a message."""
    return SAID[kind].format(**f.values) if kind in SAID else kind


def _equity(facts: FactSet, now: str) -> List[Tuple[str, Fact]]:
    """(org, stake) for each present stake of one of the org's own people in a lab or lab investor."""
    people: Dict[str, Set[str]] = {}
    for r in facts.of("role"):
        at = facts.nodes.get(r["at"])
        if r["role"] in OWN_ROLES and at is not None and at.kind == "org" and not _ended(r, now):
            people.setdefault(r["person"], set()).add(r["at"])
    if not people:
        return []
    stakes = [s for s in facts.of("stake") if not _ended(s, now)]
    linked = _lab_side(facts, stakes)
    return [(org, s) for s in stakes if s["subject"] in linked for org in sorted(people.get(s["holder"], ()))]


def _lab_side(facts: FactSet, stakes: List[Fact]) -> Set[str]:
    """Labs and lab investors (F.4): a stake in or an investment in a lab, or 50% or more of a lab
    investor, at most 6 look-through levels."""
    labs = {f["id"] for f in facts.of("lab")}
    side = {s["holder"] for s in stakes if s["subject"] in labs} | {i["investor"] for i in facts.of("invest")
                                                                   if i["target"] in labs}
    for _ in range(6):
        more = {s["holder"] for s in stakes if s["subject"] in side and s["pct"].lo >= HALF} - side
        if not more:
            break
        side |= more
    return side | labs
