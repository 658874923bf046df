"""The write path: a derivation (its facts, derived signals and relations) written to a new store."""
from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ...facts.model import Fact
from .codec import _enc, _kind_of, _to_sql, encode
from .key import key_of
from .reading import refuse_a_stranger
from .pages import READ, WRITTEN
from .seal import seal
from .layout import _INDEXES, _SQL, FIXED, SCHEMA, _column_names, _q

def _fact_row(n: int, f: Fact) -> Tuple:
    values = f.values
    if not all(v is None or type(v) in _PLAIN for v in values.values()):  # most hold only text and numbers
        values = {k: _enc(v) for k, v in values.items()}
    return (n, f.kind, f.get("id") if f.kind in _ID_KINDS else None, f.fid, f.loc.file, f.loc.line, f.loc.col,
            encode(sorted(f.flags)) if f.flags else "[]", encode(list(f.src)) if f.src else "[]", f.span,
            json.dumps(dict(values), ensure_ascii=False, separators=(",", ":")))


_PLAIN = (str, int, bool)  # values that are their own JSON (_enc)


_ID_KINDS = ("lab", "org", "entity", "person", "source", "signal", "preset", "result")


@contextmanager
def _replacing(target: Path, old=None) -> Iterator[str]:
    """A temporary file beside ``target`` to write a store in, then sealed (its checksums: seal.py;
    ``old``: the Seals of the store it is a copy of, written through ``editing``: what it kept keeps its
    pages and hashes),
    synced and renamed over ``target`` (atomic: a reader sees the old file or the new one, whole);
    removed instead if the block fails. NotAStore if ``target`` is a file that is not a store."""
    refuse_a_stranger(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as any file the user makes, not mkstemp's owner-only
        yield tmp
        written, read = WRITTEN.pop(tmp, None), READ.pop(tmp, set())
        seal(tmp, old, None if written is None else written | read)
        with open(tmp, "rb+") as fh:  # written without SQLite's syncs: on disk before it is renamed in
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        WRITTEN.pop(tmp, None)
        READ.pop(tmp, None)
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write(target: Path, derivation, inp: Dict[str, Any], fingerprint: Dict[str, str],
          texts: Optional[Dict[str, str]] = None, names: Optional[str] = None) -> None:
    """Write ``derivation`` (and its facts) to ``target``; ``texts``: the world's files' texts by name
    (an edit re-reads only what changed in them, logic/reread.py; a file without one is read whole);
    ``names``: the folder its file names are relative to, seen from the world's (names.py ``origin``;
    None: a store read only from here)."""
    with _replacing(Path(target)) as tmp:
        con = sqlite3.connect(tmp)
        try:
            _fill(con, derivation, inp, fingerprint, names)
            write_texts(con, derivation.facts, texts or {})
            con.commit()
        finally:
            con.close()


def _fill(con: sqlite3.Connection, d, inp: Dict[str, Any], fingerprint: Dict[str, str], names: Optional[str]) -> None:
    from ..program import RULES

    con.execute("PRAGMA journal_mode=OFF")
    con.execute("PRAGMA synchronous=OFF")
    for name in ("_meta", "_relations", "_facts", "_derived"):
        con.execute(FIXED[name])
    number: Dict[int, int] = {}
    rows = []
    for n, f in enumerate(d.facts, 1):
        number[id(f)] = n
        rows.append(_fact_row(n, f))
    con.executemany("INSERT INTO _facts VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.execute("CREATE INDEX _facts_kind ON _facts (kind)")
    con.execute("CREATE INDEX _facts_id ON _facts (id)")
    con.execute("CREATE INDEX _facts_fid ON _facts (fid)")
    con.execute("CREATE INDEX _facts_file ON _facts (file, line)")  # an edit re-reads a file's lines (reread.py)
    con.executemany("INSERT INTO _derived VALUES (?,?,?,?,?,?,?,?,?,?)", [
        (s.id, s.rule, s.org, s.dim, s.direction, s.kind, s.bound, encode(s.key), encode(list(s.facts)),
         encode([list(c) for c in s.cites])) for s in d.derived.values()])
    con.execute("CREATE INDEX _derived_org ON _derived (org, dim)")

    heads: Dict[str, List[str]] = {}
    for r in RULES.rules:
        heads.setdefault(r.head_name, []).append(r.head)
    origins = d.origins._by
    program = d.program
    known = program.relations()
    kept = {name: (known[name], program.table(name)) for name in program.tables}
    for name, arity in program.functions().items():  # f[K..] == V: its keys, then its value
        kept[name] = (arity, list(program.match(name, arity, [], function=True)))
    for name, (arity, rel) in sorted(kept.items()):
        of = origins.get(name)
        facts = None if of is None else [encode([number[id(f)] for f in _facts_of(of.get(row))]) for row in rel]
        origin = "edb" if of is not None else "function" if name in program.functions() else "derived"
        create_table(con, name, arity, rel, _column_names(name, arity, heads), facts, origin)
    meta = {"key": key_of(inp), "inputs": json.dumps(inp, sort_keys=True), "fingerprint": json.dumps(fingerprint),
            "files": json.dumps(list(d.facts.files)), "statements": str(len(d.facts)), "schema": str(SCHEMA),
            "relations": json.dumps(known), "functions": json.dumps(program.functions())}
    if names is not None:
        meta["names"] = names
    con.executemany("INSERT INTO _meta VALUES (?, ?)", sorted(meta.items()))


def write_texts(con: sqlite3.Connection, facts, texts: Dict[str, str]) -> None:
    """``_canon`` (each statement's canonical text, by number: the fingerprint is their sorted hash) and
    ``_texts`` (``texts``), both made again whole."""
    for name in ("_canon", "_texts"):
        con.execute(f"DROP TABLE IF EXISTS {name}")
        con.execute(FIXED[name])
    con.executemany("INSERT INTO _canon VALUES (?, ?)", ((n, f.canon()) for n, f in enumerate(facts, 1)))
    con.executemany("INSERT INTO _texts VALUES (?, ?)", sorted(texts.items()))


def create_table(con: sqlite3.Connection, name: str, arity: int, rel: Sequence[Tuple], cols: List[str],
                 facts: Optional[List[str]], origin: str) -> None:
    """Create the table of one relation with its rows, indexes and ``_relations`` row; ``facts``: each row's
    ``_facts`` (encoded fact numbers) for the EDB, else None."""
    columns = list(zip(*rel)) if rel else [()] * arity
    kinds = [_kind_of(set(map(type, c))) for c in columns]
    extra = ", _facts TEXT" if facts is not None else ""
    con.execute(f"CREATE TABLE {_q(name)} ({', '.join(f'{_q(c)} {_SQL[k]}' for c, k in zip(cols, kinds))}{extra})")
    out = rel
    if any(k in ("num", "json") for k in kinds):  # only these are converted; ints and text go as they are
        columns = [c if k in ("int", "text") else [_to_sql(k, v) for v in c] for c, k in zip(columns, kinds)]
        out = list(zip(*columns))
    if facts is not None:
        out = [tuple(r) + (fs,) for r, fs in zip(out, facts)]
    if out:
        con.executemany(f"INSERT INTO {_q(name)} VALUES ({','.join('?' * (arity + bool(extra)))})", out)
    for spec in _INDEXES.get(name, [(0,)] if arity > 1 and len(rel) > 16 else []):
        con.execute(f"CREATE INDEX {_q(name + '_' + '_'.join(map(str, spec)))} ON {_q(name)} "
                    f"({', '.join(_q(cols[i]) for i in spec)})")
    con.execute("INSERT INTO _relations VALUES (?,?,?,?,?,?)",
                (name, arity, json.dumps(kinds), json.dumps(cols), origin, len(rel)))


def _facts_of(had) -> Tuple:
    return () if had is None else had if type(had) is tuple else (had,)


def copy(stored: "Stored", target) -> None:
    """Copy an open store to ``target`` (as :func:`write` does), every table checked first."""
    stored.check()
    with _replacing(Path(target)) as tmp:
        out = sqlite3.connect(tmp)
        try:
            with out:
                stored.con.backup(out)
        finally:
            out.close()
