"""What the pages show, shaped from the query API (no rule knowledge here).

Each function takes a :class:`World` and returns plain data a template
renders: lists and dicts of strings and numbers, already in people's terms.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any, Dict, List, Optional

from ...explain import to_json
from ...facts import DIMS
from ...facts.schema import POLICY_NAMES
from .. import placement
from ..api import DEFAULT_POLICY
from ..money import BUCKETS, IN_KIND, cell_text, lab_distances, tie_graph
from ..money import ties as tie_statements  # this module's ties() is the web's tie graph
from ..windows import gated, state

#: the clauses that hold (clamp) a stated bound (RULES section 0 and 9)
CLAMP = re.compile(r"^held by ([A-Z0-9][A-Za-z0-9.]*):")
URL = re.compile(r"^https?://\S+$")


#: while the static site is written (queries/web/export.py), each page's data is shaped once and kept, since
#: its page, its JSON and other pages (a person's touched values, the proofs) ask for the same; None: serving
_MEMO: Optional[Dict[tuple, Any]] = None


@contextmanager
def kept():
    """Within this block, proofs, cards and tie data are computed once per argument tuple."""
    global _MEMO
    _MEMO = {}
    try:
        yield
    finally:
        _MEMO = None


def keep(key: tuple, value) -> None:
    """Keep ``value`` as the answer for ``key`` within :func:`kept` (prove.py's proofs, searched elsewhere)."""
    if _MEMO is not None:
        _MEMO[key] = value


def why_graph(world, org: str, dim: str, policy: str) -> Dict[str, Any]:
    """A value's proof as `provlog why --json` gives it (root, nodes, edges), kept within :func:`kept`."""
    key = ("why", org, dim, policy)
    if _MEMO is not None and key in _MEMO:
        return _MEMO[key]
    with world._lock:  # World.why's proof, without its text round trip (json.dumps then loads)
        root, graph = world._proof(org, dim, policy)
        g = to_json(graph, root)
    if _MEMO is not None:
        _MEMO[key] = g
    return g


def card(world, org: str, policy: str):
    """``world.card(org, policy)``, kept while the site is written: the registry, the org page, its
    JSON and each person's page ask for the same cards."""
    key = ("card", org, policy)
    if _MEMO is not None and key in _MEMO:
        return _MEMO[key]
    got = world.card(org, policy)
    if _MEMO is not None:
        _MEMO[key] = got
    return got


def _tie_base(world):
    """The tie graph, its hop distances and edge labels: one world's, kept while the site is written."""
    if _MEMO is not None and "ties" in _MEMO:
        return _MEMO["ties"]
    g = tie_graph(world)
    out = (g, lab_distances(g, 4), edge_labels(world))
    if _MEMO is not None:
        _MEMO["ties"] = out
    return out


def is_org(world, node: str) -> bool:
    """Whether ``node`` is one of ``world.orgs`` (a sorted list, made anew each time it is read: while the
    site is written, its set is made once, not once a page or a role)."""
    if _MEMO is None:
        return node in world.orgs
    orgs = _MEMO.get("orgs")
    if orgs is None:
        orgs = _MEMO["orgs"] = frozenset(world.orgs)
    return node in orgs


def name_of(world, node: str) -> str:
    fact = world.facts.nodes.get(node)
    return fact["name"] if fact is not None else node


def registry(world, policy: str, skip=frozenset()) -> List[Dict[str, Any]]:
    """One row an org (but those in ``skip``): its values on the eight dimensions, band and role, under ``policy``."""
    rows = []
    for org in world.orgs:
        if org in skip:
            continue
        c = card(world, org, policy)
        rows.append({"org": org, "name": name_of(world, org), "values": [c.values[d] for d in DIMS],
                     "band": c.band, "role": c.role})
    return rows


def policies(world, org: str) -> Dict[str, Any]:
    """``org`` under every policy; a value that differs from the standard policy's is marked."""
    cards = {p: card(world, org, p) for p in POLICY_NAMES}
    base = cards["standard"]
    rows = []
    for d in DIMS:
        cells = []
        for p in POLICY_NAMES:
            c = cards[p]
            sig, rule = c.deciders.get(d, (None, None))
            cells.append({"policy": p, "value": c.values[d], "rule": rule, "signal": sig,
                          "differs": c.values[d] != base.values[d]})
        rows.append({"dim": d, "cells": cells})
    bands = [{"policy": p, "band": cards[p].band, "differs": cards[p].band != base.band} for p in POLICY_NAMES]
    on_card = {"tags": [t.to_json() for t in base.tags.values()], "lifts": [r.to_json() for r in base.lifts],
               "requests": [r.to_json() for r in base.requests], "recorded": [r.to_json() for r in base.recorded]}
    return {"org": org, "name": name_of(world, org), "role": base.role, "rows": rows, "bands": bands,
            "card": on_card}  # what the RULES put on the card beside the values, under standard


def _source(world, sid: str) -> Dict[str, Optional[str]]:
    f = world.facts.sources.get(sid)
    title = f["title"] if f is not None else None
    return {"title": title, "url": title if URL.match(title or "") else None}


def proof(world, org: str, dim: str, policy: str) -> Dict[str, Any]:
    """A value's proof: the DAG as nodes and edges, and the same as a tree (shared nodes once)."""
    key = ("proof", org, dim, policy)
    if _MEMO is not None and key in _MEMO:  # the site's page and its JSON
        return _MEMO[key]
    got = _proof(world, org, dim, policy)
    if _MEMO is not None:
        _MEMO[key] = got
    return got


def _proof(world, org: str, dim: str, policy: str) -> Dict[str, Any]:
    g = why_graph(world, org, dim, policy)
    nodes = {}
    for n in g["nodes"]:
        label = n.get("label") or ""
        m = CLAMP.match(label)
        srcs = [dict(s, **_source(world, s["id"])) for s in n.get("sources") or []]
        nodes[n["id"]] = dict(n, handle=int(n["id"][1:]), sources=srcs, clamp=m.group(1) if m else None,
                              fired=bool(n.get("fired")))
    kids: Dict[str, List[str]] = {}
    for a, b in g["edges"]:
        kids.setdefault(a, []).append(b)
    seen = set()

    def tree(nid: str) -> Dict[str, Any]:
        if nid in seen:
            return {"node": nodes[nid], "see": True, "children": []}
        seen.add(nid)
        return {"node": nodes[nid], "see": False, "children": [tree(k) for k in kids.get(nid, [])]}

    value = card(world, org, policy).values[dim] if _MEMO is not None else world.value(org, dim, policy).value
    return {"org": org, "dim": dim, "policy": policy, "value": value,
            "tree": tree(g["root"]), "graph": {"root": g["root"], "nodes": list(nodes.values()), "edges": g["edges"]}}


def why_not(world, org: str, dim: str, n: int, policy: str) -> Dict[str, Any]:
    """Each way ``org`` ``dim`` could be ``n``: what blocks it, the facts, what would lift it (docs/json.md)."""
    return world.why_not(org, dim, n, policy)


def ties(world, start: str, limit: int = 4) -> Dict[str, Any]:
    """The tie graph from ``start`` to the labs: every node on a shortest path, each edge labelled."""
    if limit == 4:
        g, dist, labels = _tie_base(world)
    else:
        g = tie_graph(world)
        dist, labels = lab_distances(g, limit), edge_labels(world)
    keep_edges = []
    frontier, seen = [start] if start in dist else [], set()
    while frontier:  # every edge that steps one hop closer to a lab lies on some shortest path
        x = frontier.pop()
        if x in seen:
            continue
        seen.add(x)
        for y in sorted(g.successors(x)):
            if dist.get(y) == dist[x] - 1:
                keep_edges.append((x, y))
                frontier.append(y)
    nodes = sorted(seen | {start})
    return {"start": start, "hop": dist.get(start),
            "nodes": [{"id": n, "name": name_of(world, n), "kind": g.nodes[n].get("kind") if n in g else None,
                       "hop": dist.get(n)} for n in nodes],
            "edges": [{"source": x, "target": y, "label": "; ".join(l["label"] for l in labels.get((x, y), [])) or "tie",
                       "loc": ", ".join(l["loc"] for l in labels.get((x, y), []))} for x, y in keep_edges]}


def edge_labels(world) -> Dict[tuple, List[Dict[str, str]]]:
    """Each tie's statements in words, as ``provlog hops`` labels them (queries/money.py ``ties``):
    stake 4% since 2023-06, invest led priced 2024, principal, paid by: fee 200,000 USD 2025."""
    return {k: [{"label": t.text(), "loc": t.loc} for t in v] for k, v in tie_statements(world).items()}


def amount(x) -> str:
    """An amount as people write it: 250 000, 1.5M stays exact (no float)."""
    if x is None:
        return "undisclosed"
    if x.denominator == 1:
        return f"{int(x):,}".replace(",", " ")
    return str(float(x))


def matrix(world, gate: bool = False) -> Dict[str, Any]:
    """The money matrix; with ``gate``, without the orgs still in their reply window."""
    m = world.matrix()
    cols = list(BUCKETS) + [IN_KIND]
    return {"columns": cols, "rows": [{"org": org, "name": name_of(world, org), "cells": [dict(m[org][c], text=cell_text(m[org][c])) for c in cols]}
                                      for org in sorted(m) if not withheld(world, org, gate)]}


def _ratio(x) -> str:
    """An exact weight as the browser reads it: "3" or "3/10" (no float on the way)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def presets(world) -> List[Dict[str, Any]]:
    """The world's `preset` statements: id, persona and exact weights, sorted by id."""
    return [{"id": pid, "persona": f["persona"], "weights": {d: _ratio(f[d] or 0) for d in DIMS}}
            for pid, f in sorted(world.facts.presets.items())]


def candidates(world) -> Dict[str, Any]:
    """Section 11's candidates page: every candidate checked and its result; the counts leave the
    out-of-scope ones out (queries/candidates.py)."""
    from ..candidates import candidates as rows, counts

    return {"as_of": world.as_of, "candidates": rows(world), "counts": counts(world)}


def withheld(world, subject: str, gate: bool) -> Optional[str]:
    """What a page says instead of ``subject`` while the site may not publish it (``gate``: the public
    site of a world that runs the publication cycle, queries/windows.py); None: publish it."""
    if not gate or not gated(world):
        return None
    key = ("window", subject)
    if _MEMO is not None and key in _MEMO:
        return _MEMO[key]
    w = state(world, subject)
    got = None if w.published else w.says()
    if _MEMO is not None:
        _MEMO[key] = got
    return got


def held_json(world, subject: str, says: str) -> Dict[str, Any]:
    """A withheld subject's JSON beside its page: its id and name and why it is withheld, nothing else."""
    return {"subject": subject, "name": name_of(world, subject), "withheld": says}


def placed(world, policy: str, gate: bool = False) -> Dict[str, Any]:
    """The site's registry: each org in its derived list (``World.placement``), the lists in the RULES'
    order, each band first (queries/placement.py),
    with every org's values and the world's presets, for the browser's weighted number. With ``gate``, an
    org still in its reply window is listed apart (``withheld``) with no value, band or role."""
    rows, held = [], []
    for org in world.orgs:
        says = withheld(world, org, gate)
        if says:
            held.append({"org": org, "name": name_of(world, org), "withheld": says})
    skip = {h["org"] for h in held}
    for r in registry(world, policy, skip):
        fact = world.facts.nodes[r["org"]]
        r["group"] = world.placement(r["org"])  # derived: logic/population.py, clauses 10-11
        r["status"] = fact["status"] or "in-scope"
        rows.append(r)
    return {"policy": policy, "dims": list(DIMS), "bands": list(placement.BANDS),
            "sections": placement.place(rows), "presets": presets(world), "withheld": held}


def _roles(world, by: str, who: str) -> list:
    """The `role` statements whose ``by`` (person or at) is ``who``, in the world's order: while the site
    is written, through an index made once (a scan of every role for each of thousands of pages was
    most of the person pages' time)."""
    if _MEMO is None:
        return [f for f in world.facts.of("role") if f[by] == who]
    index = _MEMO.get(("roles", by))
    if index is None:
        index = _MEMO[("roles", by)] = {}
        for f in world.facts.of("role"):
            index.setdefault(f[by], []).append(f)
    return index.get(who, [])


def person(world, pid: str) -> Dict[str, Any]:
    """A named person's card: public roles (RULES section 12: public roles only), ties to the labs, and the
    values of the orgs they hold roles at whose proofs cite one of their role facts; kept within
    :func:`kept` (the page and its JSON)."""
    key = ("person", pid)
    if _MEMO is not None and key in _MEMO:
        return _MEMO[key]
    got = _person(world, pid)
    if _MEMO is not None:
        _MEMO[key] = got
    return got


def _person(world, pid: str) -> Dict[str, Any]:
    roles = [{"role": f["role"], "at": f["at"], "at_name": name_of(world, f["at"]), "recusal": f["recusal"],
              "since": f["since"], "until": f["until"], "loc": str(f.loc), "org": is_org(world, f["at"])}
             for f in _roles(world, "person", pid)]
    roles.sort(key=lambda r: (r["at"], r["role"], r["loc"]))
    locs = {r["loc"] for r in roles}
    touched = []
    for org in sorted({r["at"] for r in roles if r["org"]}):
        c = card(world, org, DEFAULT_POLICY)
        for d in DIMS:
            g = why_graph(world, org, d, c.policy)
            if any(n.get("loc") in locs for n in g["nodes"]):
                touched.append({"org": org, "name": name_of(world, org), "dim": d, "value": c.values[d],
                                "rule": c.deciders.get(d, (None, None))[1]})
    return {"person": pid, "name": name_of(world, pid), "roles": roles, "touched": touched,
            "ties": ties(world, pid)}


def people(world) -> List[str]:
    return sorted(k for k, f in world.facts.nodes.items() if f.kind == "person")


def people_at(world, org: str) -> List[Dict[str, str]]:
    """The named individuals with a role at ``org``: person, name, role, sorted."""
    return sorted(({"person": f["person"], "name": name_of(world, f["person"]), "role": f["role"]}
                   for f in _roles(world, "at", org)), key=lambda r: (r["name"], r["person"], r["role"]))
