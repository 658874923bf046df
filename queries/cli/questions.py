"""The commands that ask a world a question: ``value``, ``card``, ``why``, ``why-not``, ``prove``,
``refute``, ``query``, ``hops``, ``matrix``, ``results``. Each loads the world and prints what the
query API (queries/api.py) answers."""
from __future__ import annotations

from typing import Optional

import click

from .options import (echo, AS_OF, GOAL, POLICY, RULEBOOK, _csv, _dump, _fail, _guard, _load, _org_dim,
                      output, proof_cut)


@click.command()
@click.argument("world")
@click.argument("org")
@click.argument("dim")
@POLICY
@output("text", "json")
@AS_OF
@_guard
def value(world: str, org: str, dim: str, policy: str, fmt: str, as_of: Optional[str]) -> None:
    """The derived value of ORG on DIM."""
    w = _load(world, as_of=as_of)
    v = w.value(org, dim, policy)
    if fmt == "json":
        _dump(dict(v.to_json(), fingerprint=w.fingerprint()))
        return
    decided = f"{v.signal} ({v.rule})" if v.signal else (f"resolution ({v.rule})" if v.rule else "no admissible signal")
    echo(f"{org} {dim} = {v} under {policy}: {decided}")
    if v.conflict:
        echo(f"  conflict: floor {v.floor} > cap {v.cap}" + (" (resolved)" if v.resolved else " (unresolved)"))
    for c in v.clamps:
        echo(f"  clamp: {c.signal} {c.kind} {c.stated} -> {c.effective} held by {', '.join(c.clauses)}")


@click.command()
@click.argument("world")
@click.argument("org")
@POLICY
@click.option("--preset", default=None, metavar="ID", help="Weights preset for the weighted number.")
@output("text", "json", "csv")
@AS_OF
@_guard
def card(world: str, org: str, policy: str, preset: Optional[str], fmt: str, as_of: Optional[str]) -> None:
    """All eight values of ORG, its band, role, conflicts and held clamps."""
    w = _load(world, as_of=as_of)
    c = w.card(org, policy, preset)
    if fmt == "json":
        _dump(dict(c.to_json(), fingerprint=w.fingerprint()))
        return
    if fmt == "csv":  # one row per dimension: what the text card's table shows
        _csv(["org", "policy", "dim", "value", "signal", "rule"],
             [[c.org, c.policy, d, "" if v is None else v, *(x or "" for x in c.deciders.get(d, (None, None)))]
              for d, v in c.values.items()])
        return
    from ..render import print_card

    print_card(w, c)


@click.command()
@click.argument("world")
@click.argument("org", required=False)
@click.argument("dim", required=False)
@POLICY
@GOAL
@RULEBOOK
@output("text", "json", "dot")
@proof_cut
@AS_OF
@_guard
def why(world: str, org: Optional[str], dim: Optional[str], policy: str, goal: Optional[str], rulebook: Optional[str],
        fmt: str, depth: Optional[int], start: Optional[int], as_of: Optional[str]) -> None:
    """The proof of ORG's value on DIM (every bound, the one that fired, each clamp),
    or with --goal, the proof of a goal of any rulebook."""
    _org_dim(org, dim, goal, "why")
    w = _load(world, as_of=as_of)
    try:
        if goal is not None:
            echo(w.prove(goal, rulebook, fmt, depth=depth, start=start))
            return
        echo(w.why(org, dim, policy, fmt=fmt, depth=depth, start=start))
    except KeyError as e:
        _fail(str(e.args[0]), 2)


@click.command(name="why-not")
@click.argument("world")
@click.argument("org", required=False)
@click.argument("dim", required=False)
@click.argument("n", type=click.IntRange(0, 4), required=False)
@POLICY
@GOAL
@RULEBOOK
@output("text", "json")
@AS_OF
@click.pass_context
@_guard
def why_not(ctx, world: str, org: Optional[str], dim: Optional[str], n: Optional[int], policy: str,
            goal: Optional[str], rulebook: Optional[str], fmt: str, as_of: Optional[str]) -> None:
    """What stops ORG's value on DIM from being N: for each way, what blocks it (with its clause),
    the facts involved, and what would lift it. With --goal, why a goal of any rulebook does not
    hold (as `refute`; JSON in why-not's one shape)."""
    from ...explain.why import render_why_not, why_not_goal  # networkx: only for proofs

    _org_dim(org, dim, goal, "why-not")
    if goal is not None:
        if fmt == "json":  # the one why-not shape (docs/json.md); the text is refute's
            _dump(why_not_goal(goal, rulebook, _load(world, as_of=as_of).refute(goal, rulebook)))
            return
        ctx.invoke(refute, world=world, goal=goal, rulebook=rulebook, fmt="text", as_of=as_of)
        return
    if n is None:
        _fail("why-not needs ORG DIM N, or --goal GOAL", 2)
    w = _load(world, as_of=as_of)
    doc = w.why_not(org, dim, n, policy)
    if fmt == "json":
        _dump(doc)
        return
    for line in render_why_not(doc):
        echo(line)


@click.command()
@click.argument("world")
@click.argument("goal")
@RULEBOOK
@output("text", "json", "dot")
@proof_cut
@AS_OF
@_guard
def prove(world: str, goal: str, rulebook: Optional[str], fmt: str, depth: Optional[int], start: Optional[int],
          as_of: Optional[str]) -> None:
    """The proof of each answer of GOAL (one atom) in any rulebook (dot: one digraph, a cluster per answer)."""
    w = _load(world, as_of=as_of)
    try:
        echo(w.prove(goal, rulebook, fmt, depth=depth, start=start))
    except KeyError as e:
        _fail(str(e.args[0]), 2)


@click.command()
@click.argument("world")
@click.argument("goal")
@RULEBOOK
@output("text", "json")
@AS_OF
@_guard
def refute(world: str, goal: str, rulebook: Optional[str], fmt: str, as_of: Optional[str]) -> None:
    """Why GOAL (one atom; a variable means any value) does not hold: per rule, what holds, the first
    condition that fails, and why that condition fails in turn."""
    w = _load(world, as_of=as_of)
    ways = w.refute(goal, rulebook)
    if fmt == "json":
        _dump({"goal": goal, "rulebook": rulebook, "holds": not ways, "rules": ways})
        return
    if not ways:
        echo(f"{goal} holds")
        return
    from ...explain.goals import render

    for line in render(ways):  # per rule the failing condition, what held, and (indented) why it fails
        echo(line)


@click.command()
@click.argument("world")
@click.argument("goal")
@RULEBOOK
@output("text", "json", "csv")
@AS_OF
@_guard
def query(world: str, goal: str, rulebook: Optional[str], fmt: str, as_of: Optional[str]) -> None:
    """Answer a Datalog GOAL over facts and derived relations.

    Example: provlog query WORLD "value(O, 'F', 'standard', X, S, R) & (X < 2)"
    """
    w = _load(world, as_of=as_of)
    rows = w.query(goal, rulebook)
    for note in w.goal_notes(goal, rulebook):
        echo(f"provlog: note: {note}", err=True)
    if fmt == "json":
        _dump({"goal": goal, "answers": rows})
        return
    if fmt == "csv":  # one column per variable of the goal; a ground goal has none
        names = list(rows[0]) if rows else []
        _csv(names, [[r[k] for k in names] for r in rows])
        return
    if rows == [{}]:
        echo("yes")
    elif not rows:
        echo("no")
    for row in rows:
        if row:
            echo("  ".join(f"{k}={v}" for k, v in row.items()))


@click.command()
@click.argument("world")
@click.argument("node", metavar="NODE")
@click.option("--limit", type=click.IntRange(1), default=10, show_default=True,
              help="At most this many shortest paths (lexicographic by node ids).")
@output("text", "json", "dot")
@AS_OF
@_guard
def hops(world: str, node: str, limit: int, fmt: str, as_of: Optional[str]) -> None:
    """Every shortest tie path from NODE (a lab, org, entity or person) to a lab, each tie labelled
    with its statement; for an org, also each money row into it with the payer's hop bucket."""
    from ..render import hops_dot, print_hops

    doc = _load(world, as_of=as_of).hop_report(node, limit)
    if fmt == "json":
        _dump(doc)
    elif fmt == "dot":
        echo(hops_dot(doc))
    else:
        print_hops(doc)


@click.command()
@click.argument("world")
@click.option("--year", type=int, default=None, metavar="Y", help="Only money rows of year Y (default: every year).")
@output("text", "json", "csv")
@AS_OF
@_guard
def matrix(world: str, year: Optional[int], fmt: str, as_of: Optional[str]) -> None:
    """The money matrix: orgs x hop buckets, plus the in-kind ledger; amounts per currency,
    undisclosed amounts counted as undisclosed."""
    from ..render import matrix_csv, print_matrix

    w = _load(world, as_of=as_of)
    m = w.matrix(year)
    if fmt == "json":
        _dump({"year": year, "orgs": m})
    elif fmt == "csv":
        _csv(*matrix_csv(m))
    else:
        print_matrix(m, year)


@click.command()
@click.argument("world")
@click.argument("org", required=False)
@AS_OF
@output("text", "json")
@_guard
def results(world: str, org: Optional[str], as_of: Optional[str], fmt: str) -> None:
    """Each benchmark result (of ORG): lane and catalog source, schema-valid vs scoring-valid, magnitude,
    capped, fresh and weighted contribution, and the M floor it derives."""
    from ..results import parameters_json, print_results

    w = _load(world, as_of=as_of)
    rows = w.results(org)
    if fmt == "json":
        _dump({"org": org, "as_of": w.as_of, "as_of_origin": w.as_of_origin, "parameters": parameters_json(),
               "results": [r.to_json() for r in rows]})
        return
    print_results(w.as_of, w.as_of_origin, rows, echo)
