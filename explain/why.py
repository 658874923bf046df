"""Why a value is what it is, and why it is not something else.

    >>> ex = explain_value(derivation, "evalco", "F", "standard")     # doctest: +SKIP
    >>> ex.graph.nodes[ex.root]["label"]                              # doctest: +SKIP
    'evalco F = 2 under standard: ...'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

import networkx as nx

from ..logic import Derivation
from .proof import _FREE, Explainer

REASONS = {
    "void": "{status}: supports nothing",
    "unusable": "no usable citation (its sources are quarantined, rejected or pending)",
    "standard": "no confirmed source",
    "against-interest": "self-published, dropped under against-interest (no other confirmed source)",
    "verified-spans": "no quoted span from a confirmed source",
    "primary-only": "no confirmed tier 1-2 source with a quoted span",
    "leads-included": "no usable citation",
}

#: What each clamp asks of a signal (RULES section 0, SEMANTICS "Extremes", "Section 9").
NEEDS = {
    "C14": "only a signal whose sources are all confirmed may set any bound",
    "C15": "a cap of 0 needs a quoted span from a confirmed source",
    "C16": "a floor of 4 needs a quoted span and a tier 1-2 source or two publishers",
    "F.12": "a floor of 4 on F needs negative, a tier-1 source and a second independent source",
    "X.7": "a floor of 4 on X needs negative, a span and a second source",
    "9": "a floor above 2 on S, R or M needs a published evaluation of a frontier model",
}
_CLAUSE_ORDER = ["C14", "C15", "C16", "F.12", "X.7", "9"]


@dataclass
class Explanation:
    root: str
    graph: nx.DiGraph


def _signals_on(d: Derivation, org: str, dim: str) -> List[Tuple[str, str, Optional[str], Optional[int], str]]:
    """(id, kind, status, stated bound, rule) of every signal on org/dim, recorded and derived."""
    out = []
    for sid in d.signal_ids(org, dim):
        f = d.facts.signals.get(sid)
        if f is not None:
            out.append((sid, f["kind"], f["status"] or "active", f["bound"], f["rule"]))
        else:
            s = d.derived[sid]
            out.append((s.id, s.kind, "active", s.bound, s.rule))
    return sorted(out)


def clause_order(c: str):
    return (_CLAUSE_ORDER.index(c) if c in _CLAUSE_ORDER else 99, c)


def exclusion_reason(d: Derivation, sid: str, status: str, policy: str) -> str:
    """Why signal ``sid`` is not admissible under ``policy`` (SEMANTICS "Policies")."""
    if status != "active":
        return REASONS["void"].format(status=status)
    if (sid, "all") not in d.evclass:
        return REASONS["unusable"]
    if policy == "leads-included":
        return REASONS["leads-included"]
    if (sid, "standard") not in d.admissible:
        return REASONS["standard"]  # every policy but leads-included needs a confirmed source
    return REASONS[policy]


class _Evidence:
    """What a signal cites, in one view, for saying which part of a clamp's test is missing."""

    def __init__(self, ex: Explainer, sid: str, view: str):
        self.sid, self.view = sid, view
        rows = ex.rows("vcite", (sid, view) + (_FREE,) * 5)
        self.cites = [(src, sp) for _, _, src, sp, _, _, _ in rows]
        # a source as it counts for this signal: publisher, status (confirmed for an admission, C17), tier
        self.source = {src: (pub, st, tier) for _, _, src, _, st, tier, pub in rows}
        self.negative = bool(ex.rows("negative", (sid,)))

    def status(self, src):
        return self.source[src][1]

    def sources(self):
        return sorted({src for src, _ in self.cites})

    def publishers(self):
        return sorted({self.source[s][0] for s in self.sources()})


def missing(ex: Explainer, sid: str, view: str, clause: str) -> str:
    """The part of ``clause``'s test that signal ``sid`` fails, in the words of the RULES."""
    e = _Evidence(ex, sid, view)
    srcs = e.sources()
    if clause == "C14":
        weak = [f"{s} is {e.status(s)}" for s in srcs if e.status(s) != "confirmed"]
        if not any(e.status(s) in ("confirmed", "unaudited") for s in srcs):
            return "its sources are only imported or unverifiable (" + ", ".join(weak) + "), which support 2 and nothing else"
        return "not every source is confirmed (" + ", ".join(weak) + ")"
    if clause == "C15":
        spans = [s for s, sp in e.cites if sp]
        if not spans:
            return "it quotes no span"
        return "it quotes a span only from sources that are not confirmed (" + ", ".join(
            f"{s} is {e.status(s)}" for s in sorted(set(spans))) + ")"
    if clause == "C16":
        parts = []
        if not any(sp for _, sp in e.cites):
            parts.append("it quotes no span")
        if not any(1 <= e.source[s][2] <= 2 for s in srcs) and len(e.publishers()) < 2:
            parts.append("it cites no tier 1-2 source and sources from one publisher only ("
                         + ", ".join(e.publishers()) + ")")
        return "; ".join(parts) or "its test fails"
    if clause == "F.12":
        parts = [] if e.negative else ["it is not marked negative"]
        tier1 = [s for s in srcs if e.source[s][2] == 1]
        if not tier1:
            parts.append("it cites no tier-1 source")
        elif not any(e.source[s][0] != e.source[t][0] for t in tier1 for s in srcs):
            parts.append("it cites no second source from a publisher other than its tier-1 source's")
        return "; ".join(parts) or "its test fails"
    if clause == "X.7":
        parts = [] if e.negative else ["it is not marked negative"]
        if not any(sp for _, sp in e.cites):
            parts.append("it quotes no span")
        if len(srcs) < 2:
            parts.append("it cites no second source")
        return "; ".join(parts) or "its test fails"
    if clause == "9":
        org = next(r[1] for r in ex.rows("signal", (sid, _FREE, _FREE, _FREE)))
        return f"{org} has no published evaluation of a frontier model (evaluated=no)"
    return f"{clause} holds it"


def _clamp_text(ex: Explainer, sid: str, view: str, clause: str) -> str:
    return f"held by {clause}: {NEEDS.get(clause, clause)}; {missing(ex, sid, view, clause)}"


def _evidence_nodes(ex: Explainer, sid: str) -> List[str]:
    """The statements of a signal: the signal and its cites (recorded), or the derived signal."""
    if sid in ex.d.derived:
        return [ex.prove_derived_signal(sid)]
    out = [ex.fact_node(ex.facts.signals[sid])] if sid in ex.facts.signals else []
    cites = {f.fid: f for row in ex.rows("cites", (sid, _FREE, _FREE))
             for f in ex.d.origins.get(("cites", row), ()) if f.kind == "cite"}
    return out + [ex.fact_node(f) for f in sorted(cites.values(), key=lambda f: f.loc)]


def explain_value(d: Derivation, org: str, dim: str, policy: str) -> Explanation:
    """The proof of ``org``'s value on ``dim`` under ``policy``.

    The root lists every signal on the dimension first: each admissible cap
    and floor with its effective bound (the deciding one marked FIRED, each
    clamp under it with its clause), then each excluded signal with the
    reason; then the proof of the value itself.
    """
    ex = Explainer(d)
    g = ex.graph
    got = d.values.get((org, dim, policy))
    if got is not None:
        x, sig, rule = got
        root = ex.prove_atom("value", (org, dim, policy, x, sig or "", rule))
        g.nodes[root]["kind"] = "value"
        g.nodes[root]["rule"] = rule  # the deciding rule, as `value --json` names it
    else:
        root = f"value {org} {dim} {policy}"
        g.add_node(root, kind="value", rule="0", loc=None,
                   label=f"{org} {dim} = - under {policy}: unevidenced (no admissible cap or floor)")
    conflict = d.conflicts.get((org, dim, policy))
    if conflict is not None:  # the disagreement stays on the card (RULES section 0, "Conflict")
        resolved = bool(got) and not got[1]
        g.nodes[root]["label"] += (f"; conflict: floor {conflict[1]} > cap {conflict[0]}, "
                                   + ("resolved" if resolved else "unresolved: verify fails"))
    body = list(g.successors(root))
    decider = got[1] if got else None
    listed = []
    for sid, kind, status, bound, srule in _signals_on(d, org, dim):
        if kind == "info":
            nid = ex._add(f"info {sid}", kind="excluded", rule=srule,
                          label=f"{sid} ({srule}) is informational: it never bounds")
            for c in _evidence_nodes(ex, sid):
                g.add_edge(nid, c)
            listed.append(((3, 0, sid), nid))
            continue
        eff = d.effective.get((sid, policy))
        view = d.view_of(sid, policy)
        if eff is not None:
            node = ex.prove_atom("effective", (sid, policy, eff[0], eff[1]))
            fired = sid == decider
            clauses = sorted(d.held.get((sid, view), ()), key=clause_order)
            a = g.nodes[node]
            a["fired"] = fired
            a["kind"] = "bound"
            a["rule"] = srule  # the rule of the signal that sets this bound
            a["label"] = (("FIRED " if fired else "") + f"{sid} ({srule}): {kind} {bound}"
                          + (f" -> effective {eff[1]}" if eff[1] != bound else "")
                          + (f" (held by {', '.join(clauses)})" if clauses else "")
                          + f", admissible under {policy}")
            kids = list(g.successors(node))
            g.remove_edges_from([(node, c) for c in kids])
            for clause in clauses:  # each clamp first, with its clause
                held = ex.prove_atom("held", (sid, view, clause))
                g.nodes[held]["kind"] = "clamp"
                g.nodes[held]["rule"] = clause  # the clause that held it (one rule lists several: four_fails)
                g.nodes[held]["label"] = _clamp_text(ex, sid, view, clause)
                g.add_edge(node, held)
            for c in kids:
                g.add_edge(node, c)
            listed.append(((0, eff[1], sid) if kind == "cap" else (1, -eff[1], sid), node))
        else:
            nid = ex._add(f"excluded {sid} {policy}", kind="excluded", rule=srule,
                          label=f"{sid} ({srule}): {kind} {bound} not admissible under {policy}: "
                                + exclusion_reason(d, sid, status, policy))
            for c in _evidence_nodes(ex, sid):
                g.add_edge(nid, c)
            listed.append(((2, 0, sid), nid))
    # The root: every signal first (caps smallest first, then floors largest first, then the
    # excluded and the informational), then the proof of the value rule.
    g.remove_edges_from([(root, c) for c in body])
    for _, n in sorted(listed):
        g.add_edge(root, n)
    for c in body:
        g.add_edge(root, c)
    if not list(g.successors(root)):
        g.add_node(f"no signal {org} {dim}", kind="absent", rule="0", loc=None,
                   label=f"no signal, recorded or derived, bounds {org} {dim}")
        g.add_edge(root, f"no signal {org} {dim}")
    # Sub-proofs tried and not chosen are not part of the proof.
    g.remove_nodes_from(set(g) - nx.descendants(g, root) - {root})
    return Explanation(root, g)


def why_not(d: Derivation, org: str, dim: str, target: int, policy: str) -> List[Dict]:
    """For each way ``org`` ``dim`` could be ``target``, the first condition that fails.

    The ways: the smallest admissible cap is ``target``; there is no cap and
    the largest floor is ``target``; a written resolution of a conflict is
    ``target``. Returns a list of {"way", "fails", "signal"} dicts; empty
    when the value is already ``target``.
    """
    got = d.values.get((org, dim, policy))
    value = got[0] if got else None
    if value == target:
        return []
    ex = Explainer(d)
    sigs = _signals_on(d, org, dim)
    caps = sorted((d.effective[(s, policy)][1], s, r) for s, k, st, b, r in sigs
                  if k == "cap" and (s, policy) in d.effective)
    floors = sorted(((d.effective[(s, policy)][1], s, r) for s, k, st, b, r in sigs
                     if k == "floor" and (s, policy) in d.effective), reverse=True)
    conflict = d.conflicts.get((org, dim, policy))
    resolved = got is not None and not got[1] and conflict is not None
    out: List[Dict] = []

    def through(cands, kind, verb, none_text):
        """Each signal that could set the value at target, and what stops it; or that none could."""
        for s, b, r, st in cands:
            if (s, policy) not in d.effective:
                fails = f"{s} ({r}) is not admissible under {policy}: " + exclusion_reason(d, s, st, policy)
            else:
                fails = f"{s} ({r}): " + held(s, kind, b, d.effective[(s, policy)][1])
            out.append({"way": f"{s} {verb} at {target}", "signal": s, "fails": fails})
        if not cands:
            out.append({"way": f"a {kind} of {target} decides", "signal": None, "fails": none_text})

    def held(s, kind, b, eff):
        view = d.view_of(s, policy)
        clauses = sorted(d.held.get((s, view), ()), key=clause_order)
        return (f"its {kind} {b} is held at {eff} by {', '.join(clauses)}: "
                + "; ".join(f"{NEEDS.get(c, c)}, and {missing(ex, s, view, c)}" for c in clauses))

    # Way 1: the smallest admissible cap is target (and no resolution overrides it).
    blockers = [c for c in caps if c[0] < target]
    at = [c for c in caps if c[0] == target]
    if blockers:
        for b, s, r in blockers:
            out.append({"way": f"a cap of {target} decides", "signal": s,
                        "fails": f"{s} ({r}) caps {org} {dim} at {b} < {target} under {policy}"})
    elif at and resolved:
        out.append({"way": f"a cap of {target} decides", "signal": at[0][1],
                    "fails": f"{at[0][1]} ({at[0][2]}) caps at {target}, but the conflict is resolved by "
                             f"{got[2]} at {value}"})
    elif not at:
        # A cap that states target, or an admissible one below it that a clamp raised past it.
        candidates = [(s, b, r, st) for s, k, st, b, r in sigs if k == "cap" and b is not None
                      and (b == target or b < target and (s, policy) in d.effective)]
        through(candidates, "cap", "caps", f"no signal caps {org} {dim} at {target}")
    # Way 2: no admissible cap, and the largest floor is target.
    if not caps:
        above = [f for f in floors if f[0] > target]
        for b, s, r in above:
            out.append({"way": f"a floor of {target} decides", "signal": s,
                        "fails": f"{s} ({r}) sets a floor of {b} > {target}; only a cap of {target} could lower it"})
        if not above:
            # A floor that states target, or an admissible one above it that a clamp held below it.
            cands = [(s, b, r, st) for s, k, st, b, r in sigs if k == "floor" and b is not None
                     and (b == target or b > target and (s, policy) in d.effective)]
            through(cands, "floor", "floors", f"no signal sets a floor of {target} on {org} {dim}")
    # Way 3: a written resolution of a conflict.
    if conflict is not None:
        c, f = conflict
        res = next((r for r in d.facts.of("resolution") if r["org"] == org and r["dim"] == dim), None)
        way = f"a resolution of {target} decides"
        if not c <= target <= f:
            fails = f"{target} lies outside the conflict's range [cap {c}, floor {f}]"
        elif res is None:
            fails = f"no resolution of the conflict (floor {f} > cap {c}) is written"
        elif resolved:
            fails = f"the resolution ({res['rule']}) sets {res['value']}, not {target}"
        else:
            fails = f"the resolution's value {res['value']} lies outside [cap {c}, floor {f}]"
        out.append({"way": way, "signal": None, "fails": fails})
    return out
