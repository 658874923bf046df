"""The commands that check a world, each exiting 1 when it fails: ``check`` (load and validate),
``verify`` (stored assessments against their derivation), ``test`` (expect statements) and
``diff`` (what moves between two worlds, with ``--exit-code``)."""
from __future__ import annotations

import sys
from typing import List, Optional

import click

from ...facts import LoadError
from ..api import World
from .options import echo, AS_OF, _dump, _fail, _guard, _load, output


@click.command()
@click.argument("world")
@click.option("--strict", is_flag=True, help="Refuse lane=pending sources, results and catalog sources.")
@output("text", "json")
def check(world: str, strict: bool, fmt: str) -> None:
    """Parse and validate WORLD; print every error, or ok and then any warnings."""
    from ..candidates import in_scope

    if fmt == "json":
        def diag(d):
            return {"file": d.file, "line": d.line, "col": d.col, "code": d.code, "message": d.message}

        try:
            w = World.load(world, strict=strict, freeze=True)
        except LoadError as e:
            _dump({"ok": False, "errors": [diag(d) for d in e.diagnostics], "warnings": []})
            sys.exit(1)
        _dump({"ok": True, "errors": [], "warnings": [diag(d) for d in w.warnings()], "statements": len(w.facts),
               "files": len(w.facts.files), "orgs": len(in_scope(w)), "out_of_scope": len(w.orgs) - len(in_scope(w)),
               "notes": list(w.legacy_lanes())})
        return
    w = _load(world, strict)
    orgs, apart = len(in_scope(w)), len(w.orgs) - len(in_scope(w))
    # section 11: out-of-scope orgs are "excluded from every statistic"
    echo(f"ok: {len(w.facts)} statements in {len(w.facts.files)} file(s), {orgs} org{'s' if orgs != 1 else ''}"
         + (f" in scope ({apart} out of scope, not counted)" if apart else ""))
    for line in w.legacy_lanes():
        echo(f"note: {line}")
    for d in w.warnings():  # not errors: the world loaded and check exits 0
        echo(f"{d.file}:{d.line}:{d.col}: warning: {d.message} [{d.code}]")


@click.command()
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
        echo(p)
    fp = w.fingerprint()
    echo(f"fingerprint: facts {fp['facts']} rules {fp['rules']}")
    n = len(w.facts.of("assessment"))
    if problems:
        _fail(f"verify failed: {len(problems)} problem(s)", 1)
    echo(f"ok: {n} stored assessment(s) agree with their derivation; no unresolved conflict")


@click.command()
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
                    echo(f"{r.loc}: FAIL {r.text}: got {r.got}")
    if fmt == "json":
        _dump({"passed": total - failed, "failed": failed, "results": results})
    else:
        echo(f"{total - failed} passed, {failed} failed")
    if failed:
        sys.exit(1)


@click.command()
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
    from ..diff import DiffError, compare, side, what_if

    if new is None and not (without or sets):
        raise DiffError("diff needs two sides (OLD NEW), or one world and a what-if (--without, --set)")
    a = _load(side(old, new), as_of=as_of)
    b = _load(side(new, old), as_of=as_of) if new is not None else a
    if without or sets:
        try:
            b = what_if(b, without, sets, fast=new is None)
        except LoadError as e:
            echo(e.render(), err=True)
            _fail("the what-if was refused; nothing was compared", 1)
    report = compare(a, b, policy)
    if fmt == "json":
        _dump(report.to_json())
    else:
        echo(report.to_markdown() if fmt == "markdown" else report.to_text())
    if exit_code and report.moved:
        sys.exit(1)
