"""What the language server says beside the text: hovers (an org's card, a signal under each
policy, a source, a person's roles, a clause's sentence), inlay hints (what a signal does to its
value now) and code lenses ("why": the proof, ``provlog why``'s text). Plain strings, from the
query API (queries/api.py) and the explainer's words (explain/why.py); server.py sends them.

    >>> from provlog import World
    >>> w = World.load("facts/worlds/example")
    >>> signal_hint(w, w.facts.signals["qv-g-board"])
    'decides G = 3, clamped 4 -> 3 (G.7)'
    >>> signal_hint(w, w.facts.signals["qv-g-policy"])
    'outweighed by qv-g-board'
"""
from __future__ import annotations

from typing import List, Optional

from ...explain.why import exclusion_reason
from ...facts import DIMS
from ...facts.schema import POLICY_NAMES
from ...errors import ProvlogError
from ..records import DEFAULT_POLICY
from ..reference import clauses


def org_hover(w, org: str) -> str:
    """The card of ``org`` under the default policy: eight values, band, role."""
    c = w.card(org, DEFAULT_POLICY)
    name = w.facts.nodes[org]["name"]
    vals = "  ".join(f"{d} {'-' if v is None else v}" for d, v in c.values.items())
    lines = [f"**org {org}** \"{name}\"", "", f"`{vals}`", "",
             f"band **{c.band}**, role **{c.role}** (under {DEFAULT_POLICY})"]
    for d, (sid, rule) in c.deciders.items():
        if sid:
            lines.append(f"- {d}: {sid} ({rule})")
    for k in c.clamps:
        lines.append(f"- clamped {k.signal}: {k.kind} {k.stated} -> {k.effective} ({', '.join(k.clauses)})")
    for x in c.conflicts:
        lines.append(f"- conflict on {x['dim']}: floor {x['floor']} > cap {x['cap']}"
                     + (" (resolved)" if x["resolved"] else ""))
    return "\n".join(lines)


def signal_hover(w, sid: str) -> str:
    """Whether the signal is admissible under each policy, its clamp and the clause that held it,
    and whether it decides its value."""
    f = w.facts.signals[sid]
    bound = "info" if f["kind"] == "info" else f"{f['kind']} {f['bound']}"
    lines = [f"**signal {sid}**: {f['org']} {f['dim']} {f['direction']} {bound} (rule {f['rule']})", ""]
    for pol in POLICY_NAMES:
        lines.append(f"- {pol}: {_effect(w, f, pol)}")
    return "\n".join(lines)


def _effect(w, f, policy: str) -> str:
    """What the signal does to its value under ``policy``."""
    sid, d = f["id"], w.derivation
    if (sid, policy) not in d.admissible:
        return f"inadmissible under {policy}: {exclusion_reason(d, sid, f['status'] or 'active', policy)}"
    v = w.value(f["org"], f["dim"], policy)
    parts = []
    for k in v.clamps:
        if k.signal == sid:
            parts.append(f"clamped {k.stated} -> {k.effective} ({', '.join(k.clauses)})")
    if any(n.signal == sid for n in v.notes):
        parts.append("informational: bounds nothing")
    if v.signal == sid:
        parts.insert(0, f"decides {f['dim']} = {v}")
    elif v.signal is not None and not parts:
        parts.append(f"outweighed by {v.signal}")
    elif not parts:
        parts.append(f"decides nothing ({f['dim']} = {v})")
    return ", ".join(parts)


def signal_hint(w, f) -> str:
    """The inlay hint at the end of a signal's line: its effect under the default policy."""
    return _effect(w, f, DEFAULT_POLICY)


def source_hover(w, src: str) -> str:
    f = w.facts.sources[src]
    citing = sorted({c["signal"] for c in w.facts.of("cite") if c["source"] == src}
                    | {x.fid.split(":", 1)[-1] if x.kind == "signal" else x.fid for x in w.facts if src in x.src})
    lane = f["lane"] or "-"
    return "\n".join([f"**source {src}** \"{f['title']}\"", "",
                      f"tier {f['tier'] or '-'}, status {f['status']}, lane {lane}, publisher {f['publisher']}"
                      + (" (quarantined)" if "quarantined" in f.flags else ""), "",
                      f"cited by: {', '.join(citing) if citing else 'nothing'}"])


def person_hover(w, person: str) -> str:
    roles = [f"- {r['role']} at {r['at']}" + (f" (until {r['until']})" if r["until"] else "")
             for r in w.facts.of("role") if r["person"] == person]
    return "\n".join([f"**person {person}** \"{w.facts.nodes[person]['name']}\"", ""] + (roles or ["no public role"]))


def node_hover(w, node: str) -> str:
    f = w.facts.nodes[node]
    if f.kind == "org":
        return org_hover(w, node)
    if f.kind == "person":
        return person_hover(w, node)
    extra = f" ({f['kind']})" if f.kind == "entity" and f["kind"] else ""
    return f"**{f.kind} {node}** \"{f['name']}\"{extra}"


def clause_hover(clause: str) -> Optional[str]:
    """The clause's sentence (``rule=G.2``), or None for an id no rulebook has."""
    try:
        found = clauses(None, clause)
    except ProvlogError:
        return None
    return f"**{clause}**: {found[0].statement}" if found else None


def why(w, org: str, dims: str = DIMS) -> str:
    """The proofs of ``org``'s values on ``dims`` under the default policy: ``provlog why``'s text."""
    return "\n\n".join(w.why(org, d, DEFAULT_POLICY) for d in dims)
