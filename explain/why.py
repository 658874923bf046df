"""Why a value is what it is, and why it is not something else.

    >>> ex = explain_value(derivation, "evalco", "F", "standard")     # doctest: +SKIP
    >>> ex.graph.nodes[ex.root]["label"]                              # doctest: +SKIP
    'evalco F = 2 under standard: ...'
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from .graph import ProofGraph

from ..logic import Derivation
from ..logic.bounds import policy_evidence
from ..logic.lifts import WOULD_LIFT
from .goals import refute_row
from ..logic.syntax import Atom, Compare, Negated, Var, parse_rule
from .proof import _BOOKKEEPING, _FREE, Explainer, atom_id, statement_text

REASONS = {
    "void": "{status}: supports nothing",
    "unusable": "no usable citation (its sources are quarantined, rejected or pending)",
    "standard": "no confirmed source",
    "against-interest": "self-published, dropped under against-interest (no other confirmed source)",
    "verified-spans": "no quoted span from a confirmed source",
    "primary-only": "no confirmed tier 1-2 source with a quoted span",
    "leads-included": "no usable citation",
}

_CLAUSE_ORDER = ["C14", "C15", "C16", "F.8", "F.9", "F.12", "G.7", "P.8", "X.7", "9"]


@dataclass
class Explanation:
    root: str
    graph: ProofGraph


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


def informational_notes(d: Derivation, sid: str, ex: Optional[Explainer] = None) -> List[Tuple[str, str, str]]:
    """``(clause, note, proof node)`` for each clause that makes ``sid`` informational (section 9's
    mis-dimensioned facts, F.11, A.3): the note is the clause's rule, filled (its bound_note)."""
    ex = ex or Explainer(d)
    out = []
    for clause in sorted(d.informational.get(sid, ()), key=clause_order):
        node = ex.prove_atom("informational", (sid, clause))
        out.append((clause, ex.graph.nodes[node]["label"], node))
    return out


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


def _clamp_text(ex: Explainer, sid: str, view: str, clause: str) -> str:
    """A clamp as the clause's own rules read it: what holds the bound (see :func:`_lift_clamp`)."""
    heads: Dict[str, List[str]] = {}
    for x in _lift_clamp(ex, sid, view, clause):
        x = x[len(clause) + 2:] if x.startswith(clause + ": ") else x
        head, _, why = x.partition(", because ")
        heads.setdefault(head, []).append(why)
    return f"held by {clause}: " + "; ".join(
        head + (", because " + " and ".join(w for w in whys if w) if any(whys) else "") for head, whys in heads.items())


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
    root = _value_root(d, ex, org, dim, policy, got)
    body = list(g.successors(root))
    decider = got[1] if got else None
    listed = []
    for sid, kind, status, bound, srule in _signals_on(d, org, dim):
        notes = informational_notes(d, sid, ex) if kind != "info" else []
        if kind == "info" or notes:
            listed.append(((3, 0, sid), _informational_node(ex, sid, kind, bound, srule, notes)))
        elif (eff := d.effective.get((sid, policy))) is not None:
            node = _bound_node(d, ex, sid, kind, bound, srule, policy, eff, fired=sid == decider)
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
    g.remove_nodes_from(set(g) - g.descendants(root) - {root})
    return Explanation(root, g)


def _value_root(d: Derivation, ex: Explainer, org: str, dim: str, policy: str, got) -> str:
    """The root node: the value with its deciding rule (or unevidenced), and any conflict on it."""
    g = ex.graph
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
    return root


def _informational_node(ex: Explainer, sid: str, kind: str, bound, srule: str, notes) -> str:
    """A signal that never bounds: an `info` signal, or one a clause makes informational (section 9)."""
    g = ex.graph
    said = f"{sid} ({srule}) is informational: it never bounds" if not notes else (
        f"{sid} ({srule}): {kind} {bound} is informational by {', '.join(c for c, _, _ in notes)}: it never bounds")
    nid = ex._add(f"info {sid}", kind="excluded", rule=notes[0][0] if notes else srule, label=said)
    for _, _, node in notes:  # the clause's note (its bound_note), with its proof
        g.add_edge(nid, node)
    for c in _evidence_nodes(ex, sid):
        g.add_edge(nid, c)
    return nid


def _bound_node(d: Derivation, ex: Explainer, sid: str, kind: str, bound, srule: str,
                policy: str, eff, fired: bool) -> str:
    """An admissible cap or floor with its effective bound ``eff``, each clamp that held it first."""
    g = ex.graph
    view = d.view_of(sid, policy)
    node = ex.prove_atom("effective", (sid, policy, eff[0], eff[1]))
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
    said = policy_evidence(d.facts, sid) if kind == "floor" else None
    if said:  # a floor that needs a policy: what it stands on (logic/bounds.py; W121 when they fall short)
        nid = ex._add(f"evidence {sid}", kind="evidence", rule=srule, label=said.text)
        g.add_edge(node, nid)
        for c in [ex.fact_node(f) for f in said.facts] or _evidence_nodes(ex, sid):  # no policy: its span
            g.add_edge(nid, c)
    return node


def why_not(d: Derivation, org: str, dim: str, target: int, policy: str) -> Dict:
    """What stops ``org``'s value on ``dim`` from being ``target`` under ``policy``, and what would lift it.

    The ways the value could be ``target``: the smallest admissible cap is
    ``target``; there is no cap and the largest floor is ``target``; a written
    resolution of a conflict is ``target``. Each way names a recorded or
    derived signal whose bound could give ``target``, or, when none could, each
    rule of the program that could derive one. Per way: what blocks it (a cap,
    a floor, a clamp, the policy, the signal's status, the resolution, or the
    rule's first failing condition) with its clause, the facts involved with
    ``file:line``, and what would lift it, in the words of the rules (the
    failing conditions found by :func:`refute <provlog.explain.goals.refute>`).
    The shape is documented in docs/json.md ("why-not"); ``reached`` is true
    and ``ways`` empty when the value already is ``target``.
    """
    got = d.values.get((org, dim, policy))
    value = got[0] if got else None
    doc = {"org": org, "dim": dim, "policy": policy, "value": value, "target": target,
           "reached": value == target, "ways": []}
    if value != target:
        w = _Ways(d, org, dim, target, policy, doc["ways"])
        w.by_cap()  # way 1: the smallest admissible cap is target (and no resolution overrides it)
        if not w.caps:
            w.by_floor()  # way 2: no admissible cap, and the largest floor is target
        w.by_resolution()  # way 3: a written resolution of a conflict
    return doc


class _Ways:
    """The ways of one why-not question (:func:`why_not`), each appended to ``ways`` as it is found."""

    def __init__(self, d: Derivation, org: str, dim: str, target: int, policy: str, ways: List[Dict]):
        self.d, self.org, self.dim, self.target, self.policy, self.ways = d, org, dim, target, policy, ways
        self.ex = Explainer(d)
        self.got = d.values.get((org, dim, policy))
        self.value = self.got[0] if self.got else None
        self.sigs = _signals_on(d, org, dim)
        self.eff = {s: d.effective[(s, policy)][1] for s, *_ in self.sigs if (s, policy) in d.effective}
        eff = self.eff
        self.caps = sorted((eff[s], s, r) for s, k, st, b, r in self.sigs if k == "cap" and s in eff)
        self.floors = sorted(((eff[s], s, r) for s, k, st, b, r in self.sigs if k == "floor" and s in eff),
                             reverse=True)
        self.conflict = d.conflicts.get((org, dim, policy))
        self.resolved = self.got is not None and not self.got[1] and self.conflict is not None

    def way(self, kind, says, signal, rule, what, clause, text, facts=(), lift=(), holds=()):
        self.ways.append(_way(kind, says, signal, rule, what, clause, text, facts, lift, holds))

    def through(self, kind, verb, cands):
        """Each signal whose stated bound could give target, and what stops it."""
        d, ex, policy = self.d, self.ex, self.policy
        for s, st, b, r in cands:
            says = f"{s} ({r}) {verb} {self.org} {self.dim} at {self.target}"
            notes = informational_notes(d, s, ex) if st == "active" else []
            if notes:  # its clause makes it informational: its bound is null, whatever the policy
                facts = _facts_of(ex, s)  # the signal's own statement first: what says where it sits
                self.way(kind, says, s, r, "informational", ", ".join(c for c, _, _ in notes),
                         "; ".join(n for _, n, _ in notes), facts,
                         [f"{n}: unless `{facts[0]['statement']}` at {facts[0]['loc']} is corrected" for _, n, _ in notes])
            elif s not in self.eff:
                what = "status" if st != "active" else "policy"
                self.way(kind, says, s, r, what, "0", f"{s} is not admissible under {policy}: "
                         + exclusion_reason(d, s, st, policy), _facts_of(ex, s),
                         _lift(ex, "admissible", (s, policy)) if st == "active" else
                         [f"a new active signal in its place: {s} is {st}"])
            else:
                view = d.view_of(s, policy)
                clauses = sorted(d.held.get((s, view), ()), key=clause_order)
                self.way(kind, says, s, r, "clamp", ", ".join(clauses) or None,
                         f"its {kind} {b} is held at {self.eff[s]} by {', '.join(clauses)}", _facts_of(ex, s),
                         [x for c in clauses for x in _lift_clamp(ex, s, view, c)])

    def by_rules(self, kind, direction, verb) -> bool:
        """No signal could: each rule of the program that could derive one, and the condition it lacks."""
        found = False
        for w in _refute(self.ex, "derive", [None, self.org, self.dim, direction, kind, self.target, None], 3):
            if w.get("applies") is False or not w.get("rule"):
                continue
            found = True
            self.way("rule", f"{w['rule']} {verb} {self.org} {self.dim} at {self.target}", None, w["rule"],
                     "condition", w["rule"], w["fails"], lift=_lifts([w]), holds=w["holds"])
        return found

    def by_cap(self) -> None:
        org, dim, target, policy, ex = self.org, self.dim, self.target, self.policy, self.ex
        blockers = [c for c in self.caps if c[0] < target]
        at = [c for c in self.caps if c[0] == target]
        for b, s, r in blockers:
            self.way("cap", f"a cap of {target} decides", s, r, "cap", r,
                     f"{s} ({r}) caps {org} {dim} at {b} < {target} under {policy}", _facts_of(ex, s),
                     _lift_cap(ex, s, r, target, policy))
        if not blockers and at and self.resolved:
            b, s, r = at[0]
            self.way("cap", f"a cap of {target} decides", s, r, "resolution", self.got[2],
                     f"{s} ({r}) caps at {target}, but the conflict is resolved by {self.got[2]} at {self.value}",
                     _facts_of(ex, s), [f"a resolution of {target} in place of the written one ({self.got[2]})"])
        elif not blockers and not at:
            # A cap that states target, or an admissible one below it that a clamp raised past it.
            cands = [(s, st, b, r) for s, k, st, b, r in self.sigs if k == "cap" and b is not None
                     and (b == target or b < target and s in self.eff)]
            self.through("cap", "caps", cands)
            # A new cap raising a value set by floors is no way anyone argues; nor does a cap of 4 bound anything.
            if not cands and not self.by_rules("cap", "against", "caps") and (self.value is None or target < self.value):
                self.way("cap", f"a cap of {target} decides", None, None, "nothing", None,
                         f"no signal caps {org} {dim} at {target}, and no rule of the program derives one",
                         lift=[f"a signal that caps {org} {dim} at {target} under a clause of the RULES, "
                               f"admissible under {policy}"])

    def by_floor(self) -> None:
        org, dim, target, policy, ex = self.org, self.dim, self.target, self.policy, self.ex
        above = [f for f in self.floors if f[0] > target]
        for b, s, r in above:
            self.way("floor", f"a floor of {target} decides", s, r, "floor", r,
                     f"{s} ({r}) sets a floor of {b} > {target}", _facts_of(ex, s),
                     [f"a cap of {target} on {org} {dim}: only a cap lowers a value set by a floor"])
        if above:
            return
        # A floor that states target, or an admissible one above it that a clamp held below it.
        cands = [(s, st, b, r) for s, k, st, b, r in self.sigs if k == "floor" and b is not None
                 and (b == target or b > target and s in self.eff)]
        self.through("floor", "floors", cands)
        if not cands and not self.by_rules("floor", "for", "floors") and target > 0:  # nor a floor of 0
            top = self.floors[0] if self.floors else None
            self.way("floor", f"a floor of {target} decides", top and top[1], top and top[2], "nothing", None,
                     f"no signal floors {org} {dim} at {target}, and no rule of the program derives one"
                     + (f"; the largest admissible floor is {top[0]} ({top[1]}, {top[2]})" if top else ""),
                     _facts_of(ex, top[1]) if top else (),
                     [f"a signal that floors {org} {dim} at {target} under a clause of the RULES, "
                      f"admissible under {policy}"])

    def by_resolution(self) -> None:
        if self.conflict is None:
            return
        org, dim, target = self.org, self.dim, self.target
        c, f = self.conflict
        res = next((r for r in self.d.facts.of("resolution") if r["org"] == org and r["dim"] == dim), None)
        facts = [_fact(res)] if res is not None else []
        write = f"`resolution {org} {dim} value={target} rule=<the clause that decides>`"
        says = f"a resolution of {target} decides"
        if not c <= target <= f:
            self.way("resolution", says, None, None, "resolution", "0",
                     f"{target} lies outside the conflict's range [cap {c}, floor {f}]", facts,
                     [f"none: a resolution must lie between cap {c} and floor {f}"])
        elif res is None:
            self.way("resolution", says, None, None, "resolution", "0",
                     f"no resolution of the conflict (floor {f} > cap {c}) is written", lift=[write])
        elif self.resolved:
            self.way("resolution", says, None, res["rule"], "resolution", res["rule"],
                     f"the resolution ({res['rule']}) sets {res['value']}, not {target}", facts, [write])
        else:
            self.way("resolution", says, None, res["rule"], "resolution", res["rule"],
                     f"the resolution's value {res['value']} lies outside [cap {c}, floor {f}]", facts, [write])


def _way(kind, says, signal, rule, what, clause, text, facts=(), lift=(), holds=()) -> Dict:
    """One way of a why-not answer (docs/json.md, "why-not")."""
    return {"way": kind, "says": says, "signal": signal, "rule": rule,
            "blocked_by": {"what": what, "clause": clause, "text": text},
            "holds": list(holds), "facts": list(facts), "lift": list(lift)}


def why_not_goal(goal: str, rulebook, refutation: List[Dict]) -> Dict:
    """``why-not --goal``: a refutation (:func:`provlog.explain.goals.refute`) in why-not's shape,
    one way per rule that could derive the goal."""
    ways = [_way("rule", f"{w['rule']} derives {goal}" if w.get("rule") else goal, None, w.get("rule"),
                 "condition", w.get("rule"), w["fails"], lift=_lifts([w]), holds=w.get("holds", ()))
            for w in refutation if w.get("applies") is not False]
    return {"goal": goal, "rulebook": rulebook, "reached": not refutation, "ways": ways}


def _fact(f) -> Dict[str, str]:
    return {"loc": str(f.loc), "statement": statement_text(f)}


def _facts_of(ex: Explainer, sid: str) -> List[Dict[str, str]]:
    """The statements a signal rests on: the signal and its cites, or a derived signal's facts."""
    d = ex.d
    if sid in d.derived:
        return [_fact(d.facts.by_fid[fid]) for fid in d.derived[sid].facts]
    out = [d.facts.signals[sid]] if sid in d.facts.signals else []
    # its cite statements, through the cites rows they made (a store reads this signal's, not every cite)
    cites = {f for row in d.program.match("cites", 3, [(0, sid)]) for f in d.origins.get(("cites", tuple(row)))
             if f.kind == "cite"}
    out += sorted(cites, key=lambda f: f.loc)
    return [_fact(f) for f in out]


_DIFFERS = re.compile(r"\((\w+) != (\w+)\)\Z")
_BARE = re.compile(r"no [a-z_0-9]+\(")


def _lifts(ways: List[Dict], said: str = "", top: bool = True) -> List[str]:
    """Each failing condition of a refutation, read down its ``because`` chain, as one line."""
    out: List[str] = []
    for w in ways:
        if w.get("applies") is False:
            continue
        here = (f"{w['rule']}: " if top and w.get("rule") and w["rule"] != "def" and not said else "") + w["fails"]
        line = f"{said}, because {w['fails']}" if said else here
        if w.get("because") and _BARE.match(w["fails"]):
            line = said  # a relation's bare name says nothing its causes do not say better
        # A condition open in several places (cites no confirmed source: any source, span, tier) has
        # causes everywhere: say it, not them. A place or two (a policy, a payer) are worth reading down.
        broad = len([v for v in w.get("open", ()) if not _BOOKKEEPING.match(v)]) > 2
        deeper = [] if broad else _lifts(w.get("because", []), line, top)
        out += deeper or [line]
    return list(dict.fromkeys(out))


def _lift(ex: Explainer, name: str, row: Tuple, depth: int = 5) -> List[str]:
    """What would make ``name(*row)`` hold: the first failing condition of each rule, in its words."""
    return _lifts(_refute(ex, name, list(row), depth))


def _refute(ex: Explainer, name: str, row: List, depth: int) -> List[Dict]:
    """:func:`refute_row`, with each missing fact said as the statement that would state it."""
    ways = refute_row(ex, name, row, depth)

    def reword(ws):
        for w in ws:
            said = _statement_for(ex, *w["missing"]) if w.get("missing") else None
            if said:
                also = [_statement_for(ex, *m) for m in w.get("also", ())]
                w["fails"] = f"no `{said}` is stated" + "".join(f", nor `{a}`" for a in also if a)
            reword(w.get("because", ()))
    reword(ways)
    return ways


def _statement_for(ex: Explainer, name: str, row: List) -> Optional[str]:
    """The statement that would give the fact ``name(*row)`` (``None`` places left out), read off a
    fact of the same relation the world does state: which field of its statement each place holds.
    ``org_policy(o, 'market-rates', F)`` reads ``policy o market-rates``, ``money(M, L, o, 'fee')``
    ``money <payer> o fee``; None if the world states no such fact."""
    from ..facts.language import LANGUAGE

    sample = next(iter(ex.rows(name, [_FREE] * len(row))), None)
    facts = ex.d.origins.get((name, tuple(sample))) if sample is not None else ()
    decl = LANGUAGE.decls.get(facts[0].kind) if facts else None
    if decl is None:
        return None
    f = facts[0]
    fields = [next((k for k, x in f.values.items() if x == v and not k.startswith("_")), None) for v in sample]
    given = {k: v for k, v in zip(fields, row) if k and v is not None}
    if not given:
        return None
    names = [p.name for p in decl.positional]
    last = max((i for i, k in enumerate(names) if k in given), default=-1)  # a place before it stays open
    parts = [f.kind] + [ex.show(given[k]) if k in given else f"<{k}>" for k in names[:last + 1]]
    parts += [f"{k}={ex.show(v)}" for k, v in given.items() if k not in names]
    return " ".join(parts + ([name] if name in decl.flags else []))


def _lift_clamp(ex: Explainer, sid: str, view: str, clause: str) -> List[str]:
    """What would free a bound that ``clause`` holds (see :func:`_lift_proof`)."""
    own = {f["loc"] for f in _facts_of(ex, sid)}  # the signal's own statements are what is held, not why
    return _lift_proof(ex, ex.prove_atom("held", (sid, view, clause)), clause, lambda loc: loc not in own, quote=True)


def _lift_proof(ex: Explainer, root: str, clause: str, counts, quote: bool = False) -> List[str]:
    """What would undo the proof at ``root``, read from the rules of ``clause`` in it: each
    condition whose absence it needs (refuted in turn: what that lacks), and each statement it
    rests on that ``counts`` (quoted when the way does not list it); where there is neither (C14's classes test only what holds), the
    conditions themselves."""
    g = ex.graph
    needs: List[str] = []
    holding: List[str] = []
    facts: set = set()
    stack, seen = [root], set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        a = g.nodes[n]
        said = a["label"] if a["label"].startswith(clause + ":") else f"{clause}: {a['label']}"
        body = parse_rule(a["text"])[1] if a.get("text") else []
        for lit in body:
            m = _DIFFERS.match(lit.text) if isinstance(lit, Compare) else None
            if m and all(v in a["bindings"] for v in m.groups()):
                # held because a stage gave another bound than stated (C14): what the stated one lacks there
                x, y = m.groups()
                stage = [at for at in body if isinstance(at, Atom) and (x in at.variables()) != (y in at.variables())]
                if stage:  # the last stage of the body gave the other value: refute it giving the first one's
                    at = stage[-1]
                    got, was = (x, y) if x in at.variables() else (y, x)
                    row = [a["bindings"][was] if isinstance(v, Var) and v.name == got else ex._value(v, a["bindings"])
                           for v in at.args]
                    needs += [f"{clause}: {w}" for w in _lifts(_refute(ex, at.name, row, 3), top=False)]
            if isinstance(lit, Negated):  # it holds because this is absent: what that lacks
                row = [ex._value(x, a["bindings"]) for x in lit.args]
                absent = g.nodes.get("not " + atom_id(lit.name, row), {}).get("label", "")
                needs += [f"{clause}: {x}" for x in _lifts(_refute(ex, lit.name, row, 3), absent, top=False)]
        for c in g.successors(n):
            k = g.nodes[c]
            if k.get("kind") == "fact":
                if counts(k["loc"]) and k["loc"] not in facts:  # one line per statement (listed with the way)
                    facts.add(k["loc"])
                    what = f"`{k['label']}` at {k['loc']}" if quote else f"the statement at {k['loc']}"
                    needs.append(f"{said}: unless {what} is corrected")
            elif k.get("rule") == clause or (k.get("rule") == "0" and n == root):
                stack.append(c)
            elif k.get("rule") == "def" and k.get("kind") == "derived":
                holding.append(f"{clause}: unless: {k['label']}")
    return list(dict.fromkeys(needs or holding))


def _lift_cap(ex: Explainer, sid: str, rule: str, target: int, policy: str) -> List[str]:
    """What would lift a cap below ``target``: for a derived cap, what its rule lacks (F.3's fee
    policies) or the facts it rests on; for a recorded one, retiring it."""
    d = ex.d
    if sid in d.derived:
        used = {str(f.loc) for f in d.facts if f.fid in d.derived[sid].facts}  # the facts its rule cites
        return _lift_proof(ex, ex.prove_atom("derive", d.derived_rows[sid]), rule, used.__contains__)
    lifts = [WOULD_LIFT[rule].format(org=d.facts.signals[sid]["org"])] if rule in WOULD_LIFT else []
    return lifts + [f"{sid} is recorded under {rule}: it lifts only when retired (status=superseded or differs) "
                    f"or when its citations stop being admissible under {policy}"]


def render_why_not(doc: Dict) -> List[str]:
    """A why-not answer as lines: per way, what blocks it (with its clause), the facts, what would lift it."""
    org, dim, policy, target = doc["org"], doc["dim"], doc["policy"], doc["target"]
    shown = "-" if doc["value"] is None else doc["value"]
    if doc["reached"]:
        return [f"{org} {dim} is {target} under {policy}"]
    lines = [f"{org} {dim} = {shown} under {policy}, not {target}:"]
    for w in doc["ways"]:
        b = w["blocked_by"]
        by = f"{b['what']} [{b['clause']}]" if b["clause"] else b["what"]
        lines.append(f"  {w['says']}: blocked by {by}: {b['text']}")
        lines += [f"      {f['statement']}  @{f['loc']}" for f in w["facts"]]
        lines += [f"    would lift: {x}" for x in w["lift"]]
    return lines
