"""The money matrix and hop paths (SEMANTICS "Money matrix").

Hops come from the Datalog rules (``hop``); the tie paths shown beside each
money row, and by ``provlog hops``, are shortest paths found by networkx over
the same ``tie`` relation (a test checks that the two agree on every node),
each tie labelled with the statement that makes it:

    >>> paths = hop_paths(world, "ternhollow-office", limit=10)   # doctest: +SKIP
    >>> [[t.text() for t in step.ties] for step in paths[1]]      # doctest: +SKIP
    [['stake 20-25%'], ['stake 4% since 2023-06']]
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

if TYPE_CHECKING:  # annotations only: the module imports networkx where it draws
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
    currency: Optional[str] = None
    year: Optional[int] = None

    def to_json(self):
        return {"payer": self.payer, "kind": self.kind, "hop": self.hop, "bucket": self.bucket,
                "path": list(self.path), "amount": None if self.amount is None else _num(self.amount),
                "currency": self.currency, "year": self.year, "loc": self.loc}


def _num(f: Fraction):
    return int(f) if f.denominator == 1 else float(f)


def amount_text(amount, currency: Optional[str] = None) -> str:
    """An amount (exact, or as JSON gives it) as people write it: 1,200,000 USD; ``undisclosed``
    when the facts give none."""
    if amount is None:
        return "undisclosed"
    n = _num(amount) if isinstance(amount, Fraction) else amount
    return (f"{n:,}" if isinstance(n, int) else f"{n:,.2f}") + (f" {currency}" if currency else "")


@dataclass(frozen=True)
class Tie:
    """One statement that ties ``node`` to ``to`` (SEMANTICS "Money matrix": what a node is tied to).

    ``kind`` is stake, invest, principal or money; a stake carries its percentage, an
    investment its round (led, co-led, priced), money its kind, amount, currency and year.
    """

    node: str
    to: str
    kind: str
    detail: str
    amount: Optional[Fraction]
    currency: Optional[str]
    year: Optional[str]
    loc: str

    def text(self) -> str:
        """``stake 25%``, ``invest led priced 2024``, ``principal``, ``paid by: grant 1,000,000 USD 2025``."""
        bits = [self.kind if self.kind != "money" else "paid by:", self.detail]
        if self.kind == "money":
            bits.append(amount_text(self.amount, self.currency))
        if self.year:
            bits.append(f"since {self.year}" if self.kind == "stake" else self.year)
        return " ".join(b for b in bits if b)

    def to_json(self):
        return {"from": self.node, "to": self.to, "kind": self.kind, "detail": self.detail,
                "amount": None if self.amount is None else _num(self.amount), "currency": self.currency,
                "year": self.year, "label": self.text(), "loc": self.loc}


@dataclass(frozen=True)
class Step:
    """One step of a path: ``node`` is tied to ``to`` by each of ``ties`` (several statements may)."""

    node: str
    to: str
    ties: Tuple[Tie, ...]

    def to_json(self):
        return {"from": self.node, "to": self.to, "ties": [t.to_json() for t in self.ties]}


def ties(world) -> Dict[Tuple[str, str], Tuple[Tie, ...]]:
    """Every tie of the world, labelled with its statement: (node, to) -> ties, in the ``tie`` rules' order."""
    cached = world.__dict__.get("_ties")
    if cached is not None:
        return cached
    match = world.derivation.program.match
    by_id = {f.fid: f for f in world.facts}
    out: Dict[Tuple[str, str], List[Tie]] = {}

    def add(x, y, kind, detail, f, amount=None, currency=None, year=None):
        out.setdefault((x, y), []).append(Tie(x, y, kind, detail, amount, currency, year, str(f.loc)))

    for x, y, _, fid in sorted(match("stake", 4, []), key=repr):  # present stakes only (the EDB drops ended ones)
        f = by_id[fid]
        add(x, y, "stake", str(f["pct"]), f, year=f["since"])
    for x, y, _, _, fid in sorted(match("invest", 5, []), key=repr):
        f = by_id[fid]
        add(x, y, "invest", " ".join(sorted(f.flags, key=("led", "co-led", "priced").index)), f, year=f["date"])
    for x, y in sorted(match("principal", 2, [])):
        add(x, y, "principal", "", world.facts.nodes[x])
    counted = {m for (m,) in match("counts", 1, [])}
    for f in sorted(world.facts.of("money"), key=lambda f: f.canon()):
        if f.fid in counted:  # the recipient is tied to whoever pays it
            add(f["recipient"], f["payer"], "money", f["kind"], f, f["amount"], f["currency"],
                None if f["year"] is None else str(f["year"]))
    cached = world.__dict__["_ties"] = {k: tuple(v) for k, v in out.items()}
    return cached


def hop_paths(world, node: str, limit: int = 10) -> List[Tuple[Step, ...]]:
    """Every shortest tie path from ``node`` to a lab (at most ``limit``), in lexicographic order of
    their node ids; each step carries every statement that ties its two nodes. Empty when no lab
    lies within 4 ties; ``[()]`` for a lab itself."""
    g = tie_graph(world)
    dist = lab_distances(g)
    if node not in dist:
        return []
    out: List[Tuple[str, ...]] = []

    def walk(path):  # depth-first in id order: paths come out lexicographically, so stop at the limit
        if len(out) >= limit:
            return
        here = path[-1]
        if dist[here] == 0:
            out.append(tuple(path))
            return
        for y in sorted(y for y in g.successors(here) if dist.get(y) == dist[here] - 1):
            walk(path + [y])

    walk([node])
    return [_steps(world, p) for p in out]


def _steps(world, path: Tuple[str, ...]) -> Tuple[Step, ...]:
    labelled = ties(world)
    return tuple(Step(a, b, labelled.get((a, b), ())) for a, b in zip(path, path[1:]))


def hop_report(world, node: str, limit: int = 10) -> Dict:
    """What ``provlog hops`` shows (docs/json.md, "hops"): the node's hop and every shortest tie
    path to a lab (at most ``limit``, lexicographic by node ids), and for an org each money row
    into it with the payer's bucket and first shortest path, every tie labelled."""
    paths = hop_paths(world, node, limit + 1)
    kind = world.facts.nodes[node].kind
    doc = {"node": node, "kind": kind, "hop": world.hop(node), "limit": limit,
           "order": "lexicographic by node ids", "truncated": len(paths) > limit,
           "paths": [[s.to_json() for s in p] for p in paths[:limit]]}
    if kind == "org":
        doc["rows"] = [dict(r.to_json(), ties=[s.to_json() for s in _steps(world, r.path)])
                       for r in hop_rows(world, node)]
    return doc


def tie_graph(world) -> "nx.DiGraph":
    """Every lab, org, entity and person, with an edge X -> Y for each tie (X is tied to Y)."""
    import networkx as nx  # here, not at import: a card renders with this module and never needs it

    g = nx.DiGraph()
    for node_id, fact in sorted(world.facts.nodes.items()):
        g.add_node(node_id, kind=fact.kind)
    for x, y in sorted(world.derivation.program.match("tie", 2, [])):
        g.add_edge(x, y)
    return g


def lab_distances(g: "nx.DiGraph", limit: int = 4) -> Dict[str, int]:
    import networkx as nx

    labs = [n for n, k in g.nodes(data="kind") if k == "lab"]
    return dict(nx.multi_source_dijkstra_path_length(g.reverse(copy=False), labs, cutoff=limit)) if labs else {}


def shortest_tie_path(g: "nx.DiGraph", node: str, dist: Dict[str, int]) -> Tuple[str, ...]:
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
    return {n: int(d) for n, d in lab_distances(tie_graph(world)).items()}


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
    dist = lab_distances(g)
    counted = {m for (m,) in world.derivation.program.match("counts", 1, [])}
    by_org: Dict[str, List[HopRow]] = {}
    # Rows sort by their content (never by where they were written), so output is order-free.
    for f in sorted(world.facts.of("money"), key=lambda f: f.canon()):
        org = f["recipient"]
        rows = by_org.setdefault(org, [])
        payer = f["payer"]
        if f.fid not in counted:  # in-kind that is not operating: the ledger, never a bucket (F.2, F.11)
            rows.append(HopRow(payer, f["kind"], None, IN_KIND, (), f["amount"], str(f.loc), f["currency"], f["year"]))
            continue
        hop = world.hop(payer)
        rows.append(HopRow(payer, f["kind"], hop, "none" if hop is None else str(hop),
                           shortest_tie_path(g, payer, dist), f["amount"], str(f.loc), f["currency"], f["year"]))
    for rows in by_org.values():
        rows.sort(key=lambda r: (r.payer, r.kind, r.bucket))  # stable: content order within ties
    return by_org


#: the currency key of an amount whose row names none
UNSTATED = "unstated"


def money_matrix(world, year: Optional[int] = None) -> Dict[str, Dict[str, Dict[str, object]]]:
    """orgs x buckets (0..4, none, in-kind): per cell, the count of money rows, their summed
    amounts per currency, and how many rows disclose no amount (never counted as 0).
    ``year`` keeps only the rows of that year (a row with no year is in no year)."""
    out = {}
    rows = _all_rows(world)
    for org in world.orgs:
        cells = {b: {"count": 0, "amounts": {}, "undisclosed": 0} for b in BUCKETS + (IN_KIND,)}
        for row in rows.get(org, []):
            if year is not None and row.year != year:
                continue
            cell = cells[row.bucket]
            cell["count"] += 1
            if row.amount is None:
                cell["undisclosed"] += 1
            else:
                cur = row.currency or UNSTATED
                cell["amounts"][cur] = cell["amounts"].get(cur, Fraction(0)) + row.amount
        out[org] = {b: {"count": c["count"], "amounts": {k: _num(v) for k, v in sorted(c["amounts"].items())},
                        "undisclosed": c["undisclosed"]} for b, c in cells.items()}
    return out


def cell_text(cell) -> str:
    """``2 / 1,500,000 USD + 1 undisclosed``, ``1 / undisclosed``; empty for an empty cell."""
    if not cell["count"]:
        return ""
    sums = [amount_text(v, None if k == UNSTATED else k) for k, v in cell["amounts"].items()]
    if cell["undisclosed"]:  # how many rows state no amount (all of them: just "undisclosed")
        sums.append("undisclosed" if not sums and cell["undisclosed"] == cell["count"] else f"{cell['undisclosed']} undisclosed")
    return f"{cell['count']} / " + " + ".join(sums)
