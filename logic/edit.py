"""An edited world's store, re-derived only where the edit reaches (issues 14, 27; docs/store.md, "Edits").

When a world misses its store and the previous store of the same world (same
path, same rules and options, made by this user) differs from it in some
statements, :func:`update` writes the new store from the previous one:

* a ``signal`` or ``cite`` statement touches its signal's org (before and
  after the edit): logic/locality.py proves from the rules that its rows
  reach no other org's;
* any other statement (a stake, a source, a role, ...) rewrites the EDB
  tables it makes, derives again whole the global relations they reach
  (the structural rules, the derived signals, ...; logic/spread.py), and
  touches the orgs whose rows the changed global rows reach
  (``locality.routes``) and the orgs of every derived signal that changed.

The orgs touched are re-derived alone, over the unchanged rest, and their rows
replace theirs in every relation the edit reaches. Anything the proof does
not cover raises :class:`Refused`, and the caller derives the world whole.

    >>> update(target, previous, facts, inputs, fingerprint, as_of)  # doctest: +SKIP
    ['o00001']
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from collections import Counter, defaultdict, deque
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..facts.model import Fact, FactSet
from . import edb, spread
from . import store as S
from .locality import EDITABLE, EDITED, Locality, NotLocal, analyse, routes


class Refused(Exception):
    """Why an edit is derived whole (a statement of another kind changed, ...)."""


@lru_cache(maxsize=1)
def locality() -> Locality:
    """The independence RULES' locality, proved once per process (NotLocal if they are not local)."""
    from .program import RULES

    return analyse(RULES.rules)


@lru_cache(maxsize=1)
def reach() -> Dict[str, List[Optional[Any]]]:
    """How a changed row of each global relation the per-org rules read reaches orgs (locality.routes)."""
    from .program import RULES

    return routes(RULES.rules, locality())


def update(target: Path, old: S.Stored, facts: FactSet, inp: Dict[str, Any], fingerprint: Dict[str, str],
           as_of: Optional[str], texts: Optional[Dict[str, str]] = None) -> List[str]:
    """Write the store of ``facts`` (made from ``inp``; ``texts``: its files' texts, logic/reread.py) to
    ``target`` from ``old``, the previous store of the same world; the orgs it re-derived. Refused if the
    edit is not one :mod:`locality` covers."""
    from ..grammar.parser import paused_gc

    with paused_gc():  # rows and statements by the hundred thousand, none in a cycle (as Derivation.run)
        return _update(target, old, facts, inp, fingerprint, as_of, texts or {})


def proved(old: S.Stored, inp: Dict[str, Any]) -> Tuple[Locality, Dict[str, List[Optional[Any]]]]:
    """The RULES' locality and routes, if ``old`` was made from the same inputs but the files; else Refused."""
    made = json.loads(old.meta["inputs"])
    if {k: v for k, v in made.items() if k not in ("files", "listed")} != \
            {k: v for k, v in inp.items() if k not in ("files", "listed")}:
        raise Refused("the rules, provlog, the options or the date changed")
    try:
        return locality(), reach()
    except NotLocal as e:
        raise Refused(str(e))


def _update(target, old, facts, inp, fingerprint, as_of, texts) -> List[str]:
    loc, ways = proved(old, inp)
    origins = edb.Origins()
    rows = edb.rows(facts, as_of, origins)
    # a statement's fact id (its file:line, if it declares no id) matters where rows carry it
    named = {v for rs in rows.values() for r in rs for v in r if type(v) is str}
    numbered = {f.kind for f in facts if f.fid in named}
    was = old.query("SELECT * FROM _facts ORDER BY n")
    fact_rows, numbers, touched, removed, added = _diff(was, facts, numbered)
    orgs = _orgs(old, facts, touched)
    try:
        tables, glob, derived = _global(old, facts, rows, removed, added, as_of, loc)
        orgs |= spread.orgs({**{p: c for p, c in tables.items() if c}, **glob}, ways, old)
    except LookupError as e:  # what logic/spread.py cannot update in place
        raise Refused(str(e))
    if derived is not None:
        orgs |= _derived_moved(old, derived)
    new, signal_org = _rederive(old, facts, rows, origins, orgs, loc, derived,
                                spread.Fresh(glob)) if orgs else ({}, {})
    number = {id(f): n for n, f in enumerate(facts, 1)}
    with S._replacing(Path(target), old.seals) as tmp:  # the tables the copy keeps as they were keep their seals
        shutil.copyfile(old.path, tmp)
        con = S.editing(tmp)  # notes the tables it writes: the others keep their pages (store/pages.py)
        try:
            _apply(con, old, loc, orgs, new, signal_org, numbers, set(tables), any(o != n for o, n in numbers.items()))
            _rewrite(con, old, tables, glob, origins, number, any(o != n for o, n in numbers.items()))
            if derived is not None:
                _derived_table(con, derived)
            _facts_table(con, was, fact_rows)
            S.write_texts(con, facts, texts)
            note = {"orgs": len(orgs), "tables": sorted(tables), "relations": sorted(glob)}
            meta = {"key": S.key_of(inp), "inputs": json.dumps(inp, sort_keys=True),
                    "fingerprint": json.dumps(fingerprint), "files": json.dumps(list(facts.files)),
                    "statements": str(len(facts)), "edit": json.dumps(note)}
            con.executemany("INSERT OR REPLACE INTO _meta VALUES (?, ?)", sorted(meta.items()))
            con.commit()
        finally:
            con.close()
    return sorted(orgs)


def _global(old: S.Stored, facts: FactSet, rows, removed: List[Fact], added: List[Fact], as_of, loc):
    """The EDB tables statements of other kinds than signals and cites wrote (logic/spread.py), the
    global relations they reach derived again (those that moved), and the new derived signals (None:
    unchanged)."""
    if not removed and not added:
        return {}, {}, None
    if any(f.kind == "as-of" for f in removed + added):
        raise Refused("the world's as-of date changed")
    tables = spread.dirty(old, rows, removed, added, edb.world_as_of(facts, as_of))
    moved = {p for p, c in tables.items() if c}
    # a derived signal cites its proofs' statements (their spans and sources) and is numbered by its key's
    # statement (its canonical text, program.py _sort_key): one of them changed
    changed = {f.fid for f in removed + added}
    remake = {org for (org, fs, key) in old.query("SELECT org, facts, key FROM _derived")
              if changed.intersection(S.decode(fs) + [k for k in [S.decode(key)] if isinstance(k, str)])}
    if not moved and not remake:
        return tables, {}, None
    glob, derived = spread.rederive(old, rows, facts, {p: tables[p] for p in moved}, loc, remake)
    return tables, glob, derived


def _derived_moved(old: S.Stored, derived: Dict[str, Any]) -> Set[str]:
    """The orgs of every derived signal that is new, gone or changed (in any field)."""
    from .program import DerivedSignal

    orgs = getattr(derived, "orgs", None)  # (spread.Remade: the others' are the store's, unchanged)
    if orgs is None:
        rows = old.query("SELECT * FROM _derived")
    else:
        rows = old.query(f"SELECT * FROM _derived WHERE org IN ({','.join('?' * len(orgs))})", sorted(orgs))
        derived = {k: s for k, s in derived.items() if s.org in orgs}
    was = {s.id: s for s in (S.derived_signal(r, DerivedSignal) for r in rows)}
    return {s.org for k in set(was) | set(derived) for s in (was.get(k), derived.get(k))
            if s is not None and was.get(k) != derived.get(k)}


def _diff(was: List[Tuple], facts, numbered, start: int = 1):
    """The new ``_facts`` rows, each unchanged statement's old number -> new number, the signals whose
    statements changed (``was``: the previous ``_facts`` rows), and the statements of other kinds
    removed and added. Statements compare by content, and by fact id for the ``numbered`` kinds (whose
    rows, and so derived signals, carry it): a cite or resolution moved to another line is the same,
    a stake is not."""
    waiting: Dict[Tuple, deque] = defaultdict(deque)
    for row in was:
        n, kind, _, fid, _, _, _, flags, src, span, vals = row
        waiting[(kind, fid if kind in numbered else None, flags, src, span, vals)].append(row)
    rows, numbers, touched, removed, added = [], {}, set(), [], []
    for n, f in enumerate(facts, start):  # (``start``: the first number of a region, logic/edit_delta.py)
        row = S._fact_row(n, f)
        rows.append(row)
        _, kind, _, fid, _, _, _, flags, src, span, vals = row
        q = waiting.get((kind, fid if kind in numbered else None, flags, src, span, vals))
        if q:
            numbers[q.popleft()[0]] = n
        elif kind in EDITABLE:
            touched.add(f["id"] if kind == "signal" else f["signal"])
        else:
            added.append(f)
    for q in waiting.values():
        for row in q:
            f = S.fact_from_row(row)
            if f.kind in EDITABLE:
                touched.add(f["id"] if f.kind == "signal" else f["signal"])
            else:
                removed.append(f)
    return rows, numbers, touched, removed, added


def _facts_table(con: sqlite3.Connection, was: List[Tuple], rows: List[Tuple]) -> None:
    """``_facts`` made the new statements' table (``was`` the old), rewriting only the rows that differ."""
    con.execute("DELETE FROM _facts WHERE n > ?", (len(rows),))
    con.executemany("INSERT OR REPLACE INTO _facts VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    [r for i, r in enumerate(rows) if i >= len(was) or was[i] != r])


def _orgs(old: S.Stored, facts: FactSet, signals: Set[str]) -> Set[str]:
    """The orgs of the changed signals, before and after the edit."""
    orgs: Set[str] = set()
    ids = sorted(signals)
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        got = dict(old.query(f"SELECT signal, org FROM signal WHERE signal IN ({','.join('?' * len(part))})", part))
        for s in part:
            mine = {got.get(s), facts.signals[s]["org"] if s in facts.signals else None} - {None}
            if not mine:
                raise Refused(f"signal {s} belongs to no org")
            orgs |= mine
    return orgs


def _rederive(old: S.Stored, facts: FactSet, rows: Dict[str, List[Tuple]], origins: edb.Origins,
              orgs: Set[str], loc: Locality, derived_all: Optional[Dict[str, Any]] = None,
              fresh: Optional[Dict[str, List[Tuple]]] = None, number: Optional[Dict[int, int]] = None):
    """Every affected relation's rows of ``orgs``, derived from their signals and every unaffected row
    (``rows``: the world's EDB; ``fresh``: global relations derived again, logic/spread.py; the rest
    read from the store); and each signal's org (recorded ones, and derived ones of ``orgs``).
    ``derived_all``: the new derived signals, if they were made again (else the store's are kept)."""
    from .program import DerivedSignal, signal_rows

    if derived_all is None:
        placeholders = ",".join("?" * len(orgs))
        derived = [S.derived_signal(r, DerivedSignal) for r in old.query(
            f"SELECT * FROM _derived WHERE org IN ({placeholders}) ORDER BY rowid", sorted(orgs))]
    else:
        derived = [s for s in derived_all.values() if s.org in orgs]
    signal_org = {r[0]: r[1] for r in rows["signal"]}
    signal_org.update((s.id, s.org) for s in derived)

    def org_of(name: str, row: Tuple) -> Optional[str]:
        i, how = loc.key(name)
        return row[i] if how == "org" else signal_org.get(row[i])

    signals = {s for s, o in signal_org.items() if o in orgs}  # every edited row but signal's names its signal first
    mine = spread.Rows(old, {pred: [r for r in rows[pred] if r[0] in signals] for pred in EDITED}, rows)
    program = _small_program(old, mine, signal_rows(derived), loc, fresh or {}, orgs, signals)
    if number is None:  # (logic/edit_delta.py numbers a part of the world)
        number = {id(f): n for n, f in enumerate(facts, 1)}
    new: Dict[str, Tuple[List[Tuple], Optional[List[str]]]] = {}
    for name in loc.affected:
        if name in old.funcs:
            got = program.match(name, old.funcs[name][0], [], function=True)
        elif name not in old.rels:
            continue  # not stored (the engine answers it only with an argument bound)
        elif name not in program.tables:
            raise Refused(f"{name} was not kept")
        else:
            got = program.table(name)
        kept = [tuple(r) for r in got if org_of(name, r) in orgs]
        fs = None
        if name in EDITED:
            fs = [S.encode([number[id(f)] for f in origins.get((name, r))]) for r in kept]
        new[name] = (kept, fs)
    return new, signal_org


def _small_program(old: S.Stored, rows: Dict[str, List[Tuple]], derived_rows: Dict[str, List[Tuple]],
                   loc: Locality, fresh: Dict[str, List[Tuple]], orgs: Set[str] = frozenset(),
                   signals: Set[str] = frozenset()):
    """A program over ``rows`` (the edited orgs' signal rows, every other EDB row) and ``derived_rows``
    with every affected relation materialized, each only for ``orgs`` (its rows whose anchor is one of
    them, or one of their ``signals``: all a row of theirs joins, logic/locality.py) if it can be joined
    so; what the edit does not reach read from ``fresh`` or the previous store, not derived."""
    from . import strata
    from .engine import Program
    from .program import PER_POLICY, RULES
    from .syntax import Atom

    rules = RULES.rules
    goals = [n for n in loc.affected if n not in EDITED and (n in old.rels or n in old.funcs)]
    components = strata.plan(rules, goals)
    heads = {r.head_name: r.head_literal for r in rules}
    kept = {n for comp in components for n in comp if n not in loc.affected and n in old.rels and isinstance(heads[n], Atom)}
    read = _read_by(rules, [n for comp in components for n in comp if n not in kept], kept)
    program = Program()
    for pred, arity in edb.PREDICATES.items():
        program.declare(pred, arity)
        if pred in read:  # (only the tables a relation derived here reads: the rest are never decoded)
            program.assert_rows(pred, rows[pred])
    for pred, rs in derived_rows.items():
        program.assert_rows(pred, rs)
    program.load_rules([r.text for r in rules])
    for name in kept & read:
        program.replace_with_facts(name, old.rels[name][0], fresh[name] if name in fresh else old.rows(name))
    keys = {}
    for n in loc.affected:
        if n not in EDITED and orgs:
            i, how = loc.key(n)
            keys[n] = (i, sorted(orgs if how == "org" else signals))
    strata.materialize(program, rules, components, set(kept), PER_POLICY, keys=keys)
    return program


def _read_by(rules, derived: List[str], kept: Set[str]) -> Set[str]:
    """What deriving ``derived`` reads: their rules' body relations, and those of any relation read that
    keeps its rules (not ``kept`` as rows, not EDB)."""
    from . import strata

    out: Set[str] = set()
    todo = [b for r in rules if r.head_name in set(derived) for b in strata.body_relations(r)]
    while todo:
        n = todo.pop()
        if n in out:
            continue
        out.add(n)
        if n not in kept and n not in edb.PREDICATES:
            todo += [b for r in rules if r.head_name == n for b in strata.body_relations(r)]
    return out


def _apply(con: sqlite3.Connection, old: S.Stored, loc: Locality, orgs: Set[str],
           new: Dict[str, Tuple[List[Tuple], Optional[List[str]]]], signal_org: Dict[str, str],
           numbers, skip: Set[str] = frozenset(), renumbered: bool = True) -> None:
    """In the copy of the previous store: each affected relation's rows of ``orgs`` replaced by ``new``
    (only the rows that differ deleted and inserted, :func:`_row_diff`: a table whose rows of ``orgs``
    are those already is left as it was), and every kept EDB row's statements renumbered (but in the
    tables ``skip``, written again whole; ``renumbered``: whether any statement's number moved)."""
    con.execute("PRAGMA journal_mode=OFF")
    con.execute("PRAGMA synchronous=OFF")
    q = S._q
    gone = {"org": sorted(orgs)}
    placeholders = ",".join("?" * len(orgs))
    before = {s for (s,) in old.query(f"SELECT signal FROM signal WHERE org IN ({placeholders})", sorted(orgs))}
    gone["signal"] = sorted(before | {s for s, o in signal_org.items() if o in orgs})
    for how, values in gone.items():
        con.execute(f"CREATE TEMP TABLE _gone_{how} (v TEXT PRIMARY KEY)")
        con.executemany(f"INSERT INTO _gone_{how} VALUES (?)", [(v,) for v in values])
    whole = {}
    for name, got in new.items():
        # (an EDB table's rows carry statement numbers: compared only if none moved, else renumbered below)
        diff = None if renumbered and got[1] is not None else _row_diff(con, old, loc, name, got)
        if diff is None:
            whole[name] = got
        elif diff[0] or diff[1]:
            _write_diff(con, name, *diff)
            arity, _, cols, _ = old.funcs.get(name) or old.rels[name]
            _emptied(con, name, arity, cols, name in old.funcs)
    new = whole
    for name in new:
        _, kinds, cols, _ = old.funcs.get(name) or old.rels[name]
        i, how = loc.key(name)
        if kinds[i] != "text" and con.execute(f"SELECT 1 FROM {q(name)} LIMIT 1").fetchone():
            raise Refused(f"{name} keeps its {how}s in a column of kind {kinds[i]}")
        con.execute(f"DELETE FROM {q(name)} WHERE {q(cols[i])} IN (SELECT v FROM _gone_{how})")
    if callable(numbers):  # logic/edit_delta.py renumbers by ranges, in SQL
        numbers(con)
    elif any(o != n for o, n in numbers.items()):
        _renumber(con, old, numbers, skip)
    for name, (rows, fs) in new.items():
        _insert(con, old, name, rows, fs)


def _insert(con: sqlite3.Connection, old: S.Stored, name: str, rows: List[Tuple], fs: Optional[List[str]]) -> None:
    """A relation's new rows of the edited orgs (``fs``: their statements, if EDB) added to its table, or
    the table written again whole if a value does not fit its column's kind."""
    q = S._q
    function = name in old.funcs
    arity, kinds, cols, is_edb = old.funcs[name] if function else old.rels[name]
    out = _as_stored(kinds, rows, fs)
    if out is not None:
        _write_diff(con, name, [], out)
    else:  # a column's kind changes (a relation empty before, a fraction where all were ints): rewritten
        kept = con.execute(f"SELECT {', '.join(map(q, cols))}{', _facts' if is_edb else ''} FROM {q(name)} "
                           f"ORDER BY rowid").fetchall()
        if kept and fs is not None and not is_edb:
            raise Refused(f"{name}'s kept rows name no statements")
        rel = S.decoded_rows(kinds, kept) + rows
        # an EDB table stored empty (no statement's row: derived, of the default kinds) is EDB again
        facts = ([r[arity] for r in kept] if is_edb else []) + list(fs) if is_edb or fs is not None else None
        con.execute(f"DROP TABLE {q(name)}")
        con.execute("DELETE FROM _relations WHERE name = ?", (name,))
        S.create_table(con, name, arity, rel, cols, facts,
                       "function" if function else "edb" if facts is not None else "derived")
    _emptied(con, name, arity, cols, function)


def _emptied(con: sqlite3.Connection, name: str, arity: int, cols: List[str], function: bool) -> None:
    """A table the edit left without rows made again as a whole derivation stores a relation without
    rows (no statement made one: not EDB, of the default kinds), so that the two stores are the same."""
    q = S._q
    if con.execute(f"SELECT 1 FROM {q(name)} LIMIT 1").fetchone() is None:
        con.execute(f"DROP TABLE {q(name)}")
        con.execute("DELETE FROM _relations WHERE name = ?", (name,))
        S.create_table(con, name, arity, [], cols, None, "function" if function else "derived")


def _row_diff(con, old: S.Stored, loc: Locality, name: str, new: Tuple[List[Tuple], Optional[List[str]]]
              ) -> Optional[Tuple[List[int], List[Tuple]]]:
    """Of a relation's stored rows of the orgs an edit derived again, the rowids of those not among
    ``new`` (rows, and statements of an EDB row), and the new rows (as stored) not among them; None if a
    new value does not fit its column's kind. The copy is read un-noted (store/pages.py): a table found
    the same is left as it was and keeps its seal; one written is checked in the old store first."""
    rows, fs = new
    _, kinds, cols, is_edb = old.funcs.get(name) or old.rels[name]
    i, how = loc.key(name)
    want = _as_stored(kinds, rows, fs if is_edb else None) if kinds[i] == "text" else None
    if want is None:
        return None
    q = S._q
    con.unnoted = True
    try:
        had = con.execute(f"SELECT rowid, {', '.join(map(q, cols))}{', _facts' if is_edb else ''} FROM {q(name)} "
                          f"WHERE {q(cols[i])} IN (SELECT v FROM _gone_{how})").fetchall()
    finally:
        con.unnoted = False
    return _differ(had, want)


#: the types of the values (None aside) a column of each kind holds as a whole derivation writes it; a
#: ``json`` column holds any
_KIND_TYPES = {"int": {int}, "text": {str}, "num": {int, Fraction}}


def _as_stored(kinds: Sequence[str], rows: List[Tuple], facts: Optional[List[str]]) -> Optional[List[Tuple]]:
    """Rows as a table stores them (SQL values, then their statements if ``facts``), column by column
    (ints and text are stored as they are); None if a value does not fit its column's kind."""
    columns = list(zip(*rows)) if rows else [() for _ in kinds]
    out = []
    for kind, col in zip(kinds, columns):
        if kind != "json" and not set(map(type, col)) - {type(None)} <= _KIND_TYPES[kind]:
            return None
        out.append(col if kind in ("int", "text") else [S._to_sql(kind, v) for v in col])
    if facts is not None:
        out.append(facts)
    return list(zip(*out))


def _differ(had: List[Tuple], want: List[Tuple]) -> Tuple[List[int], List[Tuple]]:
    """Of stored rows ``had`` (rowid first), the rowids of those not among ``want`` (a row stored twice
    and wanted once: one of them), and the wanted rows not stored."""
    want = Counter(want)
    gone: List[int] = []
    for rowid, *row in had:
        row = tuple(row)
        if want[row] > 0:
            want[row] -= 1
        else:
            gone.append(rowid)
    return gone, list(want.elements())


def _write_diff(con: sqlite3.Connection, name: str, gone: List[int], come: List[Tuple]) -> None:
    q = S._q
    con.executemany(f"DELETE FROM {q(name)} WHERE rowid = ?", [(r,) for r in gone])
    if come:
        con.executemany(f"INSERT INTO {q(name)} VALUES ({','.join('?' * len(come[0]))})", come)
    con.execute(f"UPDATE _relations SET rows = (SELECT COUNT(*) FROM {q(name)}) WHERE name = ?", (name,))


def _rewrite(con: sqlite3.Connection, old: S.Stored, tables: Dict[str, "spread.Changed"],
             glob: Dict[str, "spread.Changed"], origins: edb.Origins, number: Dict[int, int],
             renumbered: bool = True) -> None:
    """The EDB ``tables`` statements of other kinds wrote and the global relations that moved (``glob``),
    each made what a whole derivation writes: its rows that differ (with their statements) deleted and
    inserted (:func:`_patched`), or (a column's kind changed, the table emptied, an EDB table's statements
    renumbered) written again whole; a :class:`spread.Keyed`'s, only its keys' rows."""
    for name, ch in list(tables.items()) + list(glob.items()):
        if isinstance(ch, spread.Keyed) and name not in origins._by and _keyed(con, old, name, ch):
            continue
        function = name in old.funcs
        arity, _, cols, was_edb = old.funcs[name] if function else old.rels[name]
        is_edb = name in origins._by  # as store.write: an EDB table no statement made a row of has no _facts
        facts = [S.encode([number[id(f)] for f in origins.get((name, r))]) for r in ch.rows] if is_edb else None
        if is_edb == bool(was_edb) and not (is_edb and renumbered) and _patched(con, old, name, ch.rows, facts):
            continue
        con.execute(f"DROP TABLE {S._q(name)}")
        con.execute("DELETE FROM _relations WHERE name = ?", (name,))
        S.create_table(con, name, arity, ch.rows, cols, facts, "function" if function else "edb" if is_edb else "derived")


def _patched(con: sqlite3.Connection, old: S.Stored, name: str, rows: List[Tuple], facts: Optional[List[str]]) -> bool:
    """The table of ``name`` made to hold ``rows`` (with ``facts``, each row's statements, if EDB: in the
    store's numbering) by deleting the stored rows not among them and inserting the others, a row kept
    only if its statements are the same too; False (nothing written) if a value does not fit its column's
    kind or no row would be left (the table is then written whole, as a whole derivation writes it)."""
    _, kinds, cols, _ = old.funcs.get(name) or old.rels[name]
    want = _as_stored(kinds, rows, facts) if rows else None
    if want is None:
        return False
    q = S._q
    had = con.execute(f"SELECT rowid, {', '.join(map(q, cols))}{', _facts' if facts is not None else ''} "
                      f"FROM {q(name)}").fetchall()
    _write_diff(con, name, *_differ(had, want))
    return True


def _keyed(con: sqlite3.Connection, old: S.Stored, name: str, ch: "spread.Keyed") -> bool:
    """The rows of ``ch.keys`` (in column ``ch.col``, of text) replaced by ``ch.mine`` in a derived table;
    False (nothing written) if a new value does not fit its column's kind: the table is written whole."""
    arity, kinds, cols, _ = old.funcs.get(name) or old.rels[name]
    out = _as_stored(kinds, ch.mine, None) if kinds[ch.col] == "text" else None
    if out is None:
        return False
    q = S._q
    con.execute("CREATE TEMP TABLE IF NOT EXISTS _keyed (v TEXT PRIMARY KEY)")
    con.execute("DELETE FROM _keyed")
    con.executemany("INSERT INTO _keyed VALUES (?)", [(k,) for k in sorted(ch.keys)])
    con.execute(f"DELETE FROM {q(name)} WHERE {q(cols[ch.col])} IN (SELECT v FROM _keyed)")
    _write_diff(con, name, [], out)
    _emptied(con, name, arity, cols, name in old.funcs)
    return True


def _derived_table(con: sqlite3.Connection, derived: Dict[str, Any]) -> None:
    """``_derived`` made again from the new derived signals: the rows of the orgs whose signals were made
    again (spread.Remade: the others' are the store's, unchanged), else every row. (Read back in a
    derivation's order, store/facts.py ``DERIVED_ORDER``, whatever order they are written in.)"""
    orgs = getattr(derived, "orgs", None)
    if orgs is None:
        con.execute("DELETE FROM _derived")
    else:
        part = sorted(orgs)
        for i in range(0, len(part), 500):
            con.execute(f"DELETE FROM _derived WHERE org IN ({','.join('?' * len(part[i:i + 500]))})", part[i:i + 500])
    con.executemany("INSERT INTO _derived VALUES (?,?,?,?,?,?,?,?,?,?)", [
        (s.id, s.rule, s.org, s.dim, s.direction, s.kind, s.bound, S.encode(s.key), S.encode(list(s.facts)),
         S.encode([list(c) for c in s.cites])) for s in derived.values() if orgs is None or s.org in orgs])


def _renumber(con: sqlite3.Connection, old: S.Stored, numbers: Dict[int, int], skip: Set[str] = frozenset()) -> None:
    """Every EDB row's ``_facts`` in the new numbering (statements added or removed shift the rest)."""
    # most rows rest on one statement: their _facts text is looked up whole (S.encode writes "[3]", "[3,17]")
    moved = {f"[{o}]": f"[{n}]" for o, n in numbers.items() if o != n}
    kept = {f"[{o}]" for o, n in numbers.items() if o == n} | {"[]"}
    for name, (_, _, _, is_edb) in old.rels.items():
        if not is_edb or name in skip:
            continue
        changes = []
        for rowid, fs in con.execute(f"SELECT rowid, _facts FROM {S._q(name)}"):
            if fs in kept:
                continue
            now = moved.get(fs)
            if now is None:
                try:
                    now = f"[{','.join(str(numbers[int(n)]) for n in fs[1:-1].split(','))}]"
                except KeyError:
                    raise Refused(f"a row of {name} rests on a changed statement")
            if now != fs:
                changes.append((now, rowid))
        con.executemany(f"UPDATE {S._q(name)} SET _facts = ? WHERE rowid = ?", changes)
