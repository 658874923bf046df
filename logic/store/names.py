"""A store's file names, shown from wherever it is asked (issue 39, docs/store.md).

A store holds the loader's names of a world's files as the command that wrote it named them:
relative to the folder it ran in, which ``_meta.names`` records as seen from the world's folder
(``.``, ``..``, ``../../scripts``). Asked from another folder, each name, and each fact id
``kind@file:line`` in a row, is shown as the loader names that file from here, so an answer is
the bytes a ``--no-store`` run prints there; a name asked for (a bound argument, a fact id looked
up) is turned back into the store's.

    >>> n = Names({"w/a.facts": "a.facts"})
    >>> n.shown("stake@w/a.facts:3"), n.shown("w/a.facts"), n.stored("stake@a.facts:3"), n.shown("acme")
    ('stake@a.facts:3', 'a.facts', 'stake@w/a.facts:3', 'acme')
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Dict, Iterable, Optional, Sequence, Tuple

from ...facts.model import Fact, Loc


def origin(top: Optional[Path]) -> Optional[str]:
    """The working directory seen from the world's folder ``top``: what a store written here records
    (None for a revision's world: key.py ``top``)."""
    return None if top is None else os.path.relpath(Path.cwd().resolve(), top)


def _absolute(top: Path, origin: str, name: str) -> str:
    return os.path.normpath(os.path.join(top, origin, name))


def stored_name(top: Path, origin: str, inside: str) -> str:
    """The store's name of the world's file ``inside`` (its name within the world, key.py ``within``)."""
    return os.path.relpath(os.path.normpath(os.path.join(top, inside)), os.path.normpath(os.path.join(top, origin)))


class Names:
    """The store's names -> the names shown here (``shown``), and back (``stored``): of files, of fact
    ids, and of rows, tuples and sets holding them; every other value is itself."""

    def __init__(self, shown: Dict[str, str]):
        self._show = {a: b for a, b in shown.items() if a != b}
        self._keep = {b: a for a, b in self._show.items()}
        self.same = not self._show  # asked from the folder that wrote the store: nothing to turn

    @classmethod
    def of(cls, files: Iterable[str], origin: Optional[str], top: Optional[Path]) -> "Names":
        """The names of ``files`` (a store's, written from ``origin``; None: an unknown place, shown as
        they are) for a world whose folder is ``top``, asked from the working directory."""
        here = Path.cwd().resolve()
        if origin is None or top is None or _absolute(top, origin, ".") == str(here):
            return cls({})
        return cls({f: os.path.relpath(_absolute(top, origin, f), here) for f in files})

    def shown(self, v: Any) -> Any:
        return v if self.same else _turn(v, self._show)

    def stored(self, v: Any) -> Any:
        return v if self.same else _turn(v, self._keep)

    def rows(self, rows: Sequence[Tuple]) -> Sequence[Tuple]:
        """Rows as shown here (the same list when nothing is to be turned)."""
        if self.same:
            return rows
        show = self._show
        return [tuple(_turn(v, show) for v in r) for r in rows]

    def fact(self, f: Fact) -> Fact:
        """``f`` written where it is shown from here."""
        file = self._show.get(f.loc.file) if not self.same else None
        if file is None:
            return f
        return Fact(f.kind, f._values, Loc(file, f.loc.line, f.loc.col), f.flags, f.src, f.span)


def _turn(v: Any, table: Dict[str, str]) -> Any:
    t = type(v)
    if t is str:
        got = table.get(v)
        if got is not None:
            return got
        at = v.find("@")
        if at > 0:  # a fact id, kind@file:line
            colon = v.rfind(":")
            if colon > at:
                got = table.get(v[at + 1:colon])
                if got is not None:
                    return f"{v[:at + 1]}{got}{v[colon:]}"
        return v
    if t is tuple or t is list:
        return t(_turn(x, table) for x in v)
    if t is frozenset or t is set:
        return t(_turn(x, table) for x in v)
    return v


__all__ = ["Names", "origin", "stored_name"]
