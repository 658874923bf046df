"""The money matrix and hop paths (SEMANTICS "Money matrix").

Hops come from the Datalog rules (``hop``); the tie path shown beside each
money row is a shortest path found by networkx over the same ``tie`` relation,
and a test checks that the two agree on every node.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Dict, List, Optional, Tuple

import networkx as nx

BUCKETS = ("0", "1", "2", "3", "4", "none")
IN_KIND = "in-kind"


@dataclass(frozen=True)
class HopRow:
    payer: str
    kind: str
    hop: Optional[int]
    bucket: str
    path: Tuple[str, ...]
    amount: Optional[Fraction]
    loc: str

    def to_json(self):
        return {"payer": self.payer, "kind": self.kind, "hop": self.hop, "bucket": self.bucket,
                "path": list(self.path), "amount": None if self.amount is None else _num(self.amount),
                "loc": self.loc}


def _num(f: Fraction):
    return int(f) if f.denominator == 1 else float(f)


def tie_graph(world) -> nx.DiGraph:
    """Every lab, org, entity and person, with an edge X -> Y for each tie (X is tied to Y)."""
    g = nx.DiGraph()
    for node_id, fact in sorted(world.facts.nodes.items()):
        g.add_node(node_id, kind=fact.kind)
    for x, y in sorted(world.derivation.program.match("tie", 2, [])):
        g.add_edge(x, y)
    return g


def _lab_distances(g: nx.DiGraph, limit: int = 4) -> Dict[str, int]:
    labs = [n for n, k in g.nodes(data="kind") if k == "lab"]
    return dict(nx.multi_source_dijkstra_path_length(g.reverse(copy=False), labs, cutoff=limit)) if labs else {}


def shortest_tie_path(g: nx.DiGraph, node: str, dist: Dict[str, int]) -> Tuple[str, ...]:
    """The lexicographically smallest shortest path from ``node`` to a lab (empty if none within 4)."""
    if node not in dist:
        return ()
    path = [node]
    while dist[path[-1]] > 0:
        here = dist[path[-1]]
        path.append(min(y for y in g.successors(path[-1]) if dist.get(y) == here - 1))
    return tuple(path)


def networkx_hops(world) -> Dict[str, int]:
    """Hop of every node by breadth-first search (the cross-check of the Datalog hops)."""
    return {n: int(d) for n, d in _lab_distances(tie_graph(world)).items()}


def hop_rows(world, org: str) -> List[HopRow]:
    """Each money row into ``org``: kind, hop bucket of the payer, and its tie path to a lab."""
    return _all_rows(world).get(org, [])


def _all_rows(world) -> Dict[str, List[HopRow]]:
    cached = world.__dict__.get("_hop_rows")  # a world never changes: build its rows once
    if cached is None:
        cached = world.__dict__["_hop_rows"] = _build_rows(world)
    return cached


def _build_rows(world) -> Dict[str, List[HopRow]]:
    g = tie_graph(world)
    dist = _lab_distances(g)
    counted = {m for (m,) in world.derivation.program.match("counts", 1, [])}
    by_org: Dict[str, List[HopRow]] = {}
    # Rows sort by their content (never by where they were written), so output is order-free.
    for f in sorted(world.facts.of("money"), key=lambda f: f.canon()):
        org = f["recipient"]
        rows = by_org.setdefault(org, [])
        payer = f["payer"]
        if f.fid not in counted:  # in-kind that is not operating: the ledger, never a bucket (F.2, F.11)
            rows.append(HopRow(payer, f["kind"], None, IN_KIND, (), f["amount"], str(f.loc)))
            continue
        hop = world.hop(payer)
        rows.append(HopRow(payer, f["kind"], hop, "none" if hop is None else str(hop),
                           shortest_tie_path(g, payer, dist), f["amount"], str(f.loc)))
    for rows in by_org.values():
        rows.sort(key=lambda r: (r.payer, r.kind, r.bucket))  # stable: content order within ties
    return by_org


def money_matrix(world) -> Dict[str, Dict[str, Dict[str, object]]]:
    """orgs x buckets (0..4, none, in-kind): count and summed amount of money rows."""
    out = {}
    rows = _all_rows(world)
    for org in world.orgs:
        cells = {b: {"count": 0, "amount": Fraction(0)} for b in BUCKETS + (IN_KIND,)}
        for row in rows.get(org, []):
            cell = cells[row.bucket]
            cell["count"] += 1
            if row.amount is not None:
                cell["amount"] += row.amount
        out[org] = {b: {"count": c["count"], "amount": _num(c["amount"])} for b, c in cells.items()}
    return out
