"""Rendering of cards, hop paths and the money matrix: rich tables on a terminal; piped,
the same tables at their full width (nothing cut); DOT for hop paths; CSV rows for the matrix."""
from __future__ import annotations

import json
from typing import Dict, List, Optional, Tuple

from rich.console import Console
from rich.table import Table

from ..facts import DIMS
from .money import BUCKETS, IN_KIND, UNSTATED, amount_text, cell_text
from .terminal import markup, printable

NAMES = {"F": "funding", "G": "governance", "P": "personnel", "A": "access", "S": "scope",
         "R": "publication", "M": "methods", "X": "role incompatibility"}


def _console(markup: bool = True) -> Console:
    """``markup=False`` where the text is the world's (ids, ``-[stake 25%]->``), which rich would read as tags."""
    con = Console(highlight=False, soft_wrap=True, markup=markup)
    if not con.is_terminal:  # piped or redirected: no width to fit, so nothing is cut
        con = Console(highlight=False, soft_wrap=True, markup=markup, width=100_000)
    return con


def _table(**kw) -> Table:
    """A table whose cells fold on a narrow terminal instead of ending in an ellipsis."""
    return Table(header_style="bold", **kw)


def _col(t: Table, name: str, **kw) -> None:
    t.add_column(name, overflow="fold", **kw)


def print_card(world, card) -> None:
    con = _console()
    name = world.facts.nodes[card.org]["name"]
    con.print(f"[bold]{markup(name)}[/] ({card.org})  policy={card.policy}  band=[bold]{card.band}[/]  role={card.role}")
    t = _table(show_header=True)
    for col in ("dim", "", "value", "decided by"):
        _col(t, col)
    for d in DIMS:
        v = card.values[d]
        sig, rule = card.deciders.get(d, (None, None))
        by = f"{sig} ({rule})" if sig else (f"resolution ({rule})" if rule else "")
        t.add_row(d, NAMES[d], "-" if v is None else str(v), by)
    con.print(t)
    if card.weighted is not None:
        con.print(f"weighted ({card.preset}): {float(card.weighted):.2f}")
    for c in card.conflicts:
        state = f"resolved at {c['resolution']['value']} by {c['resolution']['rule']}" if c["resolved"] else "UNRESOLVED"
        con.print(f"conflict {c['dim']}: floor {c['floor']} > cap {c['cap']}: {state}")
    for c in card.clamps:
        con.print(f"clamp {c.dim}: {c.signal} {c.kind} {c.stated} held at {c.effective} by {', '.join(c.clauses)}")
    for n in card.notes:
        con.print(f"informational {n.dim}: {n.signal} {n.kind} {n.stated} bounds nothing: {printable(n.note)}", markup=False)
    for t in card.tags.values():
        on = f" ({', '.join(t.signals)})" if t.signals else ""
        con.print(printable(f"tag {t.dim}: {t.tag} [{t.clause}]{on}"), markup=False)
    for what, remarks in (("lift", card.lifts), ("request", card.requests), ("recorded", card.recorded)):
        for r in remarks:
            con.print(printable(f"{what} {r.dim}: {r.text}"), markup=False)


def _ties_text(steps: List[Dict]) -> str:
    """A labelled path: ``a -[stake 25%]-> b -[paid by: fee 200,000 USD 2025]-> lab``."""
    if not steps:
        return ""
    return steps[0]["from"] + "".join(f" -[{'; '.join(t['label'] for t in s['ties'])}]-> {s['to']}" for s in steps)


def _tie_locs(steps: List[Dict]) -> str:
    return ", ".join(t["loc"] for s in steps for t in s["ties"])


def print_hops(doc: Dict) -> None:
    con = _console(markup=False)
    node = doc["node"]
    hop = "none within 4 ties" if doc["hop"] is None else doc["hop"]
    con.print(printable(f"{node} ({doc['kind']}): hop {hop}"))
    if doc["paths"] and doc["paths"] != [[]]:
        more = f", the first {doc['limit']}" if doc["truncated"] else ""
        con.print(f"shortest tie paths to a lab ({doc['order']}{more}):")
        for steps in doc["paths"]:
            con.print(printable(f"  {_ties_text(steps)}"))
            con.print(printable(f"      at {_tie_locs(steps)}"))
    if "rows" not in doc:
        return
    if not doc["rows"]:
        con.print(f"no money rows into {node}")
        return
    t = _table(title=f"money into {node}")
    for col in ("payer", "kind", "amount", "year", "bucket", "tie path to a lab", "at"):
        _col(t, col)
    for r in doc["rows"]:
        path = _ties_text(r["ties"]) or (f"{r['payer']} (a lab)" if r["hop"] == 0 else "")
        t.add_row(r["payer"], r["kind"], amount_text(r["amount"], r["currency"]),
                  "" if r["year"] is None else str(r["year"]), r["bucket"], printable(path), printable(r["loc"]))
    con.print(t)


def hops_dot(doc: Dict) -> str:
    """One DOT digraph: every node of the paths (and the payers of an org's money rows), one edge
    per tie statement, labelled with it and its file:line; money into the org dashed."""
    nodes = {doc["node"]: None}  # insertion order: the start first
    edges: Dict[Tuple[str, str, str], None] = {}

    def add(steps):
        for s in steps:
            nodes[s["from"]] = nodes[s["to"]] = None
            for t in s["ties"]:
                edges[(s["from"], s["to"], f"{t['label']}\n{t['loc']}")] = None

    for steps in doc["paths"]:
        add(steps)
    for r in doc.get("rows", []):
        nodes[r["payer"]] = None
        pays = f"pays {r['kind']} {amount_text(r['amount'], r['currency'])} (hop {r['bucket']})\n{r['loc']}"
        edges[(r["payer"], doc["node"], pays)] = None
        add(r["ties"])
    out = ["digraph hops {", '  rankdir=LR; node [fontname="Helvetica", fontsize=10];']
    out += [f"  {json.dumps(n)}" + (" [shape=doublecircle];" if n == doc["node"] else ";") for n in nodes]
    out += [f"  {json.dumps(a)} -> {json.dumps(b)} [label={json.dumps(label)}"
            + (', style="dashed"];' if label.startswith("pays ") else "];") for a, b, label in edges]
    out.append("}")
    return "\n".join(out)


def _cols():
    return BUCKETS + (IN_KIND,)


def print_matrix(m, year: Optional[int] = None) -> None:
    con = _console(markup=False)
    t = _table(title="money matrix (rows / amount per currency)" + (f", {year}" if year is not None else ", every year"))
    _col(t, "org")
    for b in _cols():
        _col(t, f"hop {b}" if b not in ("none", IN_KIND) else b, justify="right")
    for org, cells in m.items():
        t.add_row(org, *(cell_text(cells[b]) for b in _cols()))
    con.print(t)


def matrix_csv(m) -> Tuple[List[str], List[List]]:
    """One row per org, bucket and currency: count, amount, undisclosed rows (empty cells left out)."""
    rows = []
    for org, cells in m.items():
        for b in _cols():
            c = cells[b]
            if not c["count"]:
                continue
            sums = list(c["amounts"].items()) or [("", "")]
            for i, (cur, amount) in enumerate(sums):
                rows.append([org, b, c["count"] if i == 0 else "", "" if cur == UNSTATED else cur, amount,
                             c["undisclosed"] if i == 0 else ""])
    return ["org", "bucket", "count", "currency", "amount", "undisclosed"], rows
