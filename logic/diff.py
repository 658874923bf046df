"""What differs between two stored models: rows per relation, and statements (issue 28, docs/diff.md).

:func:`changes` is the seam the diff is built on: ``changes(old, new)`` gives,
per relation, the rows the old model has and the new one lacks (removed) and
the reverse (added). This implementation compares the two stores in SQLite
(``EXCEPT`` over attached databases), so only the rows that differ are read
into Python; an incremental update that knows its own delta (logic/edit.py)
can hand the same mapping over without comparing anything.

    >>> got = changes(old_store, new_store, ["value", "band"])   # doctest: +SKIP
    >>> got["value"].removed, got["value"].added                  # doctest: +SKIP
    ([('acme', 'F', 'standard', 2, 'sg1', 'F.1')], [('acme', 'F', 'standard', 3, 'sg2', 'F.3')])

:func:`statements` compares the two worlds' statements by content, whatever
file or line they are written at (a file renamed or a block moved changes
nothing): what one has and the other lacks.
"""
from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..facts.model import Fact
from . import store as S


@dataclass
class Change:
    """The rows of one relation that the old model has and the new lacks, and the reverse."""

    removed: List[Tuple] = field(default_factory=list)
    added: List[Tuple] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.removed or self.added)


Changes = Dict[str, Change]


def _attach(old: S.Stored, new: S.Stored) -> sqlite3.Connection:
    old.check(), new.check()  # read by path below, past their checksums' guard: every table checked first
    con = sqlite3.connect(":memory:", uri=True)
    con.execute("ATTACH DATABASE ? AS a", (f"file:{old.path}?mode=ro",))
    con.execute("ATTACH DATABASE ? AS b", (f"file:{new.path}?mode=ro",))
    return con


def _table(store: S.Stored, name: str):
    return store.rels.get(name) or store.funcs.get(name)


def changes(old: S.Stored, new: S.Stored, relations: Optional[Iterable[str]] = None) -> Changes:
    """Per relation (of ``relations``, default every stored one), the rows removed and added from
    ``old`` to ``new``; relations with no change are left out. Rows are decoded values; a row whose
    values are equal but spelled differently in the two stores (3 and 3/1) is no change."""
    names = sorted(set(relations) if relations is not None else set(old.rels) | set(old.funcs)
                   | set(new.rels) | set(new.funcs))
    con = _attach(old, new)
    out: Changes = {}
    try:
        for name in names:
            a, b = _table(old, name), _table(new, name)
            if a is None and b is None:
                continue
            rem = old.names.rows(_rows(con, "a", name, a, b))  # (each side's names as shown here)
            add = new.names.rows(_rows(con, "b", name, b, a))
            if rem or add:  # equal values in other spellings (a column of another kind) cancel out
                same = set(rem) & set(add)
                rem, add = [r for r in rem if r not in same], [r for r in add if r not in same]
            if rem or add:
                out[name] = Change(rem, add)
    finally:
        con.close()
    return out


def _rows(con: sqlite3.Connection, side: str, name: str, mine, theirs) -> List[Tuple]:
    """The rows of ``side``'s table that the other's lacks, decoded."""
    if mine is None:
        return []
    arity, kinds, cols, _ = mine
    q = S._q
    these = ", ".join(q(c) for c in cols)
    other = "b" if side == "a" else "a"
    if theirs is None or theirs[0] != arity:
        sql = f"SELECT {these} FROM {side}.{q(name)}"
    elif theirs[1] != kinds:  # a column kept as another kind: compare decoded rows in Python
        got = set(S.decoded_rows(kinds, con.execute(f"SELECT {these} FROM {side}.{q(name)}")))
        other_kinds = theirs[1]
        have = set(S.decoded_rows(other_kinds, con.execute(
            f"SELECT {', '.join(q(c) for c in theirs[2])} FROM {other}.{q(name)}")))
        return sorted(got - have, key=repr)
    else:
        sql = (f"SELECT {these} FROM {side}.{q(name)} EXCEPT "
               f"SELECT {', '.join(q(c) for c in theirs[2])} FROM {other}.{q(name)}")
    return sorted(S.decoded_rows(kinds, con.execute(sql)), key=repr)


# -- statements ----------------------------------------------------------------------------------
_CONTENT = "kind, flags, src, span, vals"


def _contents(store: S.Stored, con: sqlite3.Connection, side: str) -> Counter:
    """``store``'s statements' contents, counted once per open store (a store is never written once
    made: the history compares each commit's with the one before and the one after it)."""
    got = store.__dict__.get("_contents")
    if got is None:
        got = store.__dict__["_contents"] = Counter(con.execute(f"SELECT {_CONTENT} FROM {side}._facts"))
    return got


def statements(old: S.Stored, new: S.Stored) -> Tuple[List[Fact], List[Fact]]:
    """The statements ``old`` has and ``new`` lacks, and the reverse, compared by content (kind, values,
    flags, citations), never by place; each side's in file order. Two equal statements are two."""
    con = _attach(old, new)
    try:
        # each side's contents counted (a Counter of 93,000 rows costs less than SQL's EXCEPT both ways)
        a, b = _contents(old, con, "a"), _contents(new, con, "b")
        # the contents whose counts differ: the items views' symmetric difference is a set operation in C,
        # where ``a - b`` and ``b - a`` each loop in Python over every content (most of them the same)
        moved = {k for k, _ in a.items() ^ b.items()}
        differ = [Counter({k: a[k] - b[k] for k in moved if a[k] > b[k]}),
                  Counter({k: b[k] - a[k] for k in moved if b[k] > a[k]})]
        sides = []
        for side, extra, names in zip(("a", "b"), differ, (old.names, new.names)):
            got: List[Fact] = []
            if extra:
                rows = con.execute(f"SELECT {S._FACT_COLS} FROM {side}._facts WHERE kind IN "
                                   f"({','.join('?' * len({k[0] for k in extra}))}) ORDER BY n",
                                   sorted({k[0] for k in extra})).fetchall()
                # the last copies of a content stand for those the other side lacks (at most extra[c] of them)
                for r in reversed(rows):
                    c = r[1:2] + r[7:11]
                    if extra.get(c, 0) > 0:
                        extra[c] -= 1
                        got.append(names.fact(S.fact_from_row(r)))
            sides.append(got[::-1])
    finally:
        con.close()
    was, now = sides
    # the same content may be spelled two ways in a store (values in another order): compared as facts
    gone, came = _less(was, now), _less(now, was)
    return gone, came


def _less(these: List[Fact], those: List[Fact]) -> List[Fact]:
    """``these`` less one of each equal fact in ``those`` (a multiset difference by content)."""
    left = Counter(f.canon() for f in those)
    out = []
    for f in these:
        if left[f.canon()]:
            left[f.canon()] -= 1
        else:
            out.append(f)
    return out


def _at(f: Fact) -> Tuple[str, int]:
    return (f.loc.file, f.loc.line)


def pair(removed: Sequence[Fact], added: Sequence[Fact], old_place=_at, new_place=_at) \
        -> Tuple[List[Tuple[Fact, Fact]], List[Fact], List[Fact]]:
    """Removed and added statements paired as *changed* where they are one statement edited: the same
    kind and declared id, else the same kind at the same place (``old_place(f)``/``new_place(f)``: the
    file within its world and the line, so that a revision's ``REV:w/a.facts`` meets ``w/a.facts``);
    a declaration whose id is new, standing where one of its kind whose id is gone stood, is that one
    renamed. The rest stay removed or added."""
    def key(f: Fact, place):
        return (f.kind, "id", f["id"]) if "id" in f.values else (f.kind, "at") + tuple(place(f))

    changed: List[Tuple[Fact, Fact]] = []
    removed, added = list(removed), list(added)
    for k in (key, lambda f, place: (f.kind, "at") + tuple(place(f))):
        waiting: Dict[Tuple, List[Fact]] = {}
        for f in added:
            waiting.setdefault(k(f, new_place), []).append(f)
        gone = []
        for f in removed:
            q = waiting.get(k(f, old_place))
            if q:
                changed.append((f, q.pop(0)))
            else:
                gone.append(f)
        paired = {id(n) for _, n in changed}
        removed, added = gone, [f for f in added if id(f) not in paired]
    return changed, removed, added
