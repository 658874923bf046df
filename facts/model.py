"""Typed facts: what a loaded world holds.

A :class:`Fact` is one checked statement: its keyword, its named values, its
flags, the sources it rests on (``src=``) and the words that state it
(``span=``), and where it was written. A :class:`FactSet` is a whole world.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Dict, FrozenSet, Iterator, List, Mapping, NamedTuple, Optional, Tuple

from .schema import NODE


class Loc(NamedTuple):
    """Where a statement was written (``file:line``; ``col`` for carets)."""

    file: str
    line: int
    col: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


#: the names of a fact's values, in order -> each name's position (one shared dict per set of names)
_SHAPES: Dict[Tuple[str, ...], Dict[str, int]] = {}


class Fact:
    """One statement of a world, checked and typed (immutable).

        >>> f = Fact("lab", {"id": "acme", "name": "Acme"}, Loc("w.facts", 1))
        >>> f["id"], f.fid
        ('acme', 'lab:acme')
    """

    # slots: a world holds one Fact per statement (hundreds of thousands at scale); its values are a
    # tuple beside the names' positions, shared by every fact written with the same names (a dict per
    # fact cost 218 bytes on average, the tuple about 80: some 60 MiB at 5,000 orgs)
    __slots__ = ("kind", "_names", "_vals", "loc", "flags", "src", "span", "refs")

    def __init__(self, kind: str, values: Mapping[str, Any], loc: Loc, flags: FrozenSet[str] = frozenset(),
                 src: Tuple[str, ...] = (), span: Optional[str] = None, refs: Tuple = ()):
        setter = object.__setattr__
        values = dict(values)
        names = tuple(values)
        positions = _SHAPES.get(names)
        if positions is None:
            positions = _SHAPES.setdefault(names, {name: i for i, name in enumerate(names)})
        setter(self, "kind", kind)
        setter(self, "_names", positions)
        setter(self, "_vals", tuple(values.values()))
        setter(self, "loc", loc)
        setter(self, "flags", flags)
        setter(self, "src", src)
        setter(self, "span", span)
        setter(self, "refs", refs)  # the references the loader resolves (then drops)

    def __setattr__(self, name, value):
        raise AttributeError(f"Fact is immutable (cannot set {name})")

    def __delattr__(self, name):
        raise AttributeError(f"Fact is immutable (cannot delete {name})")

    @property
    def _values(self) -> Dict[str, Any]:
        return dict(zip(self._names, self._vals))

    @property
    def values(self) -> Mapping[str, Any]:
        return MappingProxyType(self._values)

    def _key(self):
        return (self.kind, self._values, self.loc, self.flags, self.src, self.span)

    def __eq__(self, other):
        return isinstance(other, Fact) and self._key() == other._key()

    def __hash__(self):
        return hash((self.kind, self.loc, self.span))

    def __repr__(self) -> str:
        return (f"Fact(kind={self.kind!r}, values={self._values!r}, loc={self.loc!r}, flags={self.flags!r}, "
                f"src={self.src!r}, span={self.span!r})")

    def __getitem__(self, key: str) -> Any:
        i = self._names.get(key)
        return None if i is None else self._vals[i]

    def get(self, key: str, default: Any = None) -> Any:
        i = self._names.get(key)
        return default if i is None else self._vals[i]

    def canon(self) -> str:
        """The fact's content without its place: equal facts written anywhere compare equal."""
        vals = sorted((k, repr(v)) for k, v in zip(self._names, self._vals) if not k.startswith("_"))
        return repr((self.kind, vals, sorted(self.flags), sorted(self.src), self.span))

    @property
    def fid(self) -> str:
        """A stable id: ``kind:id`` for declarations (the statements with an ``id``), ``kind@file:line`` otherwise."""
        i = self._names.get("id")
        if i is not None:
            return f"{self.kind}:{self._vals[i]}"
        return f"{self.kind}@{self.loc.file}:{self.loc.line}"


@dataclass
class FactSet:
    """All facts of one world, with indexes by kind and by declared id."""

    facts: List[Fact] = field(default_factory=list)
    files: List[str] = field(default_factory=list)
    by_kind: Dict[str, List[Fact]] = field(default_factory=dict)
    nodes: Dict[str, Fact] = field(default_factory=dict)  # lab/org/entity/person by id
    sources: Dict[str, Fact] = field(default_factory=dict)
    signals: Dict[str, Fact] = field(default_factory=dict)
    presets: Dict[str, Fact] = field(default_factory=dict)

    def add(self, fact: Fact) -> None:
        self.__dict__.pop("_by_fid", None)
        self.facts.append(fact)
        self.by_kind.setdefault(fact.kind, []).append(fact)
        kind = fact.kind
        if kind in NODE:
            self.nodes[fact["id"]] = fact
        elif kind == "source":
            self.sources[fact["id"]] = fact
        elif kind == "signal":
            self.signals[fact["id"]] = fact
        elif kind == "preset":
            self.presets[fact["id"]] = fact

    def of(self, kind: str) -> List[Fact]:
        return self.by_kind.get(kind, [])

    @property
    def by_fid(self) -> Dict[str, Fact]:
        """Every fact by its id (``Fact.fid``), indexed on first use."""
        got = self.__dict__.get("_by_fid")
        if got is None:
            got = self.__dict__["_by_fid"] = {f.fid: f for f in self.facts}
        return got

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.facts)

    def __len__(self) -> int:
        return len(self.facts)

    @property
    def orgs(self) -> List[str]:
        return sorted(f["id"] for f in self.of("org"))
