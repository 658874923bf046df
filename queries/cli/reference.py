"""The reference commands, which need no world: ``rules`` (the clauses and the rules that implement
them) and ``relations`` (every relation a goal may name)."""
from __future__ import annotations

from typing import Optional

import click

from .options import echo, RULEBOOK, _dump, _guard, output


@click.command()
@click.argument("clause", required=False)
@RULEBOOK
@output("text", "json")
@_guard
def rules(clause: Optional[str], rulebook: Optional[str], fmt: str) -> None:
    """Each clause id with provlog's one-line statement of it; with CLAUSE, that clause and the rules that
    implement it (the line the explainer shows, and the Datalog text); under each, the bounds it gives a
    signal (what `check` reads a signal's bound against, W120). Reference: docs/clauses.md."""
    from ..reference import clauses

    found = clauses(rulebook, clause)
    if fmt == "json":
        _dump({"rulebook": rulebook or "independence", "clauses": [c.to_json() for c in found]})
        return
    for c in found:
        echo(f"{c.id}: {c.statement}")
        if c.gives:
            echo(f"    gives: {c.gives}")
        if c.needs:
            echo(f"    a floor is checked against: {c.needs} (W121)")
        if clause is None:
            continue
        for r in c.rules:
            echo(f"  {r.template or '(a step with no display line)'}\n      {r.text}")
        if not c.rules:
            echo("  (no rule derives it: recorded signals cite it with rule=)")


@click.command()
@RULEBOOK
@output("text", "json")
@_guard
def relations(rulebook: Optional[str], fmt: str) -> None:
    """Every relation a goal may name, as name/arity, with what it means: facts first, then what the
    rules derive (and the clauses that derive it). Reference: docs/relations.md."""
    from ..reference import relations as listing

    found = listing(rulebook)
    if fmt == "json":
        _dump({"rulebook": rulebook or "independence", "relations": [r.to_json() for r in found]})
        return
    for derived, title in ((False, "facts"), (True, "derived")):
        echo(f"{title}:")
        for r in (r for r in found if r.derived == derived):
            by = f" [{', '.join(r.clauses)}]" if r.clauses else ""
            echo(f"  {r.name}/{r.arity}  {r.signature}: {r.meaning}{by}")
