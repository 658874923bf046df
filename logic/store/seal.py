"""The store's checksums: each table, with its indexes, sealed by an HMAC of its pages' bytes (keyed by
this user's secret, bound to the store's key and the table's name) when the store is written
(:func:`seal`), and checked before the table is first read (:class:`Seals`, once per process).

SQLite's own integrity check passes a store whose bytes were changed inside a row (a name, a number):
the checksum does not. Pages are what is hashed because hashing them costs what reading the file costs
(rows decoded in Python would cost ten times more). sqlite_master (which table is where) is sealed by
its rows, unit ``@schema``.

    >>> _runs([1, 2, 3, 7, 9, 10])
    '1-3,7,9-10'
    >>> list(_spans('1-3,7'))
    [(1, 3), (7, 7)]
"""
from __future__ import annotations

import hmac
import os
import sqlite3
from typing import Dict, Iterator, List, Sequence, Set, Tuple

from .errors import StoreDamaged, StoreError
from .key import secret
from .layout import FIXED

#: the unit that seals sqlite_master's rows (every other unit is a table's name)
SCHEMA_UNIT = "@schema"
#: what the read path checks when it opens a store (every command reads them); the rest when first read
EAGER = ("_meta", "_relations", "_facts", "_derived")


def _runs(pages: Sequence[int]) -> str:
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


def schema_rows(con: sqlite3.Connection) -> List[Tuple]:
    """sqlite_master's rows (type, name, tbl_name, rootpage, sql), by name."""
    return con.execute("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY name").fetchall()


def _mac(sec: bytes, key: str, unit: str, pages: str) -> "hmac.HMAC":
    return hmac.new(sec, b"\0".join([b"provlog-store", key.encode(), unit.encode(), pages.encode(), b""]),
                    "sha256")


def _page_mac(sec: bytes, fd: int, page_size: int, key: str, unit: str, pages: str) -> str:
    h = _mac(sec, key, unit, pages)
    for a, b in _spans(pages):
        want = (b - a + 1) * page_size
        data = os.pread(fd, want, (a - 1) * page_size)
        if len(data) != want:
            raise StoreDamaged(f"table {unit!r} lies past the end of the file")
        h.update(data)
    return h.hexdigest()


def _schema_mac(sec: bytes, key: str, rows: List[Tuple]) -> str:
    h = _mac(sec, key, SCHEMA_UNIT, "")
    h.update(repr(rows).encode())
    return h.hexdigest()


def seal(path: str) -> None:
    """Write the checksums of the store at ``path`` (written, committed, not yet renamed in) into its
    ``_sums`` table, replacing any it had (an edited store's). OSError without a secret; StoreError if
    this SQLite cannot list a table's pages (it lacks the dbstat table)."""
    con = sqlite3.connect(path)
    try:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name = '_sums'").fetchone():
            con.execute(FIXED["_sums"])
        con.execute("DELETE FROM _sums")
        con.commit()
        key = con.execute("SELECT v FROM _meta WHERE k = 'key'").fetchone()[0]
        units: Dict[str, List[int]] = {}
        try:
            for table, page in con.execute("SELECT m.tbl_name, d.pageno FROM dbstat AS d JOIN sqlite_master AS m "
                                           "ON m.name = d.name WHERE m.tbl_name != '_sums'"):
                units.setdefault(table, []).append(page)
        except sqlite3.OperationalError as e:
            raise StoreError(f"this SQLite cannot checksum a store ({e})")
        page_size = con.execute("PRAGMA page_size").fetchone()[0]
        sec = secret()
        fd = os.open(path, os.O_RDONLY)
        try:
            rows = [(unit, _runs(sorted(pages)), "") for unit, pages in sorted(units.items())]
            rows = [(u, p, _page_mac(sec, fd, page_size, key, u, p)) for u, p, _ in rows]
        finally:
            os.close(fd)
        rows.append((SCHEMA_UNIT, "", _schema_mac(sec, key, schema_rows(con))))
        con.executemany("INSERT INTO _sums VALUES (?, ?, ?)", rows)
        con.commit()
    finally:
        con.close()


class Seals:
    """The checksums of an open store (``sums``: unit -> (pages, mac), read from ``_sums``), checked
    against its file (``fd``: the very file SQLite opened) one table at a time; ``checked``: those that
    matched. StoreDamaged on a mismatch."""

    def __init__(self, fd: int, page_size: int, key: str, sums: Dict[str, Tuple[str, str]]):
        self.fd, self.page_size, self.key, self.sums = fd, page_size, key, sums
        self._secret = secret()
        self.checked: Set[str] = set()

    def check(self, unit: str) -> None:
        if unit in self.checked:
            return
        pages, mac = self.sums.get(unit, ("", ""))
        if not mac or not hmac.compare_digest(_page_mac(self._secret, self.fd, self.page_size, self.key, unit, pages), mac):
            raise StoreDamaged(f"table {unit!r} does not match its checksum")
        self.checked.add(unit)

    def check_schema(self, rows: List[Tuple]) -> None:
        mac = self.sums.get(SCHEMA_UNIT, ("", ""))[1]
        if not mac or not hmac.compare_digest(_schema_mac(self._secret, self.key, rows), mac):
            raise StoreDamaged("its list of tables does not match its checksum")

    def check_all(self) -> None:
        for unit in sorted(self.sums):
            if unit != SCHEMA_UNIT:
                self.check(unit)
