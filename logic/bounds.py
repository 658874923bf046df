"""The curator's bound, checked: each recorded signal against the bounds its clause gives (W120) and
a floor against the policies the org states (W121; issue 40).

A signal names the anchor it supports "under the rule that says so" (the RULES' preamble): a
signal whose clause gives another direction or bound (``against cap 0 rule=S.2``; S.2 gives cap 2)
is W120 at the signal, naming the clause and what it gives (logic/clauses.py, BOUNDS). A floor
whose clause needs a policy (logic/policies.py) is W121 where the org states policies of the
kinds the clause reads (or, for a Four, the facts logic/stated.py reads: its people's equity in a
lab, its published adverse findings, its rankings) and they do not give it; where it states none,
the floor stands on its span (:func:`policy_evidence` says so for ``why``). Neither changes a
value: ``check`` warns, ``check --strict`` and ``verify`` fail. Only active recorded signals that
state a cap or a floor are read (a superseded, differing or quarantined one supports nothing;
derived signals are provlog's), and a signal section 9 makes informational where it sits is
section 9's.

    >>> from provlog.facts import load_text
    >>> w = load_text('org o "O" type=vc\\nsignal s o S against cap 0 rule=S.2\\n', "w.facts")
    >>> [(f.code, f.signal["id"]) for f in findings(w)]
    [('W120', 's')]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, NamedTuple, Optional, Tuple

from ..facts import Diagnostic, Fact, FactSet
from .clauses import BOUNDS, INFORMATIONAL, ANCHOR_TABLE, clause_dims, gives
from . import stated
from .policies import NEEDS


@dataclass(frozen=True)
class Finding:
    """A recorded signal whose bound its clause (W120) or the org's policies (W121) do not give."""

    signal: Fact
    code: str
    message: str

    def diagnostic(self) -> Diagnostic:
        loc = self.signal.loc
        return Diagnostic(loc.file, loc.line, loc.col, self.code, self.message)


def findings(facts: FactSet) -> List[Finding]:
    """Every W120 and W121 of a world, in file order."""
    out: List[Finding] = []
    policies = stated.by_org(facts)
    for f in facts.of("signal"):
        if _read(f):
            got = finding(facts, f, policies)
            if got:
                out.append(Finding(f, *got))
    return sorted(out, key=lambda x: x.signal.loc)


def finding(facts: FactSet, f: Fact, policies: Dict[str, List[Fact]]) -> Optional[Tuple[str, str]]:
    """``(code, message)`` of a read signal ``f`` whose clause (W120) or org's policies and legal form (W121)
    do not give its bound, else None. It reads ``f``'s rule, kind, bound, dim, id and org, the org's
    ``type`` in ``facts.nodes`` and each of ``policies[org]``'s ``policy`` (bench/generate.py asks it of
    the signals it writes)."""
    said = _against_clause(f)
    if said:
        return "W120", said
    got = policy_reading(facts, f, policies)
    return ("W121", got.text) if got.state == "short" else None


def warnings(facts: FactSet) -> List[Diagnostic]:
    """:func:`findings` as ``provlog check`` prints them."""
    return [x.diagnostic() for x in findings(facts)]


def _read(f: Fact) -> bool:
    """An active recorded signal stating a cap or a floor on a dimension its clause belongs to."""
    if (f["status"] or "active") != "active" or f["kind"] not in ("cap", "floor"):
        return False
    home = clause_dims(f["rule"])
    return not home or f["dim"] in home


def _against_clause(f: Fact) -> str:
    """W120's message, or '' where the clause gives the signal's bound (or is not in BOUNDS)."""
    clause, kind, n = f["rule"], f["kind"], f["bound"]
    got = BOUNDS.get(clause)
    if got is None or got == ANCHOR_TABLE:
        return ""
    if got != INFORMATIONAL and not isinstance(got, str) and any(b.allows(kind, n, f["dim"]) for b in got):
        return ""
    return (f"signal {f['id']} states {kind} {n} on {f['dim']} under {clause}, which gives {gives(clause)}: "
            "name the clause whose bound it states, or correct the bound")


class FloorReading(NamedTuple):
    """How a recorded floor reads against its org's policies and legal form (:func:`policy_reading`)."""

    state: str  # none, checked, unchecked or short
    text: str = ""
    facts: Tuple[Fact, ...] = ()  # the statements it reads: policies (stakes, sources, results) and the org


def policy_reading(facts: FactSet, f: Fact,
                   policies: Optional[Dict[str, List[Tuple[str, Fact]]]] = None) -> FloorReading:
    """How the org's policies and legal form (for a Four, also the facts logic/stated.py reads)
    read a recorded floor ``f`` (logic/policies.py):
    ``none`` (its clause needs no policy for it), ``checked`` (the stated policies give it),
    ``unchecked`` (a floor that needs a policy, and the org states none of the kinds its clause
    reads: it stands on its span) or ``short`` (W121: they, or the legal form, do not give it)."""
    needs = NEEDS.get(f["rule"])
    if needs is None or f["kind"] != "floor":
        return FloorReading("none")
    org, n, clause = f["org"], f["bound"], f["rule"]
    node = facts.nodes.get(org)
    org_type = node["type"] if node is not None else ""
    head = f"signal {f['id']} floors {org} {f['dim']} at {n} under {clause}"
    top, why = needs.form(org_type)
    if top is None or n > top:
        return FloorReading("short", f"{head}, but {why}", (node,) if node is not None else ())
    bare = needs.gives(org_type, frozenset()).floor
    if bare is not None and n <= bare:
        return FloorReading("none")
    mine = [(k, p) for k, p in (policies if policies is not None else stated.by_org(facts)).get(org, [])
            if k in needs.reads]
    if not mine:
        kinds = "statements" if set(needs.reads) & set(stated.SAID) else "policies"  # a Four reads facts too
        return FloorReading("unchecked", f"{head} on its cited span, not a stated policy: {org} states none of the "
                                         f"{kinds} {clause} reads; {needs.statements(org, org_type)} would make it "
                                         "checked")
    used = tuple(p for k, p in mine) + ((node,) if node is not None else ())
    # policies by kind; the facts a Four reads besides them (stakes, findings, rankings) one by one
    shown = ", ".join(sorted({stated.said(k, p) for k, p in mine}))
    plural = all(p.kind == "policy" for k, p in mine)
    what = f"the policies {org} states ({shown})" if plural else f"what {org} states ({shown})"
    got = needs.gives(org_type, frozenset(k for k, p in mine))
    if got.floor is None or n > got.floor:
        return FloorReading("short", f"{head}, but {what} {'do' if plural else 'does'} not give it: "
                                     f"{clause} needs {got.missing}", used)
    return FloorReading("checked", f"{head}: {what} {'give' if plural else 'gives'} it{needs.given}", used)


def policy_evidence(facts: FactSet, sid: str) -> Optional[FloorReading]:
    """What ``why`` says of a recorded floor that needs a policy (its text names W121 where they fall
    short), or None."""
    f = facts.signals.get(sid)
    if f is None or not _read(f):
        return None
    got = policy_reading(facts, f)
    if got.state == "none":
        return None
    return got._replace(text=f"W121: {got.text}") if got.state == "short" else got
