"""The provlog command line (README "Use"; JSON shapes in docs/json.md). It holds no logic:
every answer comes from the query API.

Exit codes: 0 ok; 1 a check failed (load errors, verify, test); 2 usage
(unknown org, dimension, policy or preset; a malformed query).
"""
from __future__ import annotations

import datetime
import functools
import json
import os
import sys
from typing import List, Optional

import click

from ..facts import LoadError
from ..facts.schema import POLICY_NAMES
from ..errors import ProvlogError
from .api import DEFAULT_POLICY, World

POLICY = click.option("--policy", "policy", default=DEFAULT_POLICY, show_default=True, metavar="P",
                      help="Evidence policy: " + ", ".join(POLICY_NAMES))


def output(*formats: str):
    """``--format`` with the formats a command has (text first), and ``--json`` as an alias of
    ``--format json``: the one output scheme of every command (docs/json.md has the shapes)."""
    def deco(fn):
        @functools.wraps(fn)
        def run(*a, as_json: bool = False, **kw):
            if as_json:
                kw["fmt"] = "json"
            return fn(*a, **kw)

        run = click.option("--json", "as_json", is_flag=True, help="Same as --format json.")(run)
        return click.option("--format", "fmt", type=click.Choice(formats), default=formats[0], show_default=True,
                            help="Output format (JSON shapes: docs/json.md).")(run)
    return deco


def _csv(header: List[str], rows) -> None:
    import csv
    import io

    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(header)
    out.writerows(rows)
    click.echo(buf.getvalue(), nl=False)


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


#: where the command's world is stored (the group's --store / --no-store / PROVLOG_STORE)
_STORE: dict = {"store": True}


def _load(world: str, strict: bool = False, as_of: Optional[str] = None) -> World:
    from .progress import stratum_progress

    try:
        w = World.load(world, strict=strict, as_of=as_of, freeze=True,  # the process ends with the command
                       store=_store_for(world), progress=stratum_progress(sys.stderr))
        ctx = click.get_current_context(silent=True)
        if ctx is not None:  # a first derivation is stored once the command has printed its answer
            w.store_after_answer = True
            ctx.call_on_close(lambda: (sys.stdout.flush(), w.store_now()))
        return w
    except LoadError as e:
        click.echo(e.render(), err=True)
        n = len(e.diagnostics)
        _fail(f"{n} error{'s' if n != 1 else ''}; the world was not loaded", 1)
    raise AssertionError  # unreachable


def _guard(fn):
    """Turn what a user got wrong (a ProvlogError: an unknown name, a malformed goal) into one line
    and its exit code, never a traceback."""
    @functools.wraps(fn)
    def run(*a, **kw):
        try:
            return fn(*a, **kw)
        except ProvlogError as e:
            _fail(str(e), e.exit_code)

    return run


class _Commands(click.Group):
    """The command group; a stored model found damaged while a command reads it (sqlite3's error)
    is reported in one line and removed, never a traceback: the next command derives again."""

    def invoke(self, ctx):
        import sqlite3

        try:
            return super().invoke(ctx)
        except sqlite3.DatabaseError as e:
            for path in World.opened_stores:
                try:
                    os.unlink(path)
                except OSError:
                    pass
            _fail(f"the stored model {', '.join(map(str, World.opened_stores))} is damaged ({e}); it is removed: "
                  f"run the command again", 1)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="provlog")
@click.option("--store", "store", default=None, metavar="PATH", envvar="PROVLOG_STORE",
              help="Keep the derived model in PATH (a .sqlite file, or a folder for one per world); "
                   "default .provlog/ in the world's folder. Env: PROVLOG_STORE.")
@click.option("--no-store", is_flag=True, help="Neither read nor write a stored model.")
def main(store: Optional[str], no_store: bool) -> None:
    """provlog: Datalog provenance reasoning over the independence RULES.

    WORLD is a .facts file or a folder of them. A world's derivation is stored
    (docs/store.md) and reused while its files, the rules and provlog are unchanged.
    """
    _STORE["store"] = False if no_store else (store or True)


def _store_for(world: str):
    """The store option for World.load: True (the default place), False, or a file."""
    store = _STORE["store"]
    if isinstance(store, str) and os.path.isdir(store):
        from ..logic.store import default_path

        return os.path.join(store, default_path(world).name)  # a folder of stores: one per world
    return store


@main.command()
@click.argument("world")
@click.option("--strict", is_flag=True, help="Refuse lane=pending sources, results and catalog sources.")
@output("text", "json")
def check(world: str, strict: bool, fmt: str) -> None:
    """Parse and validate WORLD; print every error, or ok and then any warnings."""
    if fmt == "json":
        def diag(d):
            return {"file": d.file, "line": d.line, "col": d.col, "code": d.code, "message": d.message}

        try:
            w = World.load(world, strict=strict, freeze=True)
        except LoadError as e:
            _dump({"ok": False, "errors": [diag(d) for d in e.diagnostics], "warnings": []})
            sys.exit(1)
        _dump({"ok": True, "errors": [], "warnings": [diag(d) for d in w.warnings()], "statements": len(w.facts),
               "files": len(w.facts.files), "orgs": len(w.orgs), "notes": list(w.legacy_lanes())})
        return
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
    from .render import print_card

    print_card(w, c)


@main.command()
@click.argument("world")
@AS_OF
@output("text", "json")
def verify(world: str, as_of: Optional[str], fmt: str) -> None:
    """Stored assessments and roles against their derivation (leads-included); unresolved conflicts."""
    w = _load(world, as_of=as_of)
    problems = w.verify()
    if fmt == "json":
        _dump({"ok": not problems, "problems": problems, "fingerprint": w.fingerprint(),
               "assessments": len(w.facts.of("assessment"))})
        sys.exit(1 if problems else 0)
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
@output("text", "json")
def test(worlds: List[str], as_of: Optional[str], fmt: str) -> None:
    """Run the expect statements of each WORLD."""
    failed = total = 0
    results = []
    for world in worlds:
        w = _load(world, as_of=as_of)
        for r in w.check_expects():
            total += 1
            results.append({"loc": r.loc, "expect": r.text, "ok": r.ok, "got": str(r.got)})
            if not r.ok:
                failed += 1
                if fmt == "text":
                    click.echo(f"{r.loc}: FAIL {r.text}: got {r.got}")
    if fmt == "json":
        _dump({"passed": total - failed, "failed": failed, "results": results})
    else:
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
@output("text", "json", "dot")
@click.option("--depth", type=int, default=None, help="Cut the proof below this depth (every format).")
@click.option("--from", "start", type=int, default=None, metavar="N", help="Only the sub-proof at handle #N (every format).")
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
            click.echo(w.prove(goal, rulebook, fmt, depth=depth, start=start))
            return
        click.echo(w.why(org, dim, policy, fmt=fmt, depth=depth, start=start))
    except KeyError as e:
        _fail(str(e.args[0]), 2)


@main.command()
@click.argument("world")
@click.argument("file", type=click.Path(dir_okay=False))
@AS_OF
def export(world: str, file: str, as_of: Optional[str]) -> None:
    """Write WORLD's derived model to FILE, a SQLite database (schema: docs/store.md)."""
    w = _load(world, as_of=as_of)
    try:
        w.export(file)
    except OSError as e:
        _fail(f"cannot write {file}: {e.strerror or e}", 2)
    click.echo(f"wrote {file}")


@main.command()
@click.argument("world")
@output("text", "json")
def fingerprint(world: str, fmt: str) -> None:
    """SHA-256 of WORLD's canonical facts and of the rules: what a published number rests on."""
    w = _load(world)
    fp = w.fingerprint()
    if fmt == "json":
        _dump(fp)
        return
    click.echo(f"facts {fp['facts']}\nrules {fp['rules']}")


@main.command()
@click.argument("old")
@click.argument("new", required=False)
@click.option("--without", "without", multiple=True, metavar="ID",
              help="What-if: take away a source (with its cites), a signal (with its cites) or a statement (repeatable).")
@click.option("--set", "sets", nargs=2, multiple=True, metavar="ID KEY=VALUE",
              help="What-if: set one value of a statement, e.g. --set src-x status=differs (repeatable).")
@click.option("--policy", "policy", default=None, metavar="P", help="Only this policy (default: every policy).")
@click.option("--exit-code", is_flag=True, help="Exit 1 when anything moved (as git diff --exit-code).")
@output("text", "json", "markdown")
@AS_OF
@_guard
def diff(old: str, new: Optional[str], without, sets, policy: Optional[str], exit_code: bool, fmt: str,
         as_of: Optional[str]) -> None:
    """What moves from OLD to NEW, and the statements each move rests on (docs/diff.md).

    Each side is a world path or a git revision of one: REV:path, or REV beside the other
    side's path (provlog diff HEAD~1 world). With one side and --without / --set: what that
    change, not yet written, would move.
    """
    from .diff import DiffError, compare, side, what_if

    if new is None and not (without or sets):
        raise DiffError("diff needs two sides (OLD NEW), or one world and a what-if (--without, --set)")
    a = _load(side(old, new), as_of=as_of)
    b = _load(side(new, old), as_of=as_of) if new is not None else a
    if without or sets:
        try:
            b = what_if(b, without, sets, fast=new is None)
        except LoadError as e:
            click.echo(e.render(), err=True)
            _fail("the what-if was refused; nothing was compared", 1)
    report = compare(a, b, policy)
    if fmt == "json":
        _dump(report.to_json())
    else:
        click.echo(report.to_markdown() if fmt == "markdown" else report.to_text())
    if exit_code and report.moved:
        sys.exit(1)


@main.command(name="why-not")
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
    from ..explain.why import render_why_not, why_not_goal  # networkx: only for proofs

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
        click.echo(line)


@main.command()
@click.argument("world")
@click.argument("goal")
@RULEBOOK
@output("text", "json", "dot")
@click.option("--depth", type=int, default=None, help="Cut each proof below this depth (every format).")
@click.option("--from", "start", type=int, default=None, metavar="N", help="Only the sub-proof at handle #N.")
@AS_OF
@_guard
def prove(world: str, goal: str, rulebook: Optional[str], fmt: str, depth: Optional[int], start: Optional[int],
          as_of: Optional[str]) -> None:
    """The proof of each answer of GOAL (one atom) in any rulebook (dot: one digraph, a cluster per answer)."""
    w = _load(world, as_of=as_of)
    try:
        click.echo(w.prove(goal, rulebook, fmt, depth=depth, start=start))
    except KeyError as e:
        _fail(str(e.args[0]), 2)


@main.command()
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
        click.echo(f"{goal} holds")
        return
    from ..explain.goals import render

    for line in render(ways):  # per rule the failing condition, what held, and (indented) why it fails
        click.echo(line)


@main.command()
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
        click.echo(f"provlog: note: {note}", err=True)
    if fmt == "json":
        _dump({"goal": goal, "answers": rows})
        return
    if fmt == "csv":  # one column per variable of the goal; a ground goal has none
        names = list(rows[0]) if rows else []
        _csv(names, [[r[k] for k in names] for r in rows])
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
@click.argument("node", metavar="NODE")
@click.option("--limit", type=click.IntRange(1), default=10, show_default=True,
              help="At most this many shortest paths (lexicographic by node ids).")
@output("text", "json", "dot")
@AS_OF
@_guard
def hops(world: str, node: str, limit: int, fmt: str, as_of: Optional[str]) -> None:
    """Every shortest tie path from NODE (a lab, org, entity or person) to a lab, each tie labelled
    with its statement; for an org, also each money row into it with the payer's hop bucket."""
    from .render import hops_dot, print_hops

    doc = _load(world, as_of=as_of).hop_report(node, limit)
    if fmt == "json":
        _dump(doc)
    elif fmt == "dot":
        click.echo(hops_dot(doc))
    else:
        print_hops(doc)


@main.command()
@click.argument("world")
@click.option("--year", type=int, default=None, metavar="Y", help="Only money rows of year Y (default: every year).")
@output("text", "json", "csv")
@AS_OF
@_guard
def matrix(world: str, year: Optional[int], fmt: str, as_of: Optional[str]) -> None:
    """The money matrix: orgs x hop buckets, plus the in-kind ledger; amounts per currency,
    undisclosed amounts counted as undisclosed."""
    from .render import matrix_csv, print_matrix

    w = _load(world, as_of=as_of)
    m = w.matrix(year)
    if fmt == "json":
        _dump({"year": year, "orgs": m})
    elif fmt == "csv":
        _csv(*matrix_csv(m))
    else:
        print_matrix(m, year)


@main.command()
@click.argument("world")
@click.argument("org", required=False)
@AS_OF
@output("text", "json")
@_guard
def results(world: str, org: Optional[str], as_of: Optional[str], fmt: str) -> None:
    """Each benchmark result (of ORG): lane and catalog source, schema-valid vs scoring-valid, magnitude,
    capped, fresh and weighted contribution, and the M floor it derives."""
    from .results import parameters_json, print_results

    w = _load(world, as_of=as_of)
    rows = w.results(org)
    if fmt == "json":
        _dump({"org": org, "as_of": w.as_of, "as_of_origin": w.as_of_origin, "parameters": parameters_json(),
               "results": [r.to_json() for r in rows]})
        return
    from .results import print_results

    print_results(w.as_of, w.as_of_origin, rows, click.echo)


@main.command()
@click.argument("clause", required=False)
@RULEBOOK
@output("text", "json")
@_guard
def rules(clause: Optional[str], rulebook: Optional[str], fmt: str) -> None:
    """Each clause id with provlog's one-line statement of it; with CLAUSE, that clause and the rules that
    implement it (the line the explainer shows, and the Datalog text). Reference: docs/clauses.md."""
    from .reference import clauses

    found = clauses(rulebook, clause)
    if fmt == "json":
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
@output("text", "json")
@_guard
def relations(rulebook: Optional[str], fmt: str) -> None:
    """Every relation a goal may name, as name/arity, with what it means: facts first, then what the
    rules derive (and the clauses that derive it). Reference: docs/relations.md."""
    from .reference import relations as listing

    found = listing(rulebook)
    if fmt == "json":
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
    file:line of its JSON; every record not written as stated is in the
    report, by reason. Nothing is written unless the whole import loads, and
    never over a folder or file provlog did not write.
    """


def _import_options(fn):
    fn = click.option("--force", is_flag=True,
                      help="If OUT is not a folder provlog import wrote, move it aside (never deleted) and write.")(fn)
    fn = click.option("--skip-bad", is_flag=True, help="Leave out records that fail validation (listed in the report).")(fn)
    fn = click.option("--world", "world", type=click.Path(exists=True), default=None,
                      help="The world the import joins: its names keep their ids; checked together.")(fn)
    fn = click.option("--out", "out", required=True, type=click.Path(),
                      help="The folder of .facts files to write (new, or one provlog import wrote).")(fn)
    return output("text", "json")(fn)


def _run_import(run, *args, fmt: str, **kw) -> None:
    from ..importers import ImportFailure

    try:
        report = run(*args, **kw)
    except ImportFailure as e:
        if fmt == "json":
            _dump({"ok": False, "error": str(e), "errors": e.errors})
        else:
            click.echo(e.render(), err=True)
        _fail(str(e), 1)
    if fmt == "json":
        _dump(report.to_json())
    else:
        click.echo(report.render())


@import_.command(name="bods")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@_import_options
@click.option("--within", type=click.IntRange(0, 20), default=None, metavar="N",
              help="Keep only records within N relationship links of the world's names (JSON Lines, via DuckDB).")
def import_bods_cmd(paths, out, world, skip_bad, force, fmt, within) -> None:
    """BODS 0.4 statements (a JSON array per .json file, or JSON Lines) into OUT."""
    from ..importers import import_bods

    _run_import(import_bods, list(paths), out, world=world, within=within, skip_bad=skip_bad, force=force, fmt=fmt)


@import_.command(name="ftm")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@_import_options
def import_ftm_cmd(paths, out, world, skip_bad, force, fmt) -> None:
    """FollowTheMoney entities (JSON Lines, or a JSON array) into OUT."""
    from ..importers import import_ftm

    _run_import(import_ftm, list(paths), out, world=world, skip_bad=skip_bad, force=force, fmt=fmt)


@main.command()
@click.argument("world")
@click.argument("out", type=click.Path())
@click.option("--force", is_flag=True, help="Move an OUT provlog did not write aside (named in the report); nothing is deleted.")
@AS_OF
@_guard
def site(world: str, out: str, force: bool, as_of: Optional[str]) -> None:
    """The whole public site of WORLD as static files in OUT: open OUT/index.html, or put it on any host (docs/site.md).

    Needs the web extra: pip install 'provlog[web]'.
    """
    try:
        from .web.export import export
    except ImportError:
        _fail("provlog site needs Flask: pip install 'provlog[web]'", 2)
    from ..importers import ImportFailure

    try:
        n, moved = export(world, out, force=force, as_of=as_of, loaded=_load(world, as_of=as_of))
    except ImportFailure as e:  # OUT is not provlog's to take: said, nothing written
        _fail(e.render(), 1)
    click.echo(f"provlog: wrote {n} files to {out}; open {os.path.join(out, 'index.html')}"
               + (f" (the folder that was there is now {moved})" if moved else ""), err=True)


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
    except ProvlogError as e:  # an unknown policy (UnknownName was not imported here)
        _fail(str(e), e.exit_code)
    click.echo(f"provlog: serving {world} on http://{host}:{port}/ (read-only; Ctrl-C stops)", err=True)
    app.run(host=host, port=port, debug=False, use_reloader=False)
