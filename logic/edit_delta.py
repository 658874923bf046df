"""An edited world's store written from the lines that changed (issue 27; docs/store.md, "Edits").

logic/edit.py's :func:`~provlog.logic.edit.update` takes the whole new world (every statement parsed,
matched with the store's, made into EDB rows and hashed). :func:`update` takes a
:class:`~provlog.logic.reread.Delta` instead (one file's region re-read) and does the same edit,
paying for what it touches:

* the region's statements are matched with the old ones (edit.py ``_diff``); after the region the
  statements keep their content, and a line count that changed moves the ids ``kind@file:line`` of
  those declaring none: such a statement of a kind other than signal and cite is an edit (its rows
  may carry the id), as a cold comparison of fact ids would find;
* the EDB rows are made from the statements of every kind but signals and cites (a fifth of a
  generated world), read from the store, and from the signals and cites of the orgs derived again;
* ``_facts``, ``_canon`` and every EDB row's statement numbers are moved by ranges, in SQL, and the
  fingerprint is the hash of the store's sorted ``_canon`` (byte for byte a cold load's).

Everything else (the global relations, the orgs derived again, what is written) is edit.py's.

    >>> update(target, old, delta, inputs, rules_digest, as_of)   # doctest: +SKIP
    ['o00001']
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Dict, List, Optional, Set, Tuple

from ..facts.model import Fact, FactSet
from . import edb, spread
from . import edit as E
from . import store as S
from .locality import EDITABLE, EDITED
from .reread import Delta


class _AllBut:
    """Every kind but ``these`` (edit.py ``_diff``'s kinds compared by fact id too)."""

    def __init__(self, these):
        self.these = set(these)

    def __contains__(self, kind) -> bool:
        return kind not in self.these


def update(target: Path, old: S.Stored, d: Delta, inp: Dict[str, Any], rules: str, as_of: Optional[str]) -> List[str]:
    """Write the store of the world ``d`` re-read (made from ``inp``; ``rules``: the fingerprint's rules
    hash) to ``target`` from ``old``; the orgs re-derived. Refused as :func:`edit.update`."""
    from ..grammar.parser import paused_gc

    with paused_gc():
        return _update(target, old, d, inp, rules, as_of)


def _update(target, old: S.Stored, d: Delta, inp, rules: str, as_of) -> List[str]:
    loc, ways = E.proved(old, inp)
    fact_rows, matched, touched, removed, added = E._diff(d.was, d.new, _AllBut(EDITABLE), start=d.n0)
    for row in _renamed(d):  # statements after the region whose fact id moved with their line
        removed.append(S.fact_from_row(row))
        added.append(S.fact_from_row(d.moved(row)))
    world, number = _world(d, {f.kind for f in removed + added})
    origins, day = edb.Origins(), edb.world_as_of(world, as_of)
    rows = _rows(old, edb.rows(world, day, origins), removed + added, day)
    orgs = E._orgs(old, SimpleNamespace(signals={f["id"]: f for f in d.new if f.kind == "signal"}), touched)
    try:
        whole = _Whole(d, {f.kind for f in removed + added})
        tables, glob, derived = E._global(old, whole, rows, removed, added, as_of, loc)
        orgs |= spread.orgs({**{p: c for p, c in tables.items() if c}, **glob}, ways, old)
    except LookupError as e:
        raise E.Refused(str(e))
    if derived is not None:
        whole.read_all(derived)
        orgs |= E._derived_moved(old, derived)
    _evidence(d, orgs, day, rows, origins, number)
    new, signal_org = E._rederive(old, world, rows, origins, orgs, loc, derived,
                                  spread.Fresh(glob), number) if orgs else ({}, {})
    with S._replacing(Path(target), old.seals) as tmp:  # the tables the copy keeps as they were keep their seals
        shutil.copyfile(old.path, tmp)
        con = S.editing(tmp)  # notes the tables it writes: the others keep their pages (store/pages.py)
        try:
            renumbered = bool(d.shift) or any(o != n for o, n in matched.items())
            E._apply(con, old, loc, orgs, new, signal_org, lambda c: _renumber(c, old, d, matched, set(tables)),
                     set(tables), renumbered)
            E._rewrite(con, old, tables, glob, origins, number, renumbered)
            if derived is not None:
                E._derived_table(con, derived)
            _facts_table(con, d, fact_rows)
            _meta(con, d, inp, rules, orgs, tables, glob)
            con.commit()
        finally:
            con.close()
    return sorted(orgs)


def _renamed(d: Delta) -> List[Tuple]:
    """The old ``_facts`` rows after the region, of kinds other than signal and cite, whose fact id is
    their ``kind@file:line`` and whose line moved."""
    if not d.lines:
        return []
    return d.old.query(f"SELECT {S._FACT_COLS} FROM _facts WHERE file = ? AND line >= ? AND kind NOT IN "
                       f"('signal', 'cite') AND fid = kind || '@' || file || ':' || line ORDER BY n", (d.file, d.end))


def _world(d: Delta, kinds: Set[str]) -> Tuple[FactSet, Dict[int, int]]:
    """Every statement of the new world of ``kinds`` (those the edit wrote, signals and cites aside) and
    its ``as-of``, and each one's number."""
    world, number = FactSet(), {}
    for n, f in d.facts_of(sorted((set(kinds) | {"as-of"}) - set(EDITABLE))):
        world.add(f)
        number[id(f)] = n
    return world, number


def _rows(old: S.Stored, mine: Dict[str, List[Tuple]], changed: List[Fact], as_of) -> Dict[str, List[Tuple]]:
    """The new world's EDB rows but the signals' and cites' (EDITED): those of the tables the ``changed``
    statements write from ``mine`` (the rows of every statement of their kinds: each table is written by
    one kind, tests/test_edit_delta.py), the rest (unchanged) read from the store."""
    written = set(spread.dirty_tables(changed, as_of))
    return spread.Rows(old, {**{p: [] for p in EDITED}, **{p: mine[p] for p in written if p not in EDITED}})


class _Whole:
    """The statements the derived signals rest on (logic/program.py ``_derive_signals`` numbers them by
    their keys' statements and cites their statements by fact id): those of the kinds the previous
    derived signals cite and of the kinds edited, read when first asked for."""

    def __init__(self, d: Delta, edited: Set[str]):
        self._d = d
        # the kinds of the fact ids their facts and keys name ("kind:id", "kind@file:line"), read from their
        # JSON text at once (a string inside a key that is a list may add a kind: read too, never missed)
        text = d.old.query("SELECT group_concat(facts || ' ' || key, ' ') FROM _derived")[0][0] or ""
        cited = set(_CITED.findall(text))
        self.kinds = sorted((cited | set(edited) | {"as-of"}) - set(EDITABLE))

    def of(self, kind: str) -> List[Fact]:
        return [f for _, f in self._d.facts_of([kind])]

    def __iter__(self):
        return iter([f for _, f in self._d.facts_of(self.kinds)])

    def statements(self, fids: Set[str]) -> Dict[str, Fact]:
        """The new world's statements of these fact ids (of the kinds iterating reads), by id: looked up
        in the store by id (``kind:id``) or by fact id (``kind@file:line``: as stored, or its line before
        the region moved it), those of the region from the new statements."""
        ids: Dict[str, List[str]] = defaultdict(list)
        was: List[str] = []
        for fid in sorted(fids):
            kind, sep, ident = fid.partition(":")
            if "@" in kind:
                kind, _, place = fid.partition("@")
                file, _, line = place.rpartition(":")
                if kind in self.kinds and line.isdigit():
                    was += [fid, f"{kind}@{file}:{int(line) - self._d.lines}"]
            elif sep and kind in self.kinds:
                ids[kind].append(ident)
        rows: List[Tuple] = []
        for part in _chunks(was):
            rows += self._d.stored(f"fid IN ({','.join('?' * len(part))})", part)
        for kind, idents in ids.items():
            for part in _chunks(idents):
                rows += self._d.stored(f"kind = ? AND id IN ({','.join('?' * len(part))})", [kind] + part)
        out = {f.fid: f for f in map(S.fact_from_row, rows) if f.fid in fids}
        out.update((f.fid, f) for f in self._d.new if f.fid in fids and f.kind in self.kinds)
        return out

    def read_all(self, derived: Dict[str, Any]) -> None:
        """Refused if a new derived signal's key names a statement of a kind not read (its number
        would then differ from a whole derivation's)."""
        for s in derived.values():
            kind = _kind_of(s.key)
            if kind and kind not in self.kinds and kind not in EDITABLE:
                raise E.Refused(f"a derived signal's key names a {kind} statement")


_CITED = re.compile(r'"([a-z][a-z-]*)[:@]')


def _kind_of(fid: Any) -> Optional[str]:
    """The kind of statement a fact id names (``kind:id``, ``kind@file:line``), else None."""
    if not isinstance(fid, str):
        return None
    m = re.match(r"([a-z][a-z-]*)[:@]", fid)
    return m.group(1) if m else None


def _evidence(d: Delta, orgs: Set[str], as_of: str, rows: Dict[str, List[Tuple]], origins: edb.Origins,
              number: Dict[int, int]) -> None:
    """The EDB rows (and origins, numbers) of the signals and citations of ``orgs`` in the new world."""
    if not orgs:
        return
    marks = ",".join("?" * len(orgs))
    sids = {s for (s,) in d.old.query(f"SELECT signal FROM signal WHERE org IN ({marks})", sorted(orgs))}
    sids |= {f["id"] for f in d.new if f.kind == "signal" and f["org"] in orgs}
    ns: Set[int] = set()
    for part in _chunks(sorted(sids)):
        q = ",".join("?" * len(part))
        ns |= {n for (n,) in d.old.query(f"SELECT n FROM _facts WHERE kind = 'signal' AND id IN ({q})", part)}
        ns |= {n for (fs,) in d.old.query(f"SELECT _facts FROM cites WHERE signal IN ({q})", part) for n in S.decode(fs)}
    got: List[Tuple[int, Fact]] = []
    for part in _chunks(sorted(ns)):
        got += [(r[0], S.fact_from_row(r)) for r in d.stored(f"n IN ({','.join('?' * len(part))})", part)]
    got += [(d.n0 + i, f) for i, f in enumerate(d.new) if f.kind in EDITABLE]
    mine = FactSet()
    for n, f in sorted(got, key=lambda p: p[0]):
        if (f["org"] in orgs) if f.kind == "signal" else (f.kind == "cite" and f["signal"] in sids):
            mine.add(f)
            number[id(f)] = n
    theirs = edb.Origins()
    for pred, rs in edb.rows(mine, as_of, theirs).items():
        if pred in EDITED:
            rows[pred] = rs
            origins._by[pred] = theirs._by.get(pred, {})


def _chunks(values: List, size: int = 500) -> List[List]:
    return [values[i:i + size] for i in range(0, len(values), size)]


def _renumber(con: sqlite3.Connection, old: S.Stored, d: Delta, matched: Dict[int, int], skip: Set[str]) -> None:
    """Every kept EDB row's ``_facts`` in the new numbering: a row resting on one statement after the
    region moved by ``d.shift`` in SQL; one resting on several, or on the region's, one by one."""
    lo, hi = d.n0, d.n0 + len(d.was)
    if not d.shift and all(o == n for o, n in matched.items()):
        return  # no statement moved (a changed one keeps its number; its rows are written again)
    num = "CAST(substr(_facts, 2, length(_facts) - 2) AS INTEGER)"  # "[17]" -> 17 (S.encode's form)

    def now(n: int) -> int:
        if lo <= n < hi:
            if n not in matched:
                raise E.Refused("a row rests on a changed statement")
            return matched[n]
        return n + d.shift if n >= hi else n

    for name, (_, _, _, is_edb) in old.rels.items():
        if not is_edb or name in skip:
            continue
        t = S._q(name)
        changes = [(S.encode([now(n) for n in S.decode(fs)]), rowid) for rowid, fs in con.execute(
            f"SELECT rowid, _facts FROM {t} WHERE _facts LIKE '%,%' OR ({num} >= ? AND {num} < ?)", (lo, hi))]
        if d.shift:
            con.execute(f"UPDATE {t} SET _facts = '[' || ({num} + ?) || ']' "
                        f"WHERE _facts NOT LIKE '%,%' AND _facts != '[]' AND {num} >= ?", (d.shift, hi))
        con.executemany(f"UPDATE {t} SET _facts = ? WHERE rowid = ?", changes)


def _facts_table(con: sqlite3.Connection, d: Delta, rows: List[Tuple]) -> None:
    """``_facts``, ``_canon`` and ``_texts`` of the new world: the region's rows replaced, the later ones
    moved (numbers; in the file, lines and the ids ``kind@file:line``)."""
    lo, hi = d.n0, d.n0 + len(d.was)
    for t in ("_facts", "_canon"):
        con.execute(f"DELETE FROM {t} WHERE n >= ? AND n < ?", (lo, hi))
        if d.shift:  # through negative numbers: the key is unique at every step
            con.execute(f"UPDATE {t} SET n = -(n + ?) WHERE n >= ?", (d.shift, hi))
            con.execute(f"UPDATE {t} SET n = -n WHERE n < 0")
    if d.lines:
        con.execute("UPDATE _facts SET fid = CASE WHEN fid = kind || '@' || file || ':' || line "
                    "THEN kind || '@' || file || ':' || (line + ?) ELSE fid END, line = line + ? "
                    "WHERE file = ? AND line >= ?", (d.lines, d.lines, d.file, d.end))
    con.executemany("INSERT INTO _facts VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.executemany("INSERT INTO _canon VALUES (?, ?)", [(d.n0 + i, f.canon()) for i, f in enumerate(d.new)])
    con.execute("INSERT OR REPLACE INTO _texts VALUES (?, ?)", (d.file, d.text))


def fingerprint(con: sqlite3.Connection, rules: str) -> Dict[str, str]:
    """The fingerprint of the world whose ``_canon`` ``con`` holds (queries/loading.py's, byte for byte)."""
    canons = sorted(c for (c,) in con.execute("SELECT canon FROM _canon"))
    return {"facts": hashlib.sha256("\n".join(canons).encode("utf-8")).hexdigest(), "rules": rules}


def _meta(con: sqlite3.Connection, d: Delta, inp, rules: str, orgs, tables, glob) -> None:
    note = {"orgs": len(orgs), "tables": sorted(tables), "relations": sorted(glob),
            "read": {"file": d.file, "lines": [d.start, d.end + d.lines], "statements": len(d.new)}}
    meta = {"key": S.key_of(inp), "inputs": json.dumps(inp, sort_keys=True),
            "fingerprint": json.dumps(fingerprint(con, rules)), "statements": str(d.total), "edit": json.dumps(note)}
    con.executemany("INSERT OR REPLACE INTO _meta VALUES (?, ?)", sorted(meta.items()))
