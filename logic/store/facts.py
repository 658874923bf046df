"""A store's facts, EDB origins and derived signals, read back one id or kind at a time."""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, Iterable, Iterator, List, Sequence, Tuple

from ...facts.model import Fact, Loc
from .codec import _dec, _to_sql, decode
from .layout import _FACT_COLS, _q
from .reading import Stored

def fact_from_row(row: Tuple) -> Fact:
    n, kind, _id, _fid, file, line, col, flags, src, span, vals = row
    # (most values are plain text and numbers, most statements have no flag and no src: read as they are)
    values = {k: v if type(v) in _PLAIN else _dec(v) for k, v in json.loads(vals).items()}
    return Fact(kind, values, Loc(file, line, col), frozenset(decode(flags)) if flags != "[]" else frozenset(),
                tuple(decode(src)) if src != "[]" else (), span)


_PLAIN = (str, int, bool, type(None))  # JSON values that decode to themselves (codec._dec)


class StoredFacts:
    """A world's facts read from a store, kind by kind and id by id (the FactSet interface).

    Reading one org's card touches its own facts, not the world's.
    """

    def __init__(self, store: Stored):
        self._s = store
        self._by_n: Dict[int, Fact] = {}
        self._kinds: Dict[str, List[Fact]] = {}
        self.files: List[str] = [store.names.shown(f) for f in json.loads(store.meta["files"])]
        self.nodes = _facts_by_id(self, ("lab", "org", "entity", "person"))
        self.sources = _facts_by_id(self, ("source",))
        self.signals = _facts_by_id(self, ("signal",))
        self.presets = _facts_by_id(self, ("preset",))
        self.by_fid = _Lazy(lambda fid: next(iter(self._facts("fid = ?", (store.names.stored(fid),))[-1:]), None),
                            lambda: [(f.fid, f) for f in self.facts])

    def _facts(self, where: str, params: Sequence = ()) -> List[Fact]:
        out = []
        for row in self._s.query(f"SELECT {_FACT_COLS} FROM _facts WHERE {where} ORDER BY n", params):
            f = self._by_n.get(row[0])
            if f is None:
                f = self._by_n[row[0]] = self._s.names.fact(fact_from_row(row))
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
        from ...facts.model import FactSet

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
                params.append(_to_sql(k, self._s.names.stored(v)))
        got = self._s.query(f"SELECT _facts FROM {_q(pred)} WHERE {' AND '.join(conds)}", params)
        ns = [n for (fs,) in got for n in decode(fs)]
        return self._facts.by_number(ns) if ns else default


def derived_signal(row: Tuple, make: Callable):
    """One row of ``_derived`` as ``make(id, rule, org, dim, direction, kind, bound, key, facts, cites)``."""
    sid, rule, org, dim, direction, kind, bound, key, facts, cites = row
    return make(sid, rule, org, dim, direction, kind, bound, decode(key), tuple(decode(facts)),
                tuple(tuple(c) for c in decode(cites)))


#: ``_derived`` in the order a derivation makes its signals: by rule, org and number (the id's last
#: part), whatever order the rows were written in (an edit writes only its orgs' again, logic/edit.py)
DERIVED_ORDER = "ORDER BY rule, org, CAST(substr(id, length(rule) + length(org) + 3) AS INTEGER)"


def derived_signals(store: Stored, make: Callable) -> _Lazy:
    """The derived signals of a store by id (:func:`derived_signal`), read when first asked for."""
    names = store.names
    shown = make if names.same else lambda *a: make(*a[:7], names.shown(a[7]), names.shown(a[8]), a[9])

    def build(row):  # its key and proofs' fact ids as named here
        return derived_signal(row, shown)

    def one(sid):
        got = store.query("SELECT * FROM _derived WHERE id = ?", (sid,))
        return build(got[0]) if got else None

    return _Lazy(one, lambda: [(r[0], build(r)) for r in store.query(f"SELECT * FROM _derived {DERIVED_ORDER}")])
