"""The store's checksums: each table, with its indexes, sealed by an HMAC of its pages' bytes (keyed by
this user's secret, bound to the store's key and the table's name) when the store is written
(:func:`seal`), and checked before the table is first read (:class:`Seals`, once per process).

The seal is two HMACs: a digest of the pages (the table's name, its page numbers and the SHA-256 of
each block of BLOCK pages), then the mac of that digest bound to the store's key; ``_sums`` keeps both.
An edited store (a copy of the old one with a few rows written again, under a new key) binds to its key
the digest of each table it neither wrote nor read through the copy (pages.py notes both), its pages
unread: if the old store's bytes were damaged, the copy's are the same and the new seal finds it when
the table is read. Every other table is checked in the old store first (its bytes are the old ones
but what the edit wrote), and its blocks whose bytes the edit left as they were keep their hashes
there. Hashing every page of the copy again was a fifth of an edit's CPU, checking every table of the
old one a tenth (issue 27).

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

import hashlib
import hmac
import os
import sqlite3
from typing import Dict, Iterator, List, Optional, Sequence, Set, Tuple

from .errors import StoreDamaged, StoreError
from .key import secret
from .layout import FIXED
from .pages import _spans, listed, runs as _runs

#: the unit that seals sqlite_master's rows (every other unit is a table's name)
SCHEMA_UNIT = "@schema"
#: what the read path checks when it opens a store (every command reads them); the rest when first read
EAGER = ("_meta", "_relations", "_facts", "_derived")


def schema_rows(con: sqlite3.Connection) -> List[Tuple]:
    """sqlite_master's rows (type, name, tbl_name, rootpage, sql), by name."""
    return con.execute("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY name").fetchall()


def _mac(sec: bytes, key: str, unit: str, pages: str) -> "hmac.HMAC":
    return hmac.new(sec, b"\0".join([b"provlog-store", key.encode(), unit.encode(), pages.encode(), b""]),
                    "sha256")


#: pages per block: a table's digest hashes its pages block by block, so an edit hashes again only the
#: blocks it wrote (128 KiB at 4 KiB pages)
BLOCK = 32

#: (the old file's descriptor, a table's block hashes there): what an edited copy's digest may reuse
Was = Tuple[int, Dict[Tuple[int, int], bytes]]


def _blocks(pages: str) -> Iterator[Tuple[int, int]]:
    """The runs of ``pages`` cut at every BLOCK-th page: (first, last) each."""
    for a, b in _spans(pages):
        while a <= b:
            end = min(b, ((a - 1) // BLOCK + 1) * BLOCK)
            yield a, end
            a = end + 1


def _read(fd: int, page_size: int, unit: str, a: int, b: int) -> bytes:
    want = (b - a + 1) * page_size
    data = os.pread(fd, want, (a - 1) * page_size)
    if len(data) != want:
        raise StoreDamaged(f"table {unit!r} lies past the end of the file")
    return data


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _digest(sec: bytes, fd: int, page_size: int, unit: str, pages: str,
            was: Optional[Was] = None) -> Tuple[str, Dict[Tuple[int, int], bytes]]:
    """The HMAC of a table's pages (its name, page numbers, and the SHA-256 of each block's bytes), not
    bound to any store's key; and the block hashes. ``was``: a block whose bytes are the same in the old
    file keeps its hash there (read back and compared, not hashed)."""
    h = _mac(sec, "", unit, pages)
    hashes: Dict[Tuple[int, int], bytes] = {}
    for a, b in _blocks(pages):
        data = _read(fd, page_size, unit, a, b)
        had = was[1].get((a, b)) if was is not None else None
        if had is None or os.pread(was[0], len(data), (a - 1) * page_size) != data:
            had = _sha(data)
        hashes[(a, b)] = had
        h.update(had)
    return h.hexdigest(), hashes


def _bound(sec: bytes, key: str, unit: str, pages: str, digest: str) -> str:
    """The seal: a table's digest bound to the store's key."""
    h = _mac(sec, key, unit, pages)
    h.update(digest.encode())
    return h.hexdigest()


def _schema_mac(sec: bytes, key: str, rows: List[Tuple]) -> str:
    h = _mac(sec, key, SCHEMA_UNIT, "")
    h.update(repr(rows).encode())
    return h.hexdigest()


def seal(path: str, old: Optional["Seals"] = None, written: Optional[Set[str]] = None) -> None:
    """Write the checksums of the store at ``path`` (written, committed, not yet renamed in) into its
    ``_sums`` table, replacing any it had (an edited store's). ``old``: the seals of the store ``path`` was
    copied from, whose checked blocks' hashes are kept where their bytes are unchanged, and whose tables
    not ``written`` (pages.py) keep their pages if they add up. OSError without
    a secret; StoreError if this SQLite cannot list a table's pages (it lacks the dbstat table)."""
    con = sqlite3.connect(path)
    try:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name = '_sums'").fetchone():
            con.execute(FIXED["_sums"])
        con.execute("DELETE FROM _sums")
        con.commit()
        key = con.execute("SELECT v FROM _meta WHERE k = 'key'").fetchone()[0]
        page_size = con.execute("PRAGMA page_size").fetchone()[0]
        sec = secret()
        fd = os.open(path, os.O_RDONLY)
        try:
            try:  # the pages a table of the old store had (as its seal binds them), if the edit did not write it
                kept = {u: old.sums[u][0] for u in old.sums if u in old.checked or old.carried(u)} if old else None
                units = listed(con, fd, kept, written)
            except sqlite3.OperationalError as e:
                raise StoreError(f"this SQLite cannot checksum a store ({e})")
            rows = []
            for unit, pages in sorted(units.items()):
                runs = _runs(sorted(pages))
                digest = None
                if old is not None and written is not None and unit not in written and old.sums.get(unit, ("",))[0] == runs:
                    digest = old.carried(unit)
                if digest is None:
                    if old is not None and unit in old.sums:
                        old.check(unit)  # its bytes are the old store's but what the edit wrote: checked there first
                    digest, _ = _digest(sec, fd, page_size, unit, runs, old.was(unit, page_size) if old else None)
                rows.append((unit, runs, _bound(sec, key, unit, runs, digest), digest))
        finally:
            os.close(fd)
        rows.append((SCHEMA_UNIT, "", _schema_mac(sec, key, schema_rows(con)), ""))
        con.executemany("INSERT INTO _sums VALUES (?, ?, ?, ?)", rows)
        con.commit()
    finally:
        con.close()


class Seals:
    """The checksums of an open store (``sums``: unit -> (pages, mac), read from ``_sums``; ``digests``:
    unit -> the digest its mac binds), checked against its file (``fd``: the very file SQLite opened) one
    table at a time; ``checked``: those that matched, ``hashes`` their blocks' hashes. StoreDamaged on a
    mismatch."""

    def __init__(self, fd: int, page_size: int, key: str, sums: Dict[str, Tuple[str, str]],
                 digests: Optional[Dict[str, str]] = None):
        self.fd, self.page_size, self.key, self.sums = fd, page_size, key, sums
        self.digests = digests or {}
        self.hashes: Dict[str, Dict[Tuple[int, int], bytes]] = {}
        self._secret = secret()
        self.checked: Set[str] = set()

    def carried(self, unit: str) -> Optional[str]:
        """The digest kept beside ``unit``'s seal, if the seal binds it (with the pages ``sums`` lists): what
        a copy that left the table as it was binds to its own key, no page read (seal); else None."""
        pages, mac = self.sums.get(unit, ("", ""))
        digest = self.digests.get(unit)
        if not digest or not mac or not hmac.compare_digest(_bound(self._secret, self.key, unit, pages, digest), mac):
            return None
        return digest

    def check(self, unit: str) -> None:
        if unit in self.checked:
            return
        pages, mac = self.sums.get(unit, ("", ""))
        digest, hashes = _digest(self._secret, self.fd, self.page_size, unit, pages)
        if not mac or not hmac.compare_digest(_bound(self._secret, self.key, unit, pages, digest), mac):
            raise StoreDamaged(f"table {unit!r} does not match its checksum")
        self.checked.add(unit)
        self.hashes[unit] = hashes  # what an edited copy may keep (was): hashes of bytes just checked

    def was(self, unit: str, page_size: int) -> Optional[Was]:
        """What a copy of this store may reuse of ``unit``: this file and the block hashes checked here
        (none for a table not checked in this process)."""
        if unit not in self.checked or page_size != self.page_size:
            return None
        return self.fd, self.hashes[unit]

    def check_schema(self, rows: List[Tuple]) -> None:
        mac = self.sums.get(SCHEMA_UNIT, ("", ""))[1]
        if not mac or not hmac.compare_digest(_schema_mac(self._secret, self.key, rows), mac):
            raise StoreDamaged("its list of tables does not match its checksum")

    def check_all(self) -> None:
        for unit in sorted(self.sums):
            if unit != SCHEMA_UNIT:
                self.check(unit)
