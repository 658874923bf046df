"""The import graph of the package, read from the source with ast (module-level imports and the lazy
ones inside functions alike): no cycle, and no layer imports a higher one.

Layers, low to high: provlog's root leaves (errors, version) -> grammar -> facts -> logic -> explain
-> importers -> queries; the root package's ``__init__`` is a facade above them all.
"""
import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ["grammar", "facts", "logic", "explain", "importers", "queries"]
#: layer -> the layers it may import (besides itself and provlog's root leaves)
ALLOWED = {
    "grammar": set(),
    "facts": {"grammar"},
    "logic": {"grammar", "facts"},
    "explain": {"grammar", "facts", "logic"},
    "importers": {"grammar", "facts", "logic"},
    "queries": {"grammar", "facts", "logic", "explain", "importers"},
}
#: Cycles not yet cut (issue 30), each as its sorted modules. This list only shrinks: the test fails on
#: a cycle not in it, and on an entry that is no longer a cycle (then delete the entry).
KNOWN_CYCLES: set = set()


def _modules():
    """Dotted module name -> (path, whether it is a package's __init__)."""
    mods = {}
    for top in ["provlog"] + LAYERS:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[0] != "provlog":
                parts.insert(0, "provlog")
            is_pkg = parts[-1] == "__init__"
            mods[".".join(parts[:-1] if is_pkg else parts)] = (path, is_pkg)
    return mods


def _targets(node, here, is_pkg, mods):
    """The provlog modules one import statement loads (``from pkg import mod`` loads pkg.mod)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = here.split(".")[: None if is_pkg else -1]
            base = base[: len(base) - (node.level - 1)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        names = [f"{module}.{a.name}" if f"{module}.{a.name}" in mods else module for a in node.names]
    for name in names:
        while name not in mods and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in mods and name != here:
            yield name


def import_graph():
    """A DiGraph of provlog's modules; each edge keeps the import lines (path:line, source) behind it."""
    mods, graph = _modules(), nx.DiGraph()
    for here, (path, is_pkg) in mods.items():
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for there in _targets(node, here, is_pkg, mods):
                    graph.add_edge(here, there)
                    line = ast.get_source_segment(text, node).splitlines()[0]
                    graph[here][there].setdefault("why", set()).add(
                        f"{path.relative_to(ROOT)}:{node.lineno}: {line}")
    return graph


def _layer(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else None


def test_no_import_cycle():
    graph = import_graph()
    found, report = set(), []
    for cycle in nx.simple_cycles(graph):
        key = tuple(sorted(cycle))
        found.add(key)
        if key not in KNOWN_CYCLES:
            hops = zip(cycle, cycle[1:] + cycle[:1])
            report.append(" -> ".join(cycle + cycle[:1]) + "\n" + "\n".join(
                f"    {w}" for a, b in hops for w in sorted(graph[a][b]["why"])))
    gone = KNOWN_CYCLES - found
    assert not report, "import cycles:\n" + "\n".join(report)
    assert not gone, f"no longer cycles, delete them from KNOWN_CYCLES: {sorted(gone)}"


def test_no_layer_imports_upward():
    graph, wrong = import_graph(), []
    for a, b in graph.edges:
        la, lb = _layer(a), _layer(b)
        if la and lb and la != lb and lb not in ALLOWED[la]:
            wrong += sorted(f"{w}  ({la} imports {lb})" for w in graph[a][b]["why"])
        elif la and b == "provlog":  # the root's __init__ is the facade over queries: a layer reads leaves
            wrong += sorted(f"{w}  ({la} imports the provlog facade)" for w in graph[a][b]["why"])
    assert not wrong, "\n".join(wrong)


def test_the_graph_sees_lazy_imports():
    """The lazy import inside grammar/parser.py's scanner is an edge, like a module-level one."""
    assert import_graph().has_edge("provlog.grammar.parser", "provlog.grammar.lark_facts")
