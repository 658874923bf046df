"""Why a value is what it is, and why it is not something else.

    >>> ex = explain_value(derivation, "evalco", "F", "standard")     # doctest: +SKIP
    >>> ex.graph.nodes[ex.root]["label"]                              # doctest: +SKIP
    'evalco F = 2 under standard: ...'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import networkx as nx

from ..facts import DIMS
from ..logic import Derivation
from ..logic.edb import VIEWS
from .proof import Explainer

REASONS = {
    "void": "{status}: supports nothing",
    "unusable": "no usable citation (its sources are quarantined, rejected or pending)",
    "standard": "no confirmed source",
    "against-interest": "self-published, dropped under against-interest (no other confirmed source)",
    "verified-spans": "no quoted span from a confirmed source",
    "primary-only": "no confirmed tier 1-2 source with a quoted span",
    "leads-included": "no usable citation",
}


@dataclass
class Explanation:
    root: str
    graph: nx.DiGraph


def _signals_on(d: Derivation, org: str, dim: str) -> List[Tuple[str, str, Optional[str], Optional[int], str]]:
    """(id, kind, status, stated bound, rule) of every signal on org/dim, recorded and derived."""
    out = []
    for f in d.facts.of("signal"):
        if f["org"] == org and f["dim"] == dim:
            out.append((f["id"], f["kind"], f["status"] or "active", f["bound"], f["rule"]))
    for s in d.derived.values():
        if s.org == org and s.dim == dim:
            out.append((s.id, s.kind, "active", s.bound, s.rule))
    return sorted(out)


def exclusion_reason(d: Derivation, sid: str, status: str, policy: str) -> str:
    if status != "active":
        return REASONS["void"].format(status=status)
    view = VIEWS[policy]
    if (sid, "all") not in d.evclass:
        return REASONS["unusable"]
    if policy == "against-interest" and (sid, "standard") in d.admissible:
        return REASONS["against-interest"]
    return REASONS[policy]


def explain_value(d: Derivation, org: str, dim: str, policy: str) -> Explanation:
    ex = Explainer(d)
    g = ex.graph
    got = d.values.get((org, dim, policy))
    if got is not None:
        x, sig, rule = got
        root = ex.prove_atom("value", (org, dim, policy, x, sig or "", rule))
        g.nodes[root]["kind"] = "value"
    else:
        root = f"value {org} {dim} {policy}"
        g.add_node(root, kind="value", rule="0", loc=None,
                   label=f"{org} {dim} = - under {policy}: unevidenced (no admissible cap or floor)")
    decider = got[1] if got else None
    for sid, kind, status, bound, srule in _signals_on(d, org, dim):
        if kind == "info":
            nid = g.add_node(f"info {sid}", kind="excluded", rule=srule, loc=None,
                             label=f"{sid} ({srule}) is informational: it never bounds")
            g.add_edge(root, f"info {sid}")
            continue
        eff = d.effective.get((sid, policy))
        if eff is not None:
            node = ex.prove_atom("effective", (sid, policy, eff[0], eff[1]))
            fired = sid == decider
            g.nodes[node]["fired"] = fired
            g.nodes[node]["kind"] = "bound"
            g.nodes[node]["label"] = (("FIRED " if fired else "") + f"{sid} ({srule}): {kind} {bound}"
                                      + (f" -> effective {eff[1]}" if eff[1] != bound else "") + f", admissible under {policy}")
            g.add_edge(root, node)
            for clause in sorted(d.held.get((sid, VIEWS[policy]), ())):
                held = ex.prove_atom("held", (sid, VIEWS[policy], clause))
                g.nodes[held]["kind"] = "clamp"
                g.add_edge(node, held)
        else:
            nid = f"excluded {sid} {policy}"
            g.add_node(nid, kind="excluded", rule=srule, loc=None,
                       label=f"{sid} ({srule}): {kind} {bound} not admissible under {policy}: "
                             + exclusion_reason(d, sid, status, policy))
            g.add_edge(root, nid)
    return Explanation(root, g)


def why_not(d: Derivation, org: str, dim: str, target: int, policy: str) -> List[Dict]:
    """For each way ``org`` ``dim`` could be ``target``, the first condition that fails.

    Returns a list of {"way", "fails", "signal"} dicts; empty when the value is already target.
    """
    got = d.values.get((org, dim, policy))
    value = got[0] if got else None
    if value == target:
        return []
    sigs = _signals_on(d, org, dim)
    caps = [(d.effective[(s, policy)][1], s, r) for s, k, st, b, r in sigs
            if k == "cap" and (s, policy) in d.effective]
    floors = [(d.effective[(s, policy)][1], s, r) for s, k, st, b, r in sigs
              if k == "floor" and (s, policy) in d.effective]
    out: List[Dict] = []
    view = VIEWS[policy]
    # Way 1: the smallest cap is target.
    blockers = sorted(c for c in caps if c[0] < target)
    if blockers:
        for b, s, r in blockers:
            out.append({"way": f"a cap of {target} decides", "signal": s,
                        "fails": f"{s} ({r}) caps {org} {dim} at {b} < {target} under {policy}"})
    else:
        candidates = [(s, b, r, st) for s, k, st, b, r in sigs if k == "cap" and b is not None and b <= target]
        for s, b, r, st in candidates:
            if (s, policy) not in d.effective:
                out.append({"way": f"{s} caps at {target}", "signal": s,
                            "fails": f"{s} ({r}) is not admissible under {policy}: " + exclusion_reason(d, s, st, policy)})
            else:
                eff = d.effective[(s, policy)][1]
                if eff != target:
                    clauses = sorted(d.held.get((s, view), ()))
                    need = {"C14": "all its sources confirmed", "C15": "a quoted span from a confirmed source"}
                    out.append({"way": f"{s} caps at {target}", "signal": s,
                                "fails": f"{s} ({r}) cap {b} is held at {eff} by {', '.join(clauses)}: it needs "
                                         + "; ".join(need.get(c, c) for c in clauses)})
        if not candidates and not caps:
            out.append({"way": f"a cap of {target}", "signal": None,
                        "fails": f"no signal caps {org} {dim} at {target} or lower"})
    # Way 2: no cap and the largest floor is target.
    if caps and target > min(c[0] for c in caps):
        pass  # already reported: a cap blocks every floor above it
    elif not caps:
        above = [f for f in floors if f[0] > target]
        for b, s, r in above:
            out.append({"way": f"a floor of {target} decides", "signal": s,
                        "fails": f"{s} ({r}) sets a floor of {b} > {target}; only a cap of {target} could lower it"})
        if not above:
            cands = [(s, b, r, st) for s, k, st, b, r in sigs if k == "floor" and b is not None and b >= target]
            for s, b, r, st in cands:
                if (s, policy) not in d.effective:
                    out.append({"way": f"{s} floors at {target}", "signal": s,
                                "fails": f"{s} ({r}) is not admissible under {policy}: " + exclusion_reason(d, s, st, policy)})
                else:
                    eff = d.effective[(s, policy)][1]
                    clauses = sorted(d.held.get((s, view), ()))
                    need = {"C14": "all its sources confirmed",
                            "C16": "a quoted span, and a tier 1-2 source or two publishers",
                            "F.12": "negative, a tier-1 source and a second independent source",
                            "X.7": "negative, a span and a second source",
                            "9": "a published evaluation of a frontier model (section 9)"}
                    out.append({"way": f"{s} floors at {target}", "signal": s,
                                "fails": f"{s} ({r}) floor {b} is held at {eff} by {', '.join(clauses)}: it needs "
                                         + "; ".join(need.get(c, c) for c in clauses)})
            if not cands:
                out.append({"way": f"a floor of {target}", "signal": None,
                            "fails": f"no signal sets a floor of {target} or more on {org} {dim}"})
    return out
