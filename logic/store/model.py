"""A store answering the program read interface (logic/model.py) one indexed lookup per question."""
from __future__ import annotations

import json
import sqlite3
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .codec import _bind, decoded_rows
from .errors import warn
from .layout import _q
from .reading import Stored

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
        return self._s.names.rows(decoded_rows(kinds, got))

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
            b = _bind(kinds[i], self._s.names.stored(v))
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
        if not self._broken:
            try:
                got = self._select(self._s.rels[name], name, limit=" LIMIT 1")
                return got[0] if got else None
            except sqlite3.Error as e:
                self._program(e)
        got = self._program().table(name)
        return got[0] if got else None

    def count(self, name: str) -> int:
        if not self._broken:
            try:
                return self._s.query(f"SELECT COUNT(*) FROM {_q(name)}")[0][0]
            except sqlite3.Error as e:
                self._program(e)
        return len(self._program().table(name))

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
