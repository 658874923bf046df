"""Reading a derivation's relations one key at a time.

Every reader of a derivation (the query API, the explainer, goals) reads its
relations through the read interface of :class:`~provlog.logic.goal.Tables`
(``relations()``, ``functions()``, ``match(name, arity, bound, function)``)
plus ``table(name)``, every row of a relation. Both the live
:class:`~provlog.logic.engine.Program` (pyDatalog, in memory) and a stored
model (:class:`~provlog.logic.store.StoredModel`, SQLite) offer it, so a
reader never needs to know which one it holds, and a stored model is read
without importing pyDatalog.

:class:`Keyed` turns one relation into a read-only mapping from its leading
arguments to a value, looked up one key at a time through ``match``: what
the :class:`~provlog.logic.program.Derivation` dicts (values, conflicts, ...)
are over a stored model, where reading a whole relation would cost more than
the question.

    >>> class Rows:                        # the smallest model: one relation
    ...     def match(self, name, arity, bound):
    ...         rows = [("acme", "F", 3), ("acme", "G", 1)]
    ...         return [r for r in rows if all(r[i] == v for i, v in bound)]
    ...     def table(self, name): return self.match(name, 3, [])
    >>> values = Keyed(Rows(), "value", 3, 2, lambda r: r[2])
    >>> values[("acme", "F")], values.get(("acme", "P")), len(values)
    (3, None, 2)
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, Mapping, Sequence, Tuple


class Keyed(Mapping):
    """A relation read as ``{row[:n]: value(row)}`` (the last row of a key wins, as a dict built in
    row order would), or with ``many`` as ``{row[:n]: value(rows)}`` over all rows of a key."""

    def __init__(self, model: Any, name: str, arity: int, n: int, value: Callable, many: bool = False):
        self._model, self._name, self._arity, self._n, self._value, self._many = model, name, arity, n, value, many
        self._got: Dict[Tuple, Any] = {}
        self._all: Dict[Tuple, Any] = {}

    def _rows(self, key: Tuple) -> Sequence[Tuple]:
        if self._n == 1 and not isinstance(key, tuple):
            key = (key,)
        if not isinstance(key, tuple) or len(key) != self._n:
            return ()
        return self._model.match(self._name, self._arity, list(enumerate(key)))

    def __getitem__(self, key):
        if key in self._got:
            return self._got[key]
        rows = self._rows(key)
        if not rows:
            raise KeyError(key)
        got = self._got[key] = self._value(rows) if self._many else self._value(rows[-1])
        return got

    def _whole(self) -> Dict[Tuple, Any]:
        if not self._all:
            self._all = whole(self._model.table(self._name), self._n, self._value, self._many)
        return self._all

    def __iter__(self) -> Iterator:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())


def whole(rows: Sequence[Tuple], n: int, value: Callable, many: bool = False) -> Dict:
    """``{row[:n]: value(row)}`` over every row (the last row of a key wins); with ``many``,
    ``{row[:n]: value(rows of the key)}``. A one-argument key is the bare value, not a 1-tuple."""
    if not many:
        if n == 1:
            return {row[0]: value(row) for row in rows}
        return {tuple(row[:n]): value(row) for row in rows}
    groups: Dict = {}
    for row in rows:
        groups.setdefault(row[0] if n == 1 else tuple(row[:n]), []).append(row)
    return {k: value(rs) for k, rs in groups.items()}


class KeyedSet(Keyed):
    """A relation read as a set of its rows (``row in s``), one lookup per membership test."""

    def __init__(self, model: Any, name: str, arity: int):
        super().__init__(model, name, arity, arity, lambda row: True)
