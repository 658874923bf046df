"""The stored model: a world's facts and everything derived from them, kept in SQLite.

A derivation is written once (:func:`write`) and read back by later commands
(:func:`open_store`) without parsing or deriving: the store answers the
:mod:`~provlog.logic.model` read protocol, one indexed lookup per question.
Nothing in a store is executed: values are typed columns or tagged JSON
(:func:`encode`), never pickles or Python text. docs/store.md has the schema.

A store is used only for the exact inputs it was made from (:func:`inputs`):
every file the world read (path and SHA-256 of its bytes), the folder's list
of ``.facts`` files, the world's path, the working directory (file names in
messages are relative to it), ``--strict``, the as-of date, the source of the
loader and the rules (all of ``facts/``, ``grammar/`` and ``logic/``) and
provlog's version. Any difference is a miss, and the store is rebuilt.

    >>> decode(encode((Fraction(1, 3), "a", None)))
    (Fraction(1, 3), 'a', None)
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import tempfile
from contextlib import contextmanager
from datetime import date
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..facts.files import TreePath
from ..facts.model import Fact, Loc
from ..facts.values import Pct

#: the layout of the tables below; a store of another layout is a miss
SCHEMA = 1
#: the package folders whose source decides what a store holds
_CODE = ("facts", "grammar", "logic")


class StoreError(Exception):
    """A store that cannot be used (corrupt, truncated, or of other inputs): it is ignored."""


# -- values <-> tagged JSON (exact; a tag is data, never code) -----------------------------------------
def _enc(v: Any) -> Any:
    if v is None or isinstance(v, (str, bool)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, Fraction):
        return {"F": [v.numerator, v.denominator]}
    if isinstance(v, tuple):
        return {"T": [_enc(x) for x in v]}
    if isinstance(v, list):
        return [_enc(x) for x in v]
    if isinstance(v, frozenset):
        return {"S": sorted((_enc(x) for x in v), key=repr)}
    if isinstance(v, Pct):
        return {"P": [_enc(v.lo), _enc(v.hi), v.lo_open, v.hi_open, v.text]}
    if isinstance(v, dict):
        return {"D": [[_enc(k), _enc(x)] for k, x in v.items()]}
    raise StoreError(f"a value of type {type(v).__name__} cannot be stored")


def _dec(x: Any) -> Any:
    if isinstance(x, list):
        return [_dec(y) for y in x]
    if not isinstance(x, dict):
        return x
    if len(x) != 1:
        raise StoreError("unknown tagged value")
    (tag, body), = x.items()
    if tag == "F":
        return Fraction(body[0], body[1])
    if tag == "T":
        return tuple(_dec(y) for y in body)
    if tag == "S":
        return frozenset(_dec(y) for y in body)
    if tag == "P":
        return Pct(_dec(body[0]), _dec(body[1]), body[2], body[3], body[4])
    if tag == "D":
        return {_dec(k): _dec(v) for k, v in body}
    raise StoreError(f"unknown tag {tag!r}")


def encode(v: Any) -> str:
    return json.dumps(_enc(v), ensure_ascii=False, separators=(",", ":"))


def decode(text: str) -> Any:
    return _dec(json.loads(text))


# -- column kinds: what SQL type a relation's argument is kept as ---------------------------------------
def _kind_of(types: Iterable[type]) -> str:
    """A column's kind from the types of its values: ``int``, ``text``, ``num`` (ints and Fractions, kept
    as text ``n`` or ``n/d``) or ``json`` (anything else, bool included)."""
    kinds = {"int" if t is int else "text" if t is str else "frac" if t is Fraction else "none" if t is type(None)
             else "json" for t in types} - {"none"}
    if kinds <= {"int"}:
        return "int"
    if kinds == {"text"}:
        return "text"
    if kinds <= {"int", "frac"}:
        return "num"
    return "json"


def _to_sql(kind: str, v: Any) -> Any:
    if v is None:
        return None
    if kind == "num":
        return f"{v.numerator}/{v.denominator}" if type(v) is Fraction else str(v)
    if kind == "json":
        return encode(v)
    return v


def _from_sql(kind: str, x: Any) -> Any:
    if x is None:
        return None
    if kind == "num":
        if "/" in x:
            n, d = x.split("/")
            return Fraction(int(n), int(d))
        return int(x)
    if kind == "json":
        return decode(x)
    return x


def _bind(kind: str, v: Any) -> Optional[Tuple[str, List[Any]]]:
    """SQL condition and parameters for "argument == v", or None where SQL cannot decide (filter in Python)."""
    if kind == "int" and type(v) is int:
        return "= ?", [v]
    if kind == "text" and type(v) is str:
        return "= ?", [v]
    if kind == "num" and type(v) in (int, Fraction):
        f = Fraction(v)  # 3 equals Fraction(3): both spellings
        return ("IN (?, ?)", [str(f.numerator), f"{f.numerator}/1"]) if f.denominator == 1 else ("= ?", [_to_sql(kind, f)])
    return None


# -- inputs: what a store is made from -----------------------------------------------------------------
def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _display(path: Path, root: Path) -> str:
    """A file's name as the loader prints it (relative to the working directory when inside it)."""
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path.resolve())


def _code_hash() -> str:
    """SHA-256 of the loader's and the rules' source (the subpackages beside this one's folder)."""
    h = hashlib.sha256()
    for folder in _CODE:
        base = Path(__file__).resolve().parent.parent / folder
        for p in sorted(base.rglob("*")):
            if p.suffix in (".py", ".lark") and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(base)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _version() -> str:
    from provlog.version import __version__  # setup.cfg's version (importlib.metadata would cost more than the card)

    return __version__


def listed_files(path: Path) -> List[Path]:
    """The files a world is read from before includes (as facts/loader.py lists them)."""
    if path.is_dir():
        return sorted(q for q in path.rglob("*.facts") if q.is_file())
    return [path]


def inputs(path, strict: bool, as_of: Optional[str], files: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Everything a world's store depends on; ``files`` adds the files it read beyond the listed ones
    (includes, as recorded in a store). Raises OSError if a file cannot be read."""
    root = Path.cwd().resolve()
    if isinstance(path, TreePath):  # a revision's world: its files keyed by their blob ids (the content)
        listed, digest = path.listed(), path.digest
    else:
        listed = [_display(q, root) for q in listed_files(Path(path))]
        digest = lambda n: _sha((root / n).read_bytes())  # noqa: E731
    names = sorted(set(listed) | set(files or ()))
    return {
        "schema": SCHEMA, "version": _version(), "code": _code_hash(), "cwd": str(root), "world": str(path),
        # the date a world is read at: --as-of, else its own as-of statement (in its bytes), else today
        "strict": bool(strict), "as_of": as_of, "today": date.today().isoformat(), "listed": listed,
        "files": {n: digest(n) for n in names},
    }


def _salt_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "provlog" / "salt"


def _salt() -> bytes:
    """This user's secret, part of every key: a store made elsewhere (shipped beside a world, say)
    never matches, however well its inputs are copied. Made on first use; OSError if it cannot be."""
    path = _salt_file()
    try:
        return path.read_bytes()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it first
            return path.read_bytes()
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(32))
        return path.read_bytes()


def key_of(inp: Dict[str, Any]) -> str:
    """The key of a store: the inputs (``inputs``) with this user's secret (:func:`_salt`)."""
    return hashlib.sha256(_salt() + json.dumps(inp, sort_keys=True).encode()).hexdigest()


def default_path(world) -> Path:
    """``.provlog/`` in the world's folder (a folder world's own, a file world's parent); a revision's
    world (a TreePath) beside the same folder in the working tree (else at the repository's top)."""
    if isinstance(world, TreePath):
        here = world.tree.top / str(world.path)
        folder = here if here.is_dir() else here.parent if here.parent.is_dir() else world.tree.top
        return folder / ".provlog" / f"{PurePosixPath(world.path).name or 'world'}@rev-{_sha(str(world).encode())[:12]}.sqlite"
    p = Path(world)
    folder = p if p.is_dir() else p.parent
    return folder / ".provlog" / f"{p.resolve().name or 'world'}-{_sha(str(p.resolve()).encode())[:12]}.sqlite"


# -- names of columns ----------------------------------------------------------------------------------
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
    from .edb import COLUMNS

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


# -- writing -----------------------------------------------------------------------------------------
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
def _replacing(target: Path) -> Iterator[str]:
    """A temporary file beside ``target`` to write, then synced and renamed over ``target`` (atomic: a
    reader sees the old file or the new one, whole); removed instead if the block fails."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # as any file the user makes, not mkstemp's owner-only
        yield tmp
        with open(tmp, "rb+") as fh:  # written without SQLite's syncs: on disk before it is renamed in
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write(target: Path, derivation, inp: Dict[str, Any], fingerprint: Dict[str, str]) -> None:
    """Write ``derivation`` (and its facts) to ``target``."""
    with _replacing(Path(target)) as tmp:
        con = sqlite3.connect(tmp)
        try:
            _fill(con, derivation, inp, fingerprint)
            con.commit()
        finally:
            con.close()


def _fill(con: sqlite3.Connection, d, inp: Dict[str, Any], fingerprint: Dict[str, str]) -> None:
    from .program import RULES

    con.execute("PRAGMA journal_mode=OFF")
    con.execute("PRAGMA synchronous=OFF")
    con.execute("CREATE TABLE _meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
    con.execute("CREATE TABLE _relations (name TEXT PRIMARY KEY, arity INTEGER, kinds TEXT, columns TEXT, "
                "origin TEXT, rows INTEGER)")
    con.execute("CREATE TABLE _facts (n INTEGER PRIMARY KEY, kind TEXT, id TEXT, fid TEXT, file TEXT, line INTEGER, "
                "col INTEGER, flags TEXT, src TEXT, span TEXT, vals TEXT)")
    con.execute("CREATE TABLE _derived (id TEXT PRIMARY KEY, rule TEXT, org TEXT, dim TEXT, direction TEXT, "
                "kind TEXT, bound INTEGER, key TEXT, facts TEXT, cites TEXT)")
    number: Dict[int, int] = {}
    rows = []
    for n, f in enumerate(d.facts, 1):
        number[id(f)] = n
        rows.append(_fact_row(n, f))
    con.executemany("INSERT INTO _facts VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.execute("CREATE INDEX _facts_kind ON _facts (kind)")
    con.execute("CREATE INDEX _facts_id ON _facts (id)")
    con.execute("CREATE INDEX _facts_fid ON _facts (fid)")
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
    con.executemany("INSERT INTO _meta VALUES (?, ?)", sorted(meta.items()))


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


def copy(stored: "Stored", target) -> None:
    """Copy an open store to ``target`` (as :func:`write` does)."""
    with _replacing(Path(target)) as tmp:
        out = sqlite3.connect(tmp)
        try:
            with out:
                stored.con.backup(out)
        finally:
            out.close()


# -- reading -----------------------------------------------------------------------------------------
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


def warn(msg: str) -> None:
    print(f"provlog: {msg}", file=sys.stderr)


class StoredModel:
    """The read interface of a program (``relations``, ``functions``, ``match``, ``table``; logic/goal.py,
    logic/model.py) over a store. A relation the store does not hold (one the engine answers only with
    some arguments bound) and ``ask``/``relation`` (pyDatalog's own) are answered by a live derivation,
    made once on first use; so is everything after a read fails (a store damaged mid-command)."""

    def __init__(self, store: Stored, live: Callable[[], Any]):
        self._s = store
        self._live = live
        self._broken = False
        self._relations = json.loads(store.meta["relations"])
        self._functions = json.loads(store.meta["functions"])
        self.tables = _Tables(self)

    def _program(self, e: Optional[Exception] = None):
        if e is not None and not self._broken:
            warn(f"store {self._s.path} failed while reading ({e}); deriving again")
            self._broken = True
        return self._live().program

    def relations(self) -> Dict[str, int]:
        return dict(self._relations)

    def functions(self) -> Dict[str, int]:
        return dict(self._functions)

    def kept(self) -> Dict[str, int]:
        """The relations the store holds rows of (facts and the answers strata kept)."""
        return {n: r[0] for n, r in self._s.rels.items()}

    def _select(self, rel, name: str, where: str = "", params: Sequence = (), limit: str = "") -> List[Tuple]:
        arity, kinds, cols, _ = rel
        got = self._s.query(f"SELECT {', '.join(map(_q, cols))} FROM {_q(name)}{where} ORDER BY rowid{limit}", params)
        if all(k in ("int", "text") for k in kinds):
            return got
        return [tuple(_from_sql(k, x) for k, x in zip(kinds, r)) for r in got]

    def table(self, name: str) -> List[Tuple[Any, ...]]:
        rel = self._s.rels.get(name)
        if self._broken or rel is None:
            return self._program().table(name)
        try:
            return self._select(rel, name)
        except sqlite3.Error as e:
            return self._program(e).table(name)

    def match(self, name: str, arity: int, bound: Sequence[Tuple[int, Any]],
              function: bool = False) -> List[Tuple[Any, ...]]:
        rel = (self._s.funcs if function else self._s.rels).get(name)
        if self._broken or rel is None:
            if (self._functions if function else self._relations).get(name) != arity:
                return []  # unknown, as the live program answers it
            return self._program().match(name, arity, bound, function)
        if rel[0] != arity:
            return []
        kinds, cols = rel[1], rel[2]
        conds, params, rest = [], [], []
        for i, v in bound:
            b = _bind(kinds[i], v)
            if b is None:
                rest.append((i, v))
            else:
                conds.append(f"{_q(cols[i])} {b[0]}")
                params.extend(b[1])
        try:
            got = self._select(rel, name, " WHERE " + " AND ".join(conds) if conds else "", params)
        except sqlite3.Error as e:
            return self._program(e).match(name, arity, bound, function)
        return [r for r in got if all(r[i] == v for i, v in rest)] if rest else got

    def first(self, name: str) -> Optional[Tuple]:
        got = self._select(self._s.rels[name], name, limit=" LIMIT 1")
        return got[0] if got else None

    def count(self, name: str) -> int:
        return self._s.query(f"SELECT COUNT(*) FROM {_q(name)}")[0][0]

    # pyDatalog's own questions: only a live program answers them
    def ask(self, goal: str):
        return self._program().ask(goal)

    def relation(self, predicate: str, arity: int, bound=None):
        return self._program().relation(predicate, arity, bound)


class _Rows(Sequence):
    """A stored relation's rows, read whole only when iterated (``bool``, ``len`` and ``[0]`` are cheap)."""

    def __init__(self, model: StoredModel, name: str):
        self._m, self._name, self._rows, self._first, self._len = model, name, None, False, None

    def _all(self) -> List[Tuple]:
        if self._rows is None:
            self._rows = self._m.table(self._name)
        return self._rows

    def __bool__(self) -> bool:
        return self._rows_first() is not None

    def _rows_first(self) -> Optional[Tuple]:
        if self._first is False:
            self._first = self._rows[0] if self._rows else self._m.first(self._name) if self._rows is None else None
        return self._first

    def __len__(self) -> int:
        if self._rows is not None:
            return len(self._rows)
        if self._len is None:
            self._len = self._m.count(self._name)
        return self._len

    def __getitem__(self, i):
        if i == 0 and self._rows is None:
            first = self._rows_first()
            if first is None:
                raise IndexError(i)
            return first
        return self._all()[i]

    def __iter__(self) -> Iterator[Tuple]:
        return iter(self._all())


class _Tables(dict):
    """``name -> rows`` of every stored relation, each read only when asked (like Program.tables)."""

    def __init__(self, model: StoredModel):
        super().__init__()
        self._m = model

    def get(self, name, default=None):
        if name in self._m._s.rels:
            return self[name] if dict.__contains__(self, name) else self.setdefault(name, _Rows(self._m, name))
        return default

    def __contains__(self, name) -> bool:
        return name in self._m._s.rels

    def __missing__(self, name):
        got = self.get(name)
        if got is None:
            raise KeyError(name)
        return got


# -- facts, origins and derived signals read back ------------------------------------------------------
def fact_from_row(row: Tuple) -> Fact:
    n, kind, _id, _fid, file, line, col, flags, src, span, vals = row
    values = {k: _dec(v) for k, v in json.loads(vals).items()}
    return Fact(kind, values, Loc(file, line, col), frozenset(decode(flags)), tuple(decode(src)), span)


_FACT_COLS = "n, kind, id, fid, file, line, col, flags, src, span, vals"


class StoredFacts:
    """A world's facts read from a store, kind by kind and id by id (the FactSet interface).

    Reading one org's card touches its own facts, not the world's.
    """

    def __init__(self, store: Stored):
        self._s = store
        self._by_n: Dict[int, Fact] = {}
        self._kinds: Dict[str, List[Fact]] = {}
        self.files: List[str] = json.loads(store.meta["files"])
        self.nodes = _facts_by_id(self, ("lab", "org", "entity", "person"))
        self.sources = _facts_by_id(self, ("source",))
        self.signals = _facts_by_id(self, ("signal",))
        self.presets = _facts_by_id(self, ("preset",))
        self.by_fid = _Lazy(lambda fid: next(iter(self._facts("fid = ?", (fid,))[-1:]), None),
                            lambda: [(f.fid, f) for f in self.facts])

    def _facts(self, where: str, params: Sequence = ()) -> List[Fact]:
        out = []
        for row in self._s.query(f"SELECT {_FACT_COLS} FROM _facts WHERE {where} ORDER BY n", params):
            f = self._by_n.get(row[0])
            if f is None:
                f = self._by_n[row[0]] = fact_from_row(row)
            out.append(f)
        return out

    def by_number(self, ns: Sequence[int]) -> Tuple[Fact, ...]:
        missing = [n for n in ns if n not in self._by_n]
        if missing:
            self._facts(f"n IN ({','.join('?' * len(missing))})", missing)
        return tuple(self._by_n[n] for n in ns)

    def of(self, kind: str) -> List[Fact]:
        got = self._kinds.get(kind)
        if got is None:
            got = self._kinds[kind] = self._facts("kind = ?", (kind,))
        return got

    @property
    def facts(self) -> List[Fact]:
        return self._facts("1")

    @property
    def by_kind(self) -> Dict[str, List[Fact]]:
        return {k: self.of(k) for (k,) in self._s.query("SELECT DISTINCT kind FROM _facts")}

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.facts)

    def __len__(self) -> int:
        return int(self._s.meta["statements"])

    @property
    def orgs(self) -> List[str]:
        return sorted(i for (i,) in self._s.query("SELECT id FROM _facts WHERE kind = 'org'"))

    def to_factset(self):
        """A plain FactSet of every fact (for a live derivation)."""
        from ..facts.model import FactSet

        fs = FactSet()
        for f in self.facts:
            fs.add(f)
        fs.files = list(self.files)
        return fs


class _Lazy(dict):
    """A dict whose entries are read one key at a time (``one(key)``: the value or None), or all at
    once (``every()``: (key, value) pairs) when it is iterated."""

    def __init__(self, one: Callable[[Any], Any], every: Callable[[], Iterable[Tuple[Any, Any]]]):
        super().__init__()
        self._one, self._every, self._whole = one, every, False

    def __missing__(self, key):
        got = None if self._whole else self._one(key)
        if got is None:
            raise KeyError(key)
        dict.__setitem__(self, key, got)
        return got

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def _load(self) -> "_Lazy":
        if not self._whole:
            for k, v in self._every():
                dict.__setitem__(self, k, v)
            self._whole = True
        return self

    def __iter__(self):
        return dict.__iter__(self._load())

    def __len__(self) -> int:
        return dict.__len__(self._load())

    def items(self):
        return dict.items(self._load())

    def keys(self):
        return dict.keys(self._load())

    def values(self):
        return dict.values(self._load())


def _facts_by_id(facts: "StoredFacts", kinds: Tuple[str, ...]) -> _Lazy:
    """Facts of some kinds by declared id (FactSet.nodes, .sources, ...)."""
    marks = ",".join("?" * len(kinds))

    def one(key):
        got = facts._facts(f"id = ? AND kind IN ({marks})", (key,) + kinds)
        return got[-1] if got else None

    return _Lazy(one, lambda: [(f["id"], f) for k in kinds for f in facts.of(k)])


class StoredOrigins:
    """Each EDB row's facts, read from the row's ``_facts`` column (the Origins interface)."""

    def __init__(self, store: Stored, facts: StoredFacts):
        self._s, self._facts = store, facts

    def get(self, key: Tuple[str, Tuple], default: Tuple = ()) -> Tuple:
        pred, row = key
        rel = self._s.rels.get(pred)
        if rel is None or not rel[3] or len(row) != rel[0]:
            return default
        kinds, cols = rel[1], rel[2]
        conds, params = [], []
        for c, k, v in zip(cols, kinds, row):
            if v is None:
                conds.append(f"{_q(c)} IS NULL")
            else:
                conds.append(f"{_q(c)} = ?")
                params.append(_to_sql(k, v))
        got = self._s.query(f"SELECT _facts FROM {_q(pred)} WHERE {' AND '.join(conds)}", params)
        ns = [n for (fs,) in got for n in decode(fs)]
        return self._facts.by_number(ns) if ns else default


def derived_signal(row: Tuple, make: Callable):
    """One row of ``_derived`` as ``make(id, rule, org, dim, direction, kind, bound, key, facts, cites)``."""
    sid, rule, org, dim, direction, kind, bound, key, facts, cites = row
    return make(sid, rule, org, dim, direction, kind, bound, decode(key), tuple(decode(facts)),
                tuple(tuple(c) for c in decode(cites)))


def derived_signals(store: Stored, make: Callable) -> _Lazy:
    """The derived signals of a store by id (:func:`derived_signal`), read when first asked for."""
    def build(row):
        return derived_signal(row, make)

    def one(sid):
        got = store.query("SELECT * FROM _derived WHERE id = ?", (sid,))
        return build(got[0]) if got else None

    return _Lazy(one, lambda: [(r[0], build(r)) for r in store.query("SELECT * FROM _derived ORDER BY rowid")])
