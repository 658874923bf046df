"""Which pages of a store's file each table holds, with its indexes (what seal.py hashes).

SQLite's ``dbstat`` lists them, but listing every table walks every page (a tenth of a second at
1,000 orgs). An edited store is a copy of the previous one with a few tables written again
(:func:`editing` notes which): only those are listed again; the others keep the pages the previous
store's seals list, and that is used only if every page of the file is then accounted for exactly
once (each table's, sqlite_master's, ``_sums``'s, the free list's), else every table is listed.
:func:`editing` notes the tables a statement reads too: seal.py carries the seal of a table the edit
neither wrote nor read through the copy, and checks the previous store's bytes of every other.
"""
from __future__ import annotations

import os
import sqlite3
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from .errors import StoreDamaged

#: what an authorizer call writes: action -> the argument that names the table
_WRITES = {sqlite3.SQLITE_INSERT: 0, sqlite3.SQLITE_UPDATE: 0, sqlite3.SQLITE_DELETE: 0,
           sqlite3.SQLITE_CREATE_TABLE: 0, sqlite3.SQLITE_DROP_TABLE: 0,
           sqlite3.SQLITE_CREATE_INDEX: 1, sqlite3.SQLITE_DROP_INDEX: 1}

#: the tables written through an :func:`editing` connection, by file; and those read
WRITTEN: Dict[str, Set[str]] = {}
READ: Dict[str, Set[str]] = {}


class Editing(sqlite3.Connection):
    """A connection to an edited copy of a store (:func:`editing`); ``unnoted``: reads not noted, while True."""

    unnoted = False


def editing(path: str) -> Editing:
    """A connection to an edited copy of a store that notes each table a statement writes (``WRITTEN``)
    or reads (``READ``), but while its ``unnoted`` is set: a read whose answer only decides to leave a
    table as it was (logic/edit.py ``_row_diff``: its bytes, damage and all, then keep their seal, which
    still finds damage when the table is read)."""
    con = sqlite3.connect(path, factory=Editing)
    written, read = WRITTEN.setdefault(path, set()), READ.setdefault(path, set())

    def note(action: int, a, b, *_) -> int:
        at = _WRITES.get(action)
        if at is not None:
            written.add((a, b)[at])
        elif action == sqlite3.SQLITE_READ and a and not con.unnoted:
            read.add(a)
        return sqlite3.SQLITE_OK
    con.set_authorizer(note)
    return con


def listed(con: sqlite3.Connection, fd: int, kept: Optional[Dict[str, str]] = None,
           written: Optional[Set[str]] = None) -> Dict[str, List[int]]:
    """Each table's pages but ``_sums``'s: table -> page numbers. ``kept``: table -> pages (runs, as seal.py
    writes them) of the previous store, for the tables not ``written``. An edited copy (``kept`` given)
    must account for every page of its file exactly once, else StoreDamaged: the old store's free list,
    which no seal covers, may have named a page a table still held, and SQLite given it out again (two
    tables on one page: such a file is never sealed)."""
    if kept is not None and written is not None:
        got = _relisted(con, fd, kept, written)
        if got is not None:
            return got
    units: Dict[str, List[int]] = {}
    others: List[int] = []  # sqlite_master's, _sums's
    for table, page in con.execute("SELECT m.tbl_name, d.pageno FROM dbstat AS d JOIN sqlite_master AS m "
                                   "ON m.name = d.name"):
        (others if table == "_sums" else units.setdefault(table, [])).append(page)
    if kept is not None:
        others += [p for (p,) in con.execute("SELECT pageno FROM dbstat WHERE name = 'sqlite_schema'")]
        if not _accounted(con, fd, [*units.values(), others]):
            raise StoreDamaged("a page of the edited store is held by two tables, or by none")
    return units


def _relisted(con, fd: int, kept: Dict[str, str], written: Set[str]) -> Optional[Dict[str, List[int]]]:
    btrees = con.execute("SELECT name, tbl_name FROM sqlite_master WHERE rootpage > 0").fetchall()
    units = {t: [p for a, b in _spans(kept[t]) for p in range(a, b + 1)]
             for _, t in btrees if t in kept and t not in written and t != "_sums" and kept[t]}
    others: List[int] = []  # sqlite_master's, _sums's
    again = [(name, table) for name, table in btrees if table not in units]  # (units grows below)
    for name, table in again + [("sqlite_schema", "")]:
        pages = [p for (p,) in con.execute("SELECT pageno FROM dbstat WHERE name = ?", (name,))]
        (others if table in ("", "_sums") else units.setdefault(table, [])).extend(pages)
    return units if _accounted(con, fd, [*units.values(), others]) else None


def _accounted(con, fd: int, lists: List[List[int]]) -> bool:
    """Whether ``lists`` and the file's free list hold every page of the file, each once."""
    count, size = (con.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "page_size"))
    free = _free_pages(fd, size)
    if free is None:
        return False
    lock = [(1 << 30) // size + 1] if count * size > 1 << 30 else []  # SQLite's lock byte's page: nobody's
    return _each_once(count, [*lists, free, lock])


def _each_once(count: int, lists: Iterable[Iterable[int]]) -> bool:
    """Whether the lists hold every page 1..count, each once."""
    seen = bytearray(count + 1)
    for pages in lists:
        for p in pages:
            if not 0 < p <= count or seen[p]:
                return False
            seen[p] = 1
    return seen.count(1) == count


def _free_pages(fd: int, size: int) -> Optional[List[int]]:
    """The free list's pages (its trunks and their leaves), read from the file; None if it does not
    add up to the count the header gives."""
    head = os.pread(fd, 100, 0)
    trunk, total = int.from_bytes(head[32:36], "big"), int.from_bytes(head[36:40], "big")
    pages: List[int] = []
    while trunk and len(pages) <= total:
        data = os.pread(fd, size, (trunk - 1) * size)
        n = int.from_bytes(data[4:8], "big")
        pages.append(trunk)
        pages.extend(int.from_bytes(data[8 + 4 * i:12 + 4 * i], "big") for i in range(min(n, size // 4 - 2)))
        trunk = int.from_bytes(data[:4], "big")
    return pages if len(pages) == total and not trunk else None


def runs(pages: Sequence[int]) -> str:
    """Sorted page numbers as runs, ``1-3,7``."""
    out: List[str] = []
    start = prev = None
    for p in list(pages) + [None]:
        if start is not None and p == prev + 1:
            prev = p
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = p
    return ",".join(out)


def _spans(text: str) -> Iterator[Tuple[int, int]]:
    for run in text.split(","):
        a, _, b = run.partition("-")
        yield int(a), int(b or a)
