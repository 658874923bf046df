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


class Fact:
    """One statement of a world, checked and typed (immutable).

        >>> f = Fact("lab", {"id": "acme", "name": "Acme"}, Loc("w.facts", 1))
        >>> f["id"], f.fid
        ('acme', 'lab:acme')
    """

    # slots: a world holds one Fact per statement (hundreds of thousands at scale)
    __slots__ = ("kind", "_values", "loc", "flags", "src", "span", "refs")

    def __init__(self, kind: str, values: Mapping[str, Any], loc: Loc, flags: FrozenSet[str] = frozenset(),
                 src: Tuple[str, ...] = (), span: Optional[str] = None, refs: Tuple = ()):
        setter = object.__setattr__
        setter(self, "kind", kind)
        setter(self, "_values", dict(values))
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
        return self._values.get(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self._values.get(key, default)

    def canon(self) -> str:
        """The fact's content without its place: equal facts written anywhere compare equal."""
        vals = sorted((k, repr(v)) for k, v in self._values.items() if not k.startswith("_"))
        return repr((self.kind, vals, sorted(self.flags), sorted(self.src), self.span))

    @property
    def fid(self) -> str:
        """A stable id: ``kind:id`` for declarations (the statements with an ``id``), ``kind@file:line`` otherwise."""
        if "id" in self._values:
            return f"{self.kind}:{self._values['id']}"
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

    def __iter__(self) -> Iterator[Fact]:
        return iter(self.facts)

    def __len__(self) -> int:
        return len(self.facts)

    @property
    def orgs(self) -> List[str]:
        return sorted(f["id"] for f in self.of("org"))
