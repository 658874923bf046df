"""The store's layout: its schema number, tables, column names and indexes, and the checks that a
file has that layout (:func:`check_schema`: only these tables and indexes, no view, no trigger) before
anything is read from it.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from .errors import StoreError

#: the layout of the tables below; a store of another layout is a miss (2: the checksums, ``_sums``;
#: 3: each statement's canonical text, ``_canon``, and each file's text, ``_texts``, for edits: issue 27;
#: 4: each table's seal is its pages' digest bound to the key, seal.py, so an edit keeps unchanged tables;
#: 5: the digest is kept beside the seal, so an edit carries an unchanged table's without reading its pages;
#: 6: keyed by content, not by the working directory: files by their names inside the world, ``_meta.names``
#: says where the names it holds are relative to, names.py; issue 39)
SCHEMA = 6

#: the tables every store has, with the exact SQL that makes them (a relation's table is one more each)
FIXED = {
    "_meta": "CREATE TABLE _meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)",
    "_relations": "CREATE TABLE _relations (name TEXT PRIMARY KEY, arity INTEGER, kinds TEXT, columns TEXT, "
                  "origin TEXT, rows INTEGER)",
    "_facts": "CREATE TABLE _facts (n INTEGER PRIMARY KEY, kind TEXT, id TEXT, fid TEXT, file TEXT, line INTEGER, "
              "col INTEGER, flags TEXT, src TEXT, span TEXT, vals TEXT)",
    "_derived": "CREATE TABLE _derived (id TEXT PRIMARY KEY, rule TEXT, org TEXT, dim TEXT, direction TEXT, "
                "kind TEXT, bound INTEGER, key TEXT, facts TEXT, cites TEXT)",
    "_sums": "CREATE TABLE _sums (unit TEXT PRIMARY KEY, pages TEXT NOT NULL, mac TEXT NOT NULL, digest TEXT NOT NULL)",
    # an edit re-reads only the lines that changed and hashes the fingerprint from these (logic/reread.py)
    "_canon": "CREATE TABLE _canon (n INTEGER PRIMARY KEY, canon TEXT NOT NULL)",
    "_texts": "CREATE TABLE _texts (file TEXT PRIMARY KEY, text TEXT NOT NULL)",
}
#: a relation's table as :func:`~provlog.logic.store.writing.create_table` makes it: plain typed columns
_RELATION = re.compile(r'CREATE TABLE "[^"]+" \("[^"]+" (?:INTEGER|TEXT)(?:, "[^"]+" (?:INTEGER|TEXT))*(?:, _facts TEXT)?\)')
#: an index on plain columns (no expression, no WHERE)
_INDEX = re.compile(r'CREATE INDEX "?[^"()]+"? ON "?[^"()]+"? \([^()]*\)')


#: the relations readers ask most, by their arguments' meaning (the rest: the rule heads' variables)
READERS = {name: cols.split() for name, cols in {
    "value": "org dim policy value signal rule", "conflict": "org dim policy cap floor",
    "effective": "signal policy kind bound", "b0": "signal kind bound", "held": "signal view clause",
    "evclass": "signal view class", "admissible": "signal policy", "band": "org policy band",
    "org_role": "org role", "hop_of": "node hop", "stake_total": "holder subject stake", "tie": "node tied_to",
    "self_favour": "signal", "derive": "rule org dim direction kind bound key", "uses": "rule org key facts",
}.items()}


def _column_names(name: str, arity: int, heads: Dict[str, List[str]]) -> List[str]:
    """The EDB's argument names (edb.COLUMNS), else the rule heads' variable names (``value(O, D, P, X,
    S, R)`` -> o, d, p, x, s, r; a constant in one head takes the name another head gives), else a0..an."""
    from ..edb import COLUMNS

    for named in (COLUMNS, READERS):
        if name in named and len(named[name]) == arity:
            return list(named[name])
    cols: List[Optional[str]] = [None] * arity
    for head in heads.get(name, ()):
        if "(" not in head or "[" in head:
            continue
        args = [a.strip() for a in head[head.index("(") + 1: head.rindex(")")].split(",")]
        if len(args) == arity:
            for i, a in enumerate(args):
                if cols[i] is None and a.isidentifier() and a[0].isupper():
                    cols[i] = a.lower()
    seen: Dict[str, int] = {}
    out = []
    for i, c in enumerate(cols):
        c = c or f"a{i}"
        seen[c] = seen.get(c, 0) + 1
        out.append(c if seen[c] == 1 else f"{c}{seen[c]}")
    return out


def _q(name: str) -> str:
    if not name.replace("_", "a").isalnum():
        raise StoreError(f"relation name {name!r} cannot be a table name")
    return f'"{name}"'


_SQL = {"int": "INTEGER", "text": "TEXT", "num": "TEXT", "json": "TEXT"}

#: indexes beyond the first argument's, on what readers look up (signals of an org and dimension,
#: a value and its conflict by org, dimension and policy, a signal's citations by source)
_INDEXES = {
    "signal": [(0,), (1, 2)],
    "value": [(0, 1, 2)], "conflict": [(0, 1, 2)], "effective": [(0, 1)], "admissible": [(0, 1)],
    "held": [(0, 1)], "evclass": [(0, 1)], "band": [(0, 1)],
    "cites": [(0,), (1,)], "vcite": [(0,), (2,)], "stake": [(0,), (1,)], "money": [(0,), (1,)],
    "tie": [(0,), (1,)], "role": [(0,), (1,)],
}


_FACT_COLS = "n, kind, id, fid, file, line, col, flags, src, span, vals"



def _header_ok(path: Path) -> bool:
    """A truncated SQLite file is shorter than the page count its header records."""
    with open(path, "rb") as fh:
        head = fh.read(100)
    if len(head) < 100 or not head.startswith(b"SQLite format 3\0"):
        return False
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(head[28:32], "big")
    return pages > 0 and path.stat().st_size == page * pages


def check_schema(entries: Iterable[Tuple[str, str, str, Optional[str]]], complete: bool = True) -> None:
    """Raise StoreError unless ``entries`` (sqlite_master's type, name, tbl_name, sql) are a store's:
    the fixed tables as written (all of them, if ``complete``), relation tables of plain columns,
    indexes on plain columns, and no view or trigger (a view runs SQL when read: a planted recursive
    one would never end). An old layout's ``_meta`` passes, so that its schema number says "miss"."""
    seen = set()
    for kind, name, _table, sql in entries:
        if kind == "table":
            ok = sql == FIXED[name] if name in FIXED else bool(sql and _RELATION.fullmatch(sql))
        elif kind == "index":
            ok = name.startswith("sqlite_autoindex_") if sql is None else bool(_INDEX.fullmatch(sql))
        else:
            ok = False
        if not ok:
            raise StoreError(f"its {kind} {name!r} is not one a store has")
        seen.add(name)
    missing = sorted(set(FIXED) - seen)
    if missing and complete:
        raise StoreError(f"it has no table {missing[0]}")


def is_store_layout(entries: Iterable[Tuple[str, str, str, Optional[str]]]) -> bool:
    """Whether sqlite_master's rows have a store's ``_meta`` table (a store of any schema: an old one)."""
    return any(kind == "table" and name == "_meta" for kind, name, _t, _s in entries)
