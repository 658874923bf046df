"""The read path: a store opened only for the inputs it was made from (:func:`open_store`), its layout
checked before anything is read from it, each table's checksum before the table is first read, and
every read bounded in time.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
import weakref
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from .codec import decoded_rows
from .errors import NotAStore, StoreDamaged, StoreError, warn
from .key import key_of
from .layout import SCHEMA, _header_ok, _q, check_schema, is_store_layout
from .names import Names
from .seal import EAGER, Seals, schema_rows

#: the longest one read of a store may take, in seconds; past it the read is interrupted (a store that
#: took so long is treated as damaged: the command derives instead)
READ_SECONDS = 30.0


class _Deadline:
    """A time bound on each statement of a connection (SQLite's progress handler interrupts it)."""

    def __init__(self, con: sqlite3.Connection):
        self.until = 0.0
        self.restart()
        con.set_progress_handler(lambda: time.monotonic() > self.until, 10_000)

    def restart(self) -> None:
        self.until = time.monotonic() + READ_SECONDS


class Stored:
    """An open store: its meta, facts, derived signals and relations (the read protocol). Every read
    goes through :meth:`query`, which checks a table's checksum the first time a statement reads it."""

    def __init__(self, path: Path, con: sqlite3.Connection, meta: Dict[str, str], seals: Seals,
                 deadline: _Deadline):
        self.path = path
        self._con, self._pid = con, os.getpid()
        self.meta = meta
        self.seals = seals
        self._deadline = deadline
        self._unchecked: Set[str] = set()
        self.names = Names({})  # how its file names are shown here (names.py; set by whoever knows the world)
        con.set_authorizer(self._authorize)
        self.rels: Dict[str, Tuple[int, List[str], List[str], bool]] = {}  # name -> (arity, kinds, columns, edb)
        self.funcs: Dict[str, Tuple[int, List[str], List[str], bool]] = {}  # functions, the same
        for name, arity, kinds, cols, origin, _ in self.query("SELECT * FROM _relations"):
            (self.funcs if origin == "function" else self.rels)[name] = (arity, json.loads(kinds), json.loads(cols),
                                                                         origin == "edb")

    @property
    def con(self) -> sqlite3.Connection:
        """The connection, this process's own: a forked process (the site's proof workers) opens its own
        on first use, since a SQLite connection must not be used across a fork."""
        if self._pid != os.getpid():
            self._reopen()
        return self._con

    def _reopen(self) -> None:
        """A connection of this process's own to the very file opened (``seals.fd``), with the same
        bound and checks; the parent's is left as it is (closing it here could disturb the parent's)."""
        con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        try:
            if not os.path.samestat(os.fstat(self.seals.fd), os.stat(self.path)):
                raise sqlite3.OperationalError(f"{self.path} was replaced since it was opened")
        except OSError as e:
            con.close()
            raise sqlite3.OperationalError(str(e)) from e
        except sqlite3.Error:
            con.close()
            raise
        self._inherited, self._con, self._pid = self._con, con, os.getpid()
        self._deadline = _Deadline(con)
        con.set_authorizer(self._authorize)

    def _authorize(self, action: int, table: Optional[str], *_) -> int:
        """SQLite asks before a statement reads a table: one of the store's not yet checked is refused, and
        noted (sqlite_master's checksum covers the list of tables, so every table of the file has one)."""
        if action == sqlite3.SQLITE_READ and table in self.seals.sums and table not in self.seals.checked:
            self._unchecked.add(table)
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def query(self, sql: str, params: Sequence = ()) -> List[Tuple]:
        """The rows of ``sql``; StoreDamaged (the store is dropped) if a table it reads does not match
        its checksum, sqlite3.OperationalError if it runs past READ_SECONDS."""
        self._deadline.restart()
        try:
            return self.con.execute(sql, params).fetchall()
        except sqlite3.DatabaseError:
            if not self._unchecked:
                raise
        unchecked, self._unchecked = sorted(self._unchecked), set()
        for table in unchecked:
            self.check(table)
        self._deadline.restart()
        return self.con.execute(sql, params).fetchall()

    def check(self, table: Optional[str] = None) -> None:
        """Check one table's checksum (every table's without ``table``); a mismatch drops the store."""
        try:
            self.seals.check(table) if table else self.seals.check_all()
        except StoreDamaged:
            self.drop()
            raise

    def drop(self) -> None:
        """Remove the store's file (if it is still the one opened: not a store written since)."""
        try:
            if os.path.samestat(os.fstat(self.seals.fd), os.stat(self.path)):
                os.unlink(self.path)
        except OSError:
            pass

    def rows(self, name: str) -> List[Tuple]:
        """Every row of a stored relation, decoded (sqlite3.Error if the store is damaged)."""
        _, kinds, cols, _ = self.rels[name]
        got = self.query(f"SELECT {', '.join(map(_q, cols))} FROM {_q(name)} ORDER BY rowid")
        return decoded_rows(kinds, got)


def open_store(target: Path, want: Optional[Callable[[Dict[str, Any]], Dict[str, Any]]],
               quiet: bool = False, every: bool = False) -> Optional[Stored]:
    """The store at ``target`` if it was made from exactly the inputs ``want(made)`` computes now
    (``made``: the inputs the store was made from, naming the files its world read; key.py
    ``wanted``); None on a miss. A damaged store (corrupt, of a
    layout no store has, or a checksum that does not match) is reported on stderr in one line (unless
    ``quiet``), removed, and treated as a miss. ``want=None`` opens the store of any inputs that this
    user made (its key is theirs: the previous store of an edited world, logic/edit.py). ``_meta``,
    ``_relations``, ``_facts`` and ``_derived`` are checked when it opens (``every``: every table), the
    others when first read. NotAStore if ``target`` is a file that is not a store (outside a
    ``.provlog`` folder)."""
    target = Path(target)
    if not target.is_file():
        return None
    refuse_a_stranger(target)
    fd = None
    try:
        if not _header_ok(target):
            raise StoreError("truncated")
        fd = os.open(target, os.O_RDONLY)
        got = _open(target, fd, want, every)
        if got is not None:
            weakref.finalize(got, os.close, fd)
            fd = None
        return got
    except (sqlite3.Error, StoreError, KeyError, ValueError, TypeError) as e:
        if not quiet:
            warn(f"store {target} is unreadable ({e}); ignoring it, deriving again")
        _remove(target, fd)
        return None
    finally:
        if fd is not None:
            os.close(fd)


def _open(target: Path, fd: int, want, every: bool = False) -> Optional[Stored]:
    """The store whose file is open as ``fd``, if its key is the one ``want`` computes; its layout
    checked before its key is read, its key before any table (``_meta`` aside)."""
    con = sqlite3.connect(f"file:{target}?mode=ro", uri=True, check_same_thread=False)
    try:
        if not os.path.samestat(os.fstat(fd), os.stat(target)):
            raise OSError("replaced while it was opened")
        deadline = _Deadline(con)
        entries = schema_rows(con)
        check_schema([(t, n, tb, sql) for t, n, tb, _, sql in entries], complete=False)
        meta = dict(con.execute("SELECT k, v FROM _meta"))
        if meta.get("schema") != str(SCHEMA):
            con.close()
            return None
        check_schema([(t, n, tb, sql) for t, n, tb, _, sql in entries])
        made = json.loads(meta["inputs"])
        if key_of(made if want is None else want(made)) != meta.get("key"):
            con.close()
            return None
        deadline.restart()
        got = con.execute("SELECT unit, pages, mac, digest FROM _sums").fetchall()
        seals = Seals(fd, con.execute("PRAGMA page_size").fetchone()[0], meta["key"], {u: (p, m) for u, p, m, _ in got},
                      {u: d for u, _, _, d in got})
        seals.check_schema(entries)
        for unit in seals.sums if every else EAGER:
            if unit != "@schema":
                seals.check(unit)
        return Stored(target, con, meta, seals, deadline)
    except OSError:  # a file it read is gone, or no secret can be kept for this user: a miss
        con.close()
        return None
    except BaseException:
        con.close()
        raise


def _remove(target: Path, fd: Optional[int]) -> None:
    """Drop a damaged store (provlog's own: refuse_a_stranger let it through), if it is still the one read."""
    try:
        if fd is None or os.path.samestat(os.fstat(fd), os.stat(target)):
            os.unlink(target)
    except OSError:
        pass


def refuse_a_stranger(target: Path) -> None:
    """NotAStore unless the file at ``target`` may be a store: in a ``.provlog`` folder (provlog's own,
    damaged or not), or a SQLite database with a store's ``_meta`` table. Nothing else is read or replaced."""
    if target.parent.name == ".provlog" or not target.exists():
        return
    try:
        with open(target, "rb") as fh:
            ours = fh.read(16) == b"SQLite format 3\0"
        if ours:
            con = sqlite3.connect(f"file:{target}?mode=ro", uri=True)
            try:
                ours = is_store_layout([(t, n, tb, s) for t, n, tb, _, s in schema_rows(con)])
            finally:
                con.close()
    except (OSError, sqlite3.Error):
        ours = False
    if not ours:
        raise NotAStore(f"{target} exists and is not a provlog store: it is neither read nor replaced "
                        f"(name a new file, or remove this one)")
