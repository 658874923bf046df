"""``provlog import``: write a world's ``.facts`` from a register (``bods``, ``ftm``; importers/)."""
from __future__ import annotations

import click

from .options import echo, _dump, _fail, output


@click.group(name="import")
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
    from ...importers import ImportFailure

    try:
        report = run(*args, **kw)
    except ImportFailure as e:
        if fmt == "json":
            _dump({"ok": False, "error": str(e), "errors": e.errors})
        elif e.render() != str(e):  # one error is its own summary: said once
            echo(e.render(), err=True)
        _fail(str(e), 1)
    if fmt == "json":
        _dump(report.to_json())
    else:
        echo(report.render())


@import_.command(name="bods")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@_import_options
@click.option("--within", type=click.IntRange(0, 20), default=None, metavar="N",
              help="Keep only records within N relationship links of the world's names (JSON Lines, via DuckDB).")
def import_bods_cmd(paths, out, world, skip_bad, force, fmt, within) -> None:
    """BODS 0.4 statements (a JSON array per .json file, or JSON Lines) into OUT."""
    from ...importers import import_bods

    _run_import(import_bods, list(paths), out, world=world, within=within, skip_bad=skip_bad, force=force, fmt=fmt)


@import_.command(name="ftm")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@_import_options
def import_ftm_cmd(paths, out, world, skip_bad, force, fmt) -> None:
    """FollowTheMoney entities (JSON Lines, or a JSON array) into OUT."""
    from ...importers import import_ftm

    _run_import(import_ftm, list(paths), out, world=world, skip_bad=skip_bad, force=force, fmt=fmt)
