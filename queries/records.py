"""What the query API answers with: :class:`Value` (with its :class:`Clamp` and :class:`Note`
records), :class:`Card`, :class:`Signal`, :class:`ExpectResult`; the default policies; and
section 13's weighted number. Plain frozen dataclasses, each with ``to_json`` where the CLI prints it."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple


DEFAULT_POLICY = "standard"


STORED_POLICY = "leads-included"  # stored values and roles derive under it (section 0)


@dataclass(frozen=True)
class Clamp:
    """A bound that a clause held: ``stated`` became ``effective``."""

    signal: str
    dim: str
    kind: str
    stated: int
    effective: int
    clauses: Tuple[str, ...]

    def to_json(self) -> Dict[str, Any]:
        return {"signal": self.signal, "dim": self.dim, "kind": self.kind, "stated": self.stated,
                "effective": self.effective, "clauses": list(self.clauses)}


@dataclass(frozen=True)
class Note:
    """A signal a clause makes informational (section 9's mis-dimensioned facts, F.11, A.3): its
    stated bound bounds nothing, and ``note`` (the bound_note) names the clause and what to do."""

    signal: str
    dim: str
    kind: str
    stated: int
    clause: str
    note: str

    def to_json(self) -> Dict[str, Any]:
        return {"signal": self.signal, "dim": self.dim, "kind": self.kind, "stated": self.stated,
                "clause": self.clause, "note": self.note}


@dataclass(frozen=True)
class Tag:
    """A mechanism tag of the card (A.1/A.2: revocable or statutory access; R.4: statutory publication),
    with the admissible signals it rests on (none for A.1's revocable)."""

    dim: str
    tag: str
    clause: str
    signals: Tuple[str, ...] = ()

    def to_json(self) -> Dict[str, Any]:
        return {"dim": self.dim, "tag": self.tag, "clause": self.clause, "signals": list(self.signals)}


@dataclass(frozen=True)
class Remark:
    """A line the RULES put on the card (queries/cardfields.py): X.1's document request (``request``),
    F.4b's firewall or disclosure (``recorded``), a cap P.3 lifts or R.6 raises (``lift``; ``bound`` is
    the cap it now has, None where lifted)."""

    kind: str
    clause: str
    signal: str
    dim: str
    text: str
    bound: Optional[int] = None

    def to_json(self) -> Dict[str, Any]:
        return {"clause": self.clause, "signal": self.signal, "dim": self.dim, "text": self.text, "bound": self.bound}


@dataclass(frozen=True)
class Value:
    """One derived value, with what decided it."""

    org: str
    dim: str
    policy: str
    value: Optional[int]
    signal: Optional[str]
    rule: Optional[str]
    conflict: bool
    cap: Optional[int] = None  # smallest admissible cap
    floor: Optional[int] = None  # largest admissible floor
    resolved: bool = False
    clamps: Tuple[Clamp, ...] = ()
    notes: Tuple[Note, ...] = ()  # signals on the dimension that a clause makes informational

    def __str__(self) -> str:
        return "-" if self.value is None else str(self.value)

    def to_json(self) -> Dict[str, Any]:
        return {"org": self.org, "dim": self.dim, "policy": self.policy, "value": self.value,
                "signal": self.signal, "rule": self.rule, "conflict": self.conflict,
                "cap": self.cap, "floor": self.floor, "resolved": self.resolved,
                "clamps": [c.to_json() for c in self.clamps], "notes": [n.to_json() for n in self.notes]}


@dataclass(frozen=True)
class Card:
    """All eight values of an org under a policy, with its band, role, conflicts, held clamps and,
    under a weights preset, the weighted number (section 13)."""

    org: str
    policy: str
    values: Dict[str, Optional[int]]
    band: str
    role: str
    conflicts: List[Dict[str, Any]]
    clamps: List[Clamp]
    deciders: Dict[str, Tuple[Optional[str], Optional[str]]] = field(default_factory=dict)
    preset: Optional[str] = None
    weighted: Optional[Fraction] = None
    notes: List[Note] = field(default_factory=list)
    tags: Dict[str, Tag] = field(default_factory=dict)  # A.1/A.2 and R.4 mechanism tags, by dimension
    requests: List[Remark] = field(default_factory=list)  # X.1's document requests
    recorded: List[Remark] = field(default_factory=list)  # F.4b's firewall and disclosure notes
    lifts: List[Remark] = field(default_factory=list)  # caps P.3 lifts and R.6 raises

    def to_json(self) -> Dict[str, Any]:
        out = {"org": self.org, "policy": self.policy, "values": dict(self.values), "band": self.band,
               "role": self.role, "conflicts": self.conflicts, "clamps": [c.to_json() for c in self.clamps],
               "notes": [n.to_json() for n in self.notes],
               "tags": {d: t.to_json() for d, t in self.tags.items()},
               "requests": [r.to_json() for r in self.requests], "recorded": [r.to_json() for r in self.recorded],
               "lifts": [r.to_json() for r in self.lifts],
               "rules": {d: r for d, (s, r) in self.deciders.items()},
               "signals": {d: s for d, (s, r) in self.deciders.items()}}  # the deciding signal ids the text card shows
        if self.preset is not None:
            out["preset"] = self.preset
            out["weighted"] = None if self.weighted is None else round(float(self.weighted), 4)
        return out


@dataclass(frozen=True)
class Signal:
    """A recorded or derived signal, as the rules see it."""

    id: str
    org: str
    dim: str
    direction: str
    kind: str
    bound: Optional[int]
    rule: str
    derived: bool
    cites: Tuple[Tuple[str, Optional[str]], ...]
    status: str = "active"
    negative: bool = False
    loc: Optional[str] = None
    facts: Tuple[str, ...] = ()  # derived: the fact ids of its proofs


@dataclass(frozen=True)
class ExpectResult:
    """One ``expect`` statement run (``provlog test``): where it is, its text, whether it held,
    what was found and what was expected."""

    loc: str
    text: str
    ok: bool
    got: Any
    expected: Any


def weighted_number(values: Dict[str, Optional[int]], preset) -> Optional[Fraction]:
    """Section 13: sum of weight x value over evidenced dimensions / sum of their weights."""
    num = den = Fraction(0)
    for d, v in values.items():
        if v is None:
            continue
        w = preset[d] or Fraction(0)
        num += w * v
        den += w
    return num / den if den else None
