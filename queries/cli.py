"""The provlog command line (README "Use"; JSON shapes in docs/json.md). It holds no logic:
every answer comes from the query API.

Exit codes: 0 ok; 1 a check failed (load errors, verify, test); 2 usage
(unknown org, dimension, policy or preset; a malformed query).
"""
from __future__ import annotations

import datetime
import json
import sys
from typing import List, Optional

import click

from ..facts import LoadError
from ..facts.schema import POLICY_NAMES
from ..errors import ProvlogError
from .api import DEFAULT_POLICY, World

POLICY = click.option("--policy", "policy", default=DEFAULT_POLICY, show_default=True, metavar="P",
                      help="Evidence policy: " + ", ".join(POLICY_NAMES))
JSON = click.option("--json", "as_json", is_flag=True, help="Print JSON (shapes: docs/json.md).")


def _date(ctx, param, value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    try:
        return datetime.date.fromisoformat(value).isoformat()
    except ValueError:
        raise click.BadParameter(f"takes a date YYYY-MM-DD, got {value!r}") from None


AS_OF = click.option("--as-of", "as_of", default=None, metavar="YYYY-MM-DD", callback=_date,
                     help="Read the world at this date (result ages and freshness, ended stakes and roles); "
                          "default: the world's own as-of statement, else today.")


def _dump(obj) -> None:
    click.echo(json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False))


def _fail(msg: str, code: int) -> None:
    click.echo(f"provlog: {msg}", err=True)
    sys.exit(code)


def _load(world: str, strict: bool = False, as_of: Optional[str] = None) -> World:
    try:
        return World.load(world, strict=strict, as_of=as_of, freeze=True)  # the process ends with the command
    except LoadError as e:
        click.echo(e.render(), err=True)
        n = len(e.diagnostics)
        _fail(f"{n} error{'s' if n != 1 else ''}; the world was not loaded", 1)
    raise AssertionError  # unreachable


def _guard(fn):
    """Turn what a user got wrong (a ProvlogError: an unknown name, a malformed goal) into one line
    and its exit code, never a traceback."""
    import functools

    @functools.wraps(fn)
    def run(*a, **kw):
        try:
            return fn(*a, **kw)
        except ProvlogError as e:
            _fail(str(e), e.exit_code)

    return run


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="provlog")
def main() -> None:
    """provlog: Datalog provenance reasoning over the independence RULES.

    WORLD is a .facts file or a folder of them.
    """


@main.command()
@click.argument("world")
@click.option("--strict", is_flag=True, help="Refuse lane=pending sources, results and catalog sources.")
def check(world: str, strict: bool) -> None:
    """Parse and validate WORLD; print every error, or ok and then any warnings."""
    w = _load(world, strict)
    click.echo(f"ok: {len(w.facts)} statements in {len(w.facts.files)} file(s), {len(w.orgs)} orgs")
    for line in w.legacy_lanes():
        click.echo(f"note: {line}")
    for d in w.warnings():  # not errors: the world loaded and check exits 0
        click.echo(f"{d.file}:{d.line}:{d.col}: warning: {d.message} [{d.code}]")


@main.command()
@click.argument("world")
@click.argument("org")
@click.argument("dim")
@POLICY
@JSON
@AS_OF
@_guard
def value(world: str, org: str, dim: str, policy: str, as_json: bool, as_of: Optional[str]) -> None:
    """The derived value of ORG on DIM."""
    w = _load(world, as_of=as_of)
    v = w.value(org, dim, policy)
    if as_json:
        _dump(dict(v.to_json(), fingerprint=w.fingerprint()))
        return
    decided = f"{v.signal} ({v.rule})" if v.signal else (f"resolution ({v.rule})" if v.rule else "no admissible signal")
    click.echo(f"{org} {dim} = {v} under {policy}: {decided}")
    if v.conflict:
        click.echo(f"  conflict: floor {v.floor} > cap {v.cap}" + (" (resolved)" if v.resolved else " (unresolved)"))
    for c in v.clamps:
        click.echo(f"  clamp: {c.signal} {c.kind} {c.stated} -> {c.effective} held by {', '.join(c.clauses)}")


@main.command()
@click.argument("world")
@click.argument("org")
@POLICY
@click.option("--preset", default=None, metavar="ID", help="Weights preset for the weighted number.")
@JSON
@AS_OF
@_guard
def card(world: str, org: str, policy: str, preset: Optional[str], as_json: bool, as_of: Optional[str]) -> None:
    """All eight values of ORG, its band, role, conflicts and held clamps."""
    w = _load(world, as_of=as_of)
    c = w.card(org, policy, preset)
    if as_json:
        _dump(dict(c.to_json(), fingerprint=w.fingerprint()))
        return
    from .render import print_card

    print_card(w, c)


@main.command()
@click.argument("world")
@AS_OF
def verify(world: str, as_of: Optional[str]) -> None:
    """Stored assessments and roles against their derivation (leads-included); unresolved conflicts."""
    w = _load(world, as_of=as_of)
    problems = w.verify()
    for p in problems:
        click.echo(p)
    fp = w.fingerprint()
    click.echo(f"fingerprint: facts {fp['facts']} rules {fp['rules']}")
    n = len(w.facts.of("assessment"))
    if problems:
        _fail(f"verify failed: {len(problems)} problem(s)", 1)
    click.echo(f"ok: {n} stored assessment(s) agree with their derivation; no unresolved conflict")


@main.command()
@click.argument("worlds", nargs=-1, required=True)
@AS_OF
def test(worlds: List[str], as_of: Optional[str]) -> None:
    """Run the expect statements of each WORLD."""
    failed = total = 0
    for world in worlds:
        w = _load(world, as_of=as_of)
        for r in w.check_expects():
            total += 1
            if not r.ok:
                failed += 1
                click.echo(f"{r.loc}: FAIL {r.text}: got {r.got}")
    click.echo(f"{total - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


GOAL = click.option("--goal", default=None, metavar="GOAL",
                    help="Explain a goal of any rulebook instead of a value, e.g. \"finding('r1', A, C, K)\".")
RULEBOOK = click.option("--rulebook", default=None, metavar="NAME",
                        help="A rulebook other than the independence RULES (e.g. advice, pilot).")


def _org_dim(org: Optional[str], dim: Optional[str], goal: Optional[str], what: str) -> None:
    if goal is None and (org is None or dim is None):
        _fail(f"{what} needs ORG DIM, or --goal GOAL", 2)
    if goal is not None and org is not None:
        _fail(f"{what} takes ORG DIM or --goal, not both", 2)


@main.command()
@click.argument("world")
@click.argument("org", required=False)
@click.argument("dim", required=False)
@POLICY
@GOAL
@RULEBOOK
@click.option("--format", "fmt", type=click.Choice(["text", "json", "dot"]), default="text", show_default=True)
@click.option("--depth", type=int, default=None, help="Cut the text tree below this depth.")
@click.option("--from", "start", type=int, default=None, metavar="N", help="Print the sub-proof at handle #N.")
@AS_OF
@_guard
def why(world: str, org: Optional[str], dim: Optional[str], policy: str, goal: Optional[str], rulebook: Optional[str],
        fmt: str, depth: Optional[int], start: Optional[int], as_of: Optional[str]) -> None:
    """The proof of ORG's value on DIM (every bound, the one that fired, each clamp),
    or with --goal, the proof of a goal of any rulebook."""
    _org_dim(org, dim, goal, "why")
    if goal is not None:
        click.echo(_load(world, as_of=as_of).prove(goal, rulebook, fmt))
        return
    w = _load(world, as_of=as_of)
    try:
        click.echo(w.why(org, dim, policy, fmt=fmt, depth=depth, start=start))
    except KeyError as e:
        _fail(str(e.args[0]), 2)


@main.command()
@click.argument("world")
@JSON
def fingerprint(world: str, as_json: bool) -> None:
    """SHA-256 of WORLD's canonical facts and of the rules: what a published number rests on."""
    w = _load(world)
    fp = w.fingerprint()
    if as_json:
        _dump(fp)
        return
    click.echo(f"facts {fp['facts']}\nrules {fp['rules']}")


@main.command(name="why-not")
@click.argument("world")
@click.argument("org", required=False)
@click.argument("dim", required=False)
@click.argument("n", type=click.IntRange(0, 4), required=False)
@POLICY
@GOAL
@RULEBOOK
@JSON
@AS_OF
@click.pass_context
@_guard
def why_not(ctx, world: str, org: Optional[str], dim: Optional[str], n: Optional[int], policy: str,
            goal: Optional[str], rulebook: Optional[str], as_json: bool, as_of: Optional[str]) -> None:
    """What stops ORG's value on DIM from being N: for each way, the first failing condition.
    With --goal, why a goal of any rulebook does not hold (as `refute`)."""
    _org_dim(org, dim, goal, "why-not")
    if goal is not None:
        ctx.invoke(refute, world=world, goal=goal, rulebook=rulebook, as_json=as_json, as_of=as_of)
        return
    if n is None:
        _fail("why-not needs ORG DIM N, or --goal GOAL", 2)
    w = _load(world, as_of=as_of)
    v = w.value(org, dim, policy)
    ways = w.why_not(org, dim, n, policy)
    if as_json:
        _dump({"org": org, "dim": dim, "policy": policy, "value": v.value, "target": n, "ways": ways})
        return
    if not ways:
        click.echo(f"{org} {dim} is {n} under {policy}")
        return
    click.echo(f"{org} {dim} = {v} under {policy}, not {n}:")
    for wy in ways:
        click.echo(f"  {wy['way']}: {wy['fails']}")


@main.command()
@click.argument("world")
@click.argument("goal")
@RULEBOOK
@click.option("--format", "fmt", type=click.Choice(["text", "json", "dot"]), default="text", show_default=True)
@AS_OF
@_guard
def prove(world: str, goal: str, rulebook: Optional[str], fmt: str, as_of: Optional[str]) -> None:
    """The proof of each answer of GOAL (one atom) in any rulebook."""
    w = _load(world, as_of=as_of)
    click.echo(w.prove(goal, rulebook, fmt))


@main.command()
@click.argument("world")
@click.argument("goal")
@RULEBOOK
@JSON
@AS_OF
@_guard
def refute(world: str, goal: str, rulebook: Optional[str], as_json: bool, as_of: Optional[str]) -> None:
    """Why GOAL (one atom; a variable means any value) does not hold: per rule, what holds, the first
    condition that fails, and why that condition fails in turn."""
    w = _load(world, as_of=as_of)
    ways = w.refute(goal, rulebook)
    if as_json:
        _dump({"goal": goal, "rulebook": rulebook, "holds": not ways, "rules": ways})
        return
    if not ways:
        click.echo(f"{goal} holds")
        return
    from ..explain.goals import render

    for line in render(ways):  # per rule the failing condition, what held, and (indented) why it fails
        click.echo(line)


@main.command()
@click.argument("world")
@click.argument("goal")
@RULEBOOK
@JSON
@AS_OF
@_guard
def query(world: str, goal: str, rulebook: Optional[str], as_json: bool, as_of: Optional[str]) -> None:
    """Answer a Datalog GOAL over facts and derived relations.

    Example: provlog query WORLD "value(O, 'F', 'standard', X, S, R) & (X < 2)"
    """
    w = _load(world, as_of=as_of)
    rows = w.query(goal, rulebook)
    for note in w.goal_notes(goal, rulebook):
        click.echo(f"provlog: note: {note}", err=True)
    if as_json:
        _dump({"goal": goal, "answers": rows})
        return
    if rows == [{}]:
        click.echo("yes")
    elif not rows:
        click.echo("no")
    for row in rows:
        if row:
            click.echo("  ".join(f"{k}={v}" for k, v in row.items()))


@main.command()
@click.argument("world")
@click.argument("org")
@JSON
@AS_OF
@_guard
def hops(world: str, org: str, as_json: bool, as_of: Optional[str]) -> None:
    """Each money row into ORG with its hop bucket and tie path to a lab."""
    w = _load(world, as_of=as_of)
    rows = w.hops(org)
    if as_json:
        _dump({"org": org, "rows": [r.to_json() for r in rows]})
        return
    from .render import print_hops

    print_hops(org, rows)


@main.command()
@click.argument("world")
@JSON
@AS_OF
@_guard
def matrix(world: str, as_json: bool, as_of: Optional[str]) -> None:
    """The money matrix: orgs x hop buckets, plus the in-kind ledger."""
    w = _load(world, as_of=as_of)
    m = w.matrix()
    if as_json:
        _dump({"orgs": m})
        return
    from .render import print_matrix

    print_matrix(m)


@main.command()
@click.argument("world")
@click.argument("org", required=False)
@AS_OF
@JSON
@_guard
def results(world: str, org: Optional[str], as_of: Optional[str], as_json: bool) -> None:
    """Each benchmark result (of ORG): lane and catalog source, schema-valid vs scoring-valid, magnitude,
    capped, fresh and weighted contribution, and the M floor it derives."""
    from .results import parameters_json, print_results

    w = _load(world, as_of=as_of)
    rows = w.results(org)
    if as_json:
        _dump({"org": org, "as_of": w.as_of, "as_of_origin": w.as_of_origin, "parameters": parameters_json(),
               "results": [r.to_json() for r in rows]})
        return
    from .results import print_results

    print_results(w.as_of, w.as_of_origin, rows, click.echo)


@main.command()
@click.argument("clause", required=False)
@RULEBOOK
@JSON
@_guard
def rules(clause: Optional[str], rulebook: Optional[str], as_json: bool) -> None:
    """Each clause id with provlog's one-line statement of it; with CLAUSE, that clause and the rules that
    implement it (the line the explainer shows, and the Datalog text). Reference: docs/clauses.md."""
    from .reference import clauses

    found = clauses(rulebook, clause)
    if as_json:
        _dump({"rulebook": rulebook or "independence", "clauses": [c.to_json() for c in found]})
        return
    for c in found:
        click.echo(f"{c.id}: {c.statement}")
        if clause is None:
            continue
        for r in c.rules:
            click.echo(f"  {r.template or '(a step with no display line)'}\n      {r.text}")
        if not c.rules:
            click.echo("  (no rule derives it: recorded signals cite it with rule=)")


@main.command()
@RULEBOOK
@JSON
@_guard
def relations(rulebook: Optional[str], as_json: bool) -> None:
    """Every relation a goal may name, as name/arity, with what it means: facts first, then what the
    rules derive (and the clauses that derive it). Reference: docs/relations.md."""
    from .reference import relations as listing

    found = listing(rulebook)
    if as_json:
        _dump({"rulebook": rulebook or "independence", "relations": [r.to_json() for r in found]})
        return
    for derived, title in ((False, "facts"), (True, "derived")):
        click.echo(f"{title}:")
        for r in (r for r in found if r.derived == derived):
            by = f" [{', '.join(r.clauses)}]" if r.clauses else ""
            click.echo(f"  {r.name}/{r.arity}  {r.signature}: {r.meaning}{by}")


@main.group(name="import")
def import_() -> None:
    """Write a world's `.facts` from an ownership or money register (docs/import.md).

    Every statement cites a source naming the register's record and the
    file:line of its JSON; what is not mapped is counted in the report.
    Nothing is written unless the whole import loads.
    """


def _import_options(fn):
    fn = click.option("--skip-bad", is_flag=True, help="Leave out records that fail validation (listed in the report).")(fn)
    fn = click.option("--world", "world", type=click.Path(exists=True), default=None,
                      help="The world the import joins: its names keep their ids; checked together.")(fn)
    fn = click.option("--out", "out", required=True, type=click.Path(), help="The folder of .facts files to write.")(fn)
    fn = JSON(fn)
    return fn


def _run_import(run, *args, as_json: bool, **kw) -> None:
    from ..importers import ImportFailure

    try:
        report = run(*args, **kw)
    except ImportFailure as e:
        click.echo(e.render(), err=True)
        _fail(str(e), 1)
    if as_json:
        _dump(report.to_json())
    else:
        click.echo(report.render())


@import_.command(name="bods")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@_import_options
@click.option("--within", type=click.IntRange(0, 20), default=None, metavar="N",
              help="Keep only records within N relationship links of the world's names (JSON Lines, via DuckDB).")
def import_bods_cmd(paths, out, world, skip_bad, as_json, within) -> None:
    """BODS 0.4 statements (a JSON array per .json file, or JSON Lines) into OUT."""
    from ..importers import import_bods

    _run_import(import_bods, list(paths), out, world=world, within=within, skip_bad=skip_bad, as_json=as_json)


@import_.command(name="ftm")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@_import_options
def import_ftm_cmd(paths, out, world, skip_bad, as_json) -> None:
    """FollowTheMoney entities (JSON Lines, or a JSON array) into OUT."""
    from ..importers import import_ftm

    _run_import(import_ftm, list(paths), out, world=world, skip_bad=skip_bad, as_json=as_json)


@main.command()
@click.argument("world")
@click.option("--port", default=8470, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind; the default serves this machine only (say 0.0.0.0 to serve others).")
@POLICY
@AS_OF
def serve(world: str, port: int, host: str, policy: str, as_of: Optional[str]) -> None:
    """A local, read-only web explorer of WORLD: cards, proofs, tie graphs (docs/web.md).

    Needs the web extra: pip install 'provlog[web]'.
    """
    try:
        from .web import create_app
    except ImportError:
        _fail("provlog serve needs Flask: pip install 'provlog[web]'", 2)
    try:
        app = create_app(world, policy, as_of=as_of)
    except UnknownName as e:
        _fail(str(e), 2)
    click.echo(f"provlog: serving {world} on http://{host}:{port}/ (read-only; Ctrl-C stops)", err=True)
    app.run(host=host, port=port, debug=False, use_reloader=False)
