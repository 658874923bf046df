"""The read path: a store opened only for the inputs it was made from (:func:`open_store`)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .codec import _from_sql
from .errors import StoreError, warn
from .key import key_of
from .layout import SCHEMA, _header_ok, _q

class Stored:
    """An open store: its meta, facts, derived signals and relations (the read protocol)."""

    def __init__(self, path: Path, con: sqlite3.Connection, meta: Dict[str, str]):
        self.path = path
        self.con = con
        self.meta = meta
        self.rels: Dict[str, Tuple[int, List[str], List[str], bool]] = {}  # name -> (arity, kinds, columns, edb)
        self.funcs: Dict[str, Tuple[int, List[str], List[str], bool]] = {}  # functions, the same
        for name, arity, kinds, cols, origin, _ in con.execute("SELECT * FROM _relations"):
            (self.funcs if origin == "function" else self.rels)[name] = (arity, json.loads(kinds), json.loads(cols),
                                                                         origin == "edb")

    def query(self, sql: str, params: Sequence = ()) -> List[Tuple]:
        return self.con.execute(sql, params).fetchall()

    def rows(self, name: str) -> List[Tuple]:
        """Every row of a stored relation, decoded (sqlite3.Error if the store is damaged)."""
        _, kinds, cols, _ = self.rels[name]
        got = self.query(f"SELECT {', '.join(map(_q, cols))} FROM {_q(name)} ORDER BY rowid")
        return [tuple(_from_sql(k, x) for k, x in zip(kinds, r)) for r in got]


def open_store(target: Path, want: Optional[Callable[[Sequence[str]], Dict[str, Any]]],
               quiet: bool = False) -> Optional[Stored]:
    """The store at ``target`` if it was made from exactly the inputs ``want(files)`` computes now
    (``files``: the files the store's world read); None on a miss. A corrupt store is reported on
    stderr in one line (unless ``quiet``) and treated as a miss. ``want=None`` opens the store of any
    inputs that this user made (its key is theirs: the previous store of an edited world, logic/edit.py)."""
    target = Path(target)
    if not target.is_file():
        return None
    try:
        if not _header_ok(target):
            raise StoreError("truncated")
        con = sqlite3.connect(f"file:{target}?mode=ro", uri=True, check_same_thread=False)
        meta = dict(con.execute("SELECT k, v FROM _meta"))
        if meta.get("schema") != str(SCHEMA):
            con.close()
            return None
        try:
            made = json.loads(meta["inputs"])
            now = made if want is None else want(made.get("files", {}).keys())
        except OSError:  # a file it read is gone: a miss
            con.close()
            return None
        try:
            key = key_of(now)
        except OSError:  # no secret can be kept for this user: no store is trusted
            con.close()
            return None
        if key != meta.get("key"):
            con.close()
            return None
        return Stored(target, con, meta)
    except (sqlite3.Error, StoreError, KeyError, ValueError, TypeError) as e:
        if not quiet:
            warn(f"store {target} is unreadable ({e}); ignoring it, deriving again")
        return None
