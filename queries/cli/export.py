"""The commands that publish a world's derivation: ``export`` (its stored model, a SQLite file) and
``fingerprint`` (the hashes of its facts and rules that a published number rests on)."""
from __future__ import annotations

from typing import Optional

import click

from .options import echo, AS_OF, _dump, _fail, _load, output


@click.command()
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
    echo(f"wrote {file}")


@click.command()
@click.argument("world")
@output("text", "json")
def fingerprint(world: str, fmt: str) -> None:
    """SHA-256 of WORLD's canonical facts and of the rules: what a published number rests on."""
    w = _load(world)
    fp = w.fingerprint()
    if fmt == "json":
        _dump(fp)
        return
    echo(f"facts {fp['facts']}\nrules {fp['rules']}")
