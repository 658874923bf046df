"""The commands that check a world, each exiting 1 when it fails: ``check`` (load and validate),
``verify`` (stored assessments against their derivation), ``test`` (expect statements) and
``diff`` (what moves between two worlds, with ``--exit-code``)."""
from __future__ import annotations

import sys
from typing import List, Optional

import click

from ...facts import LoadError
from ...facts.errors import STRICT_WARNINGS
from ..api import World
from .options import echo, AS_OF, _dump, _fail, _guard, _load, _store_for, output


@click.command()
@click.argument("world")
@click.option("--strict", is_flag=True, help="Refuse lane=pending sources, results and catalog sources, and "
              "bounds a signal's clause or its org's policies do not give (W120, W121).")
@output("text", "json")
def check(world: str, strict: bool, fmt: str) -> None:
    """Parse and validate WORLD; print every error, or ok and then any warnings (under --strict,
    W120 and W121 are errors)."""
    if fmt == "json":
        def diag(d):
            return {"file": d.file, "line": d.line, "col": d.col, "code": d.code, "message": d.message}

        try:
            w = World.load(world, strict=strict, freeze=True)
        except LoadError as e:
            _dump({"ok": False, "errors": [diag(d) for d in e.diagnostics], "warnings": []})
            sys.exit(1)
        errors, warned = _strict_split(w.warnings(), strict)
        _dump({"ok": not errors, "errors": [diag(d) for d in errors], "warnings": [diag(d) for d in warned],
               "statements": len(w.facts), "files": len(w.facts.files), "orgs": len(w.in_scope()),
               "out_of_scope": len(w.orgs) - len(w.in_scope()), "notes": list(w.legacy_lanes())})
        if errors:
            sys.exit(1)
        return
    w = _load(world, strict)
    errors, warned = _strict_split(w.warnings(), strict)
    if errors:  # the world loaded, and --strict refuses what it states
        for d in errors:
            echo(f"{d.file}:{d.line}:{d.col}: error: {d.message} [{d.code}]", err=True)
        _fail(f"{len(errors)} error{'s' if len(errors) != 1 else ''} under --strict", 1)
    # section 11: out-of-scope orgs are "excluded from every statistic" (rule 11 counted, read without deriving)
    orgs = len(w.in_scope())
    apart = len(w.orgs) - orgs
    echo(f"ok: {len(w.facts)} statements in {len(w.facts.files)} file(s), {orgs} org{'s' if orgs != 1 else ''}"
         + (f" in scope ({apart} out of scope, not counted)" if apart else ""))
    for line in w.legacy_lanes():
        echo(f"note: {line}")
    for d in warned:  # not errors: the world loaded and check exits 0
        echo(f"{d.file}:{d.line}:{d.col}: warning: {d.message} [{d.code}]")


def _strict_split(diagnostics, strict: bool):
    """(errors, warnings): under --strict the warnings of STRICT_WARNINGS are errors."""
    if not strict:
        return [], list(diagnostics)
    return ([d for d in diagnostics if d.code in STRICT_WARNINGS],
            [d for d in diagnostics if d.code not in STRICT_WARNINGS])


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


#: where ``--`` stood among diff's arguments (click drops it): revisions before it, paths after
_DASHES = "\0--"


class _Sides(click.Command):
    """diff's command: a ``--`` on its line is kept as a marker among the sides (git's separator of
    revisions from paths), and still ends the options."""

    def parse_args(self, ctx, args):
        if "--" in args:
            i = args.index("--")
            args = args[:i] + [_DASHES] + args[i:]
        return super().parse_args(ctx, args)


@click.command(cls=_Sides)
@click.argument("sides", nargs=-1, metavar="OLD [NEW]")
@click.option("--without", "without", multiple=True, metavar="ID",
              help="What-if: take away a source (with its cites), a signal (with its cites) or a statement (repeatable).")
@click.option("--set", "sets", nargs=2, multiple=True, metavar="ID KEY=VALUE",
              help="What-if: set one value of a statement, e.g. --set src-x status=differs (repeatable).")
@click.option("--policy", "policy", default=None, metavar="P", help="Only this policy (default: every policy).")
@click.option("--exit-code", is_flag=True, help="Exit 1 when anything moved (as git diff --exit-code).")
@output("text", "json", "markdown")
@AS_OF
@_guard
def diff(sides, without, sets, policy: Optional[str], exit_code: bool, fmt: str,
         as_of: Optional[str]) -> None:
    """What moves from OLD to NEW, and the statements each move rests on (docs/diff.md).

    Each side is a world path or a git revision of one: REV:path, or REV beside the other
    side's path (provlog diff HEAD~1 world); an argument that is both is refused: put
    revisions before --, paths after it (provlog diff base -- base). With one side and
    --without / --set: what that change, not yet written, would move.
    """
    from ..diff import DiffError, compare, side, what_if

    kinds = [None] * len(sides)
    if _DASHES in sides:
        cut = sides.index(_DASHES)
        sides = sides[:cut] + sides[cut + 1:]
        kinds = ["rev"] * cut + ["path"] * (len(sides) - cut)
    if not sides or len(sides) > 2:
        raise DiffError(f"diff takes one or two sides (OLD [NEW]), got {len(sides)}")
    old, new = sides[0], sides[1] if len(sides) == 2 else None
    if new is None and not (without or sets):
        raise DiffError("diff needs two sides (OLD NEW), or one world and a what-if (--without, --set)")
    if new is None:
        a = b = _load(side(old, None, kinds[0]), as_of=as_of)
    else:  # with --store FILE, each side has a file of its own: never both read from one
        sa, sb = side(old, new, kinds[0]), side(new, old, kinds[1])
        a = _load(sa, as_of=as_of, store=_store_for(sa, old=True))
        b = _load(sb, as_of=as_of)
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
