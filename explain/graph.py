"""A proof graph: nodes with attributes, edges in the order the explainer adds them.

The explainer builds one small DAG per question and walks it once, so it keeps
them in plain dicts and needs no graph library (importing networkx was a
third of a stored ``why``). The methods are networkx's names for the same
things, and :meth:`ProofGraph.to_networkx` hands a copy to a caller who wants
networkx's algorithms (``World.explain`` does).

    >>> g = ProofGraph()
    >>> g.add_node("value", label="F = 1"); g.add_edge("value", "cap"); g.add_edge("cap", "fact")
    >>> list(g.successors("value")), sorted(g.descendants("value")), g.nodes["cap"]
    (['cap'], ['cap', 'fact'], {})
"""
from __future__ import annotations

from typing import Any, Dict, Hashable, Iterable, Iterator, Set, Tuple


class _Nodes:
    """``g.nodes``: ``g.nodes[n]`` is n's attribute dict; ``g.nodes(data=True)`` yields ``(n, attrs)``."""

    __slots__ = ("_attrs",)

    def __init__(self, attrs: Dict[Hashable, Dict[str, Any]]):
        self._attrs = attrs

    def __getitem__(self, n) -> Dict[str, Any]:
        return self._attrs[n]

    def get(self, n, default=None):
        return self._attrs.get(n, default)

    def __call__(self, data: bool = False):
        return iter(self._attrs.items()) if data else iter(self._attrs)

    def __iter__(self) -> Iterator:
        return iter(self._attrs)

    def __len__(self) -> int:
        return len(self._attrs)

    def __contains__(self, n) -> bool:
        return n in self._attrs


class ProofGraph:
    """A directed graph whose successors keep the order they were added in (a proof's children)."""

    def __init__(self):
        self._attrs: Dict[Hashable, Dict[str, Any]] = {}
        self._succ: Dict[Hashable, Dict[Hashable, None]] = {}
        self.nodes = _Nodes(self._attrs)

    def add_node(self, n, **attrs) -> None:
        """Add ``n`` (or update its attributes)."""
        if n not in self._attrs:
            self._attrs[n] = {}
            self._succ[n] = {}
        self._attrs[n].update(attrs)

    def add_edge(self, u, v) -> None:
        """Add the edge u -> v, and either node if new."""
        self.add_node(u)
        self.add_node(v)
        self._succ[u][v] = None

    def remove_edges_from(self, edges: Iterable[Tuple]) -> None:
        for u, v in edges:
            self._succ.get(u, {}).pop(v, None)

    def remove_nodes_from(self, nodes: Iterable) -> None:
        gone = set(nodes) & self._attrs.keys()
        for n in gone:
            del self._attrs[n], self._succ[n]
        for kids in self._succ.values():
            for n in gone & kids.keys():
                del kids[n]

    def successors(self, n) -> Iterator:
        return iter(self._succ[n])

    @property
    def edges(self) -> Iterator[Tuple]:
        return ((u, v) for u, kids in self._succ.items() for v in kids)

    def descendants(self, n) -> Set:
        """Every node reachable from ``n``, not ``n`` itself (as networkx.descendants)."""
        seen: Set = {n}
        stack = list(self._succ[n])
        while stack:
            m = stack.pop()
            if m not in seen:
                seen.add(m)
                stack.extend(self._succ[m])
        return seen - {n}

    def __contains__(self, n) -> bool:
        return n in self._attrs

    def __iter__(self) -> Iterator:
        return iter(self._attrs)

    def __len__(self) -> int:
        return len(self._attrs)

    def to_networkx(self):
        """The same graph as a ``networkx.DiGraph`` (nodes, attributes and edges in the same order)."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from((n, dict(a)) for n, a in self._attrs.items())
        g.add_edges_from(self.edges)
        return g
