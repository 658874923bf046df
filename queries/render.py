"""Terminal rendering (rich) of cards, hop rows and the money matrix."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..facts import DIMS

NAMES = {"F": "funding", "G": "governance", "P": "personnel", "A": "access", "S": "scope",
         "R": "publication", "M": "methods", "X": "role incompatibility"}


def _console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def print_card(world, card) -> None:
    con = _console()
    name = world.facts.nodes[card.org]["name"]
    con.print(f"[bold]{name}[/] ({card.org})  policy={card.policy}  band=[bold]{card.band}[/]  role={card.role}")
    t = Table(show_header=True, header_style="bold")
    for col in ("dim", "", "value", "decided by"):
        t.add_column(col)
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


def print_hops(org, rows) -> None:
    con = _console()
    if not rows:
        con.print(f"no money rows into {org}")
        return
    t = Table(title=f"money into {org}", header_style="bold")
    for col in ("payer", "kind", "bucket", "tie path to a lab", "at"):
        t.add_column(col)
    for r in rows:
        t.add_row(r.payer, r.kind, r.bucket, " -> ".join(r.path) if r.path else "", r.loc)
    con.print(t)


def print_matrix(m) -> None:
    from .money import BUCKETS, IN_KIND  # networkx: only for money

    con = _console()
    t = Table(title="money matrix (count / amount)", header_style="bold")
    t.add_column("org")
    cols = BUCKETS + (IN_KIND,)
    for b in cols:
        t.add_column(f"hop {b}" if b not in ("none", IN_KIND) else b, justify="right")
    for org, cells in m.items():
        t.add_row(org, *(f"{cells[b]['count']} / {cells[b]['amount']:,}" if cells[b]["count"] else "" for b in cols))
    con.print(t)
