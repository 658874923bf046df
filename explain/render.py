"""Render an explanation: a readable tree, the JSON DAG of docs/json.md, or Graphviz dot.

Shared sub-proofs are printed once; later mentions point at their handle
(``#7``). With a depth limit, a cut sub-proof shows its handle: print it
with ``--from 7``.
"""
from __future__ import annotations

import json
from typing import Dict, List, Optional

import networkx as nx


def handles(g: nx.DiGraph, root: str) -> Dict[str, int]:
    """Stable short handles: depth-first order from the root."""
    out: Dict[str, int] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        if n in out:
            continue
        out[n] = len(out) + 1
        stack.extend(reversed(list(g.successors(n))))
    return out


def _line(g, n, h) -> str:
    a = g.nodes[n]
    loc = f"  @{a['loc']}" if a.get("loc") else ""
    srcs = ""
    for s in a.get("sources") or []:
        bits = [s["status"]] + ([f"tier {s['tier']}"] if s.get("tier") else []) + ([f"lane {s['lane']}"] if s.get("lane") else [])
        if s.get("quarantined"):
            bits.append("quarantined")
        if s.get("publisher"):
            bits.append(f"published by {s['publisher']}")
        span = f' "{s["span"]}"' if s.get("span") else ""
        srcs += f"\n      source {s['id']} ({', '.join(bits)}){span}"
    return f"#{h[n]} {a['label']}{loc}{srcs}"


def to_text(g: nx.DiGraph, root: str, depth: Optional[int] = None, start: Optional[int] = None) -> str:
    h = handles(g, root)
    if start is not None:
        by_h = {v: k for k, v in h.items()}
        if start not in by_h:
            raise KeyError(f"no node #{start} in this proof (handles run 1-{len(h)})")
        root = by_h[start]
    lines: List[str] = []
    seen = set()

    def walk(n, d, prefix):
        if n in seen:
            lines.append(f"{prefix}(see #{h[n]}) {g.nodes[n]['label']}")
            return
        seen.add(n)
        lines.append(prefix + _line(g, n, h).replace("\n", "\n" + prefix))
        kids = list(g.successors(n))
        if depth is not None and d >= depth and kids:
            lines.append(f"{prefix}  ... {len(kids)} more: expand with --from {h[n]}")
            return
        for c in kids:
            walk(c, d + 1, prefix + "  ")

    walk(root, 0, "")
    return "\n".join(lines)


def to_json(g: nx.DiGraph, root: str) -> Dict:
    h = handles(g, root)
    order = sorted(h, key=h.get)
    nodes = []
    for n in order:
        a = g.nodes[n]
        node = {"id": f"n{h[n]}", "kind": a.get("kind"), "label": a.get("label"), "rule": a.get("rule"),
                "loc": a.get("loc")}
        if a.get("sources"):
            node["sources"] = a["sources"]
        if a.get("fired") is not None:
            node["fired"] = a["fired"]
        nodes.append(node)
    edges = [[f"n{x}", f"n{y}"] for x, y in sorted((h[a], h[b]) for a, b in g.edges if a in h and b in h)]
    return {"root": f"n{h[root]}", "nodes": nodes, "edges": edges}


def to_dot(g: nx.DiGraph, root: str) -> str:
    h = handles(g, root)
    shape = {"fact": "note", "value": "doubleoctagon", "absent": "box", "condition": "plaintext",
             "excluded": "box", "clamp": "hexagon"}
    out = ["digraph proof {", "  rankdir=TB; node [fontname=\"Helvetica\", fontsize=10];"]
    for n in sorted(h, key=h.get):
        a = g.nodes[n]
        label = json.dumps(a.get("label") + (f"\n{a['loc']}" if a.get("loc") else ""))
        style = ', style="dashed"' if a.get("kind") in ("absent", "excluded") else ""
        style += ', penwidth=2' if a.get("fired") else ""
        out.append(f"  n{h[n]} [label={label}, shape={shape.get(a.get('kind'), 'ellipse')}{style}];")
    for a, b in sorted(g.edges, key=lambda e: (h.get(e[0], 0), h.get(e[1], 0))):
        if a in h and b in h:
            out.append(f"  n{h[a]} -> n{h[b]};")
    out.append("}")
    return "\n".join(out)
