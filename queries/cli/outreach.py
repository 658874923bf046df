"""The publication cycle's commands (docs/outreach.md): ``outreach`` writes the letters sent before
publication, ``candidates`` lists who was checked for inclusion and why."""
from __future__ import annotations

import os
from typing import Optional

import click

from .options import AS_OF, _dump, _guard, _load, echo, output


@click.command()
@click.argument("world")
@click.argument("out", type=click.Path())
@click.option("--people", is_flag=True, help="Also a letter to each named person (RULES section 12).")
@click.option("--only", "only", multiple=True, metavar="ID", help="Only this org or person (repeatable).")
@click.option("--since", "since", default=None, metavar="REV",
              help="Only the subjects whose letter moved since this revision (read as provlog diff reads a side).")
@click.option("--from", "sender", default=None, metavar="ADDRESS", help="The drafts' From: (default: an .invalid address).")
@AS_OF
@_guard
def outreach(world: str, out: str, people: bool, only, since: Optional[str], sender: Optional[str],
             as_of: Optional[str]) -> None:
    """A letter per org (and person, with --people) in OUT: Markdown, JSON and a .eml draft (never sent).

    Each carries the card, the evidence of each value, every open question as a request for a
    document, and the reply-by date; it prints each letter's digest for the contact's letter=.
    """
    from ..diff import side
    from ..mail import SENDER
    from ..outreach import chosen, write

    w = _load(world, as_of=as_of)
    before = _load(side(since, world), as_of=as_of) if since is not None else None
    todo = chosen(w, people, only or None, before)
    write(todo, out, sender or SENDER)
    for l in todo:
        echo(f"{l['subject']}  reply-by {l['dates']['reply_by']}  letter={l['digest']}")
    echo(f"provlog: wrote {len(todo)} letter{'s' if len(todo) != 1 else ''} to {out} (.md, .json, .eml; nothing "
         f"was sent)", err=True)


@click.command()
@click.argument("world")
@output("text", "json")
@AS_OF
@_guard
def candidates(world: str, fmt: str, as_of: Optional[str]) -> None:
    """Each candidate checked for inclusion (RULES section 11): criterion, recorded and derived result, source.

    Out-of-scope candidates are listed apart and in no count. A recorded result that section 11 does
    not give at the as-of date is marked (check warns of it, W131).
    """
    from ..candidates import candidates as rows, counts

    w = _load(world, as_of=as_of)
    got, n = rows(w), counts(w)
    if fmt == "json":
        _dump({"as_of": w.as_of, "candidates": got, "counts": n})
        return
    for c in got:
        mark = "" if c["agrees"] else f"  (recorded {c['result']}; W131)"
        dated = f", {c['cited_date']}" if c["cited_date"] else ""
        echo(f"{c['id']}  {c['derived']}  {c['criterion']}  cited {c['cited']}{dated}  checked {c['checked']}{mark}")
    echo(f"{n['checked']} checked in scope at {w.as_of}: {n['included']} included, {n['excluded']} excluded"
         + (f"; {n['out_of_scope']} out of scope, not counted" if n["out_of_scope"] else ""))
