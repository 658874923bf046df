"""Render an explanation: a readable tree, the JSON DAG of docs/json.md, or one Graphviz digraph.

Shared sub-proofs are printed once; later mentions point at their handle
(``#7``). With a depth limit, a cut sub-proof shows its handle: print it
with ``--from 7``. Depth and ``--from`` cut the JSON and the DOT the same way.
"""
from __future__ import annotations

import json
from typing import Dict, List, Optional, Sequence, Union

from .graph import ProofGraph


Roots = Union[str, Sequence[str]]


def _roots(root: Roots) -> List[str]:
    return [root] if isinstance(root, str) else list(root)


def handles(g: ProofGraph, root: Roots) -> Dict[str, int]:
    """Stable short handles: depth-first order from the root (from each root in turn, numbered on)."""
    out: Dict[str, int] = {}
    for r in _roots(root):
        stack = [r]
        while stack:
            n = stack.pop()
            if n in out:
                continue
            out[n] = len(out) + 1
            stack.extend(reversed(list(g.successors(n))))
    return out


def _start(g, root: Roots, h: Dict[str, int], start: Optional[int]) -> List[str]:
    """The roots to show: every root, or with ``start`` the node at handle #start."""
    if start is None:
        return _roots(root)
    by_h = {v: k for k, v in h.items()}
    if start not in by_h:
        raise KeyError(f"no node #{start} in this proof (handles run 1-{len(h)})")
    return [by_h[start]]


def view(g: ProofGraph, root: Roots, depth: Optional[int] = None, start: Optional[int] = None):
    """What a reader sees of a proof in every format: the handles (of the whole proof, so
    ``--from N`` means the same node everywhere), the roots shown, the nodes shown (in handle
    order), and the nodes cut by ``depth`` with how many children each hides."""
    h = handles(g, root)
    roots = _start(g, root, h, start)
    shown: List[str] = []
    cut: Dict[str, int] = {}
    seen = set()

    def walk(n, d):
        if n in seen:
            return
        seen.add(n)
        shown.append(n)
        kids = list(g.successors(n))
        if depth is not None and d >= depth and kids:
            cut[n] = len(kids)
            return
        for c in kids:
            walk(c, d + 1)

    for r in roots:
        walk(r, 0)
    return h, roots, sorted(shown, key=h.get), cut


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


def to_text(g: ProofGraph, root: Roots, depth: Optional[int] = None, start: Optional[int] = None) -> str:
    """The proof as an indented tree; several roots (a goal's answers) one after another."""
    h = handles(g, root)
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

    for i, r in enumerate(_start(g, root, h, start)):
        if i:
            lines.append("")
        walk(r, 0, "")
    return "\n".join(lines)


def to_json(g: ProofGraph, root: str, depth: Optional[int] = None, start: Optional[int] = None) -> Dict:
    """The proof DAG (docs/json.md, "proof"): nodes in handle order, edges, the root; a node that
    ``depth`` cuts carries ``more`` (its hidden children) and ``expand`` (its handle for --from)."""
    h, roots, shown, cut = view(g, root, depth, start)
    nodes = []
    for n in shown:
        a = g.nodes[n]
        node = {"id": f"n{h[n]}", "kind": a.get("kind"), "label": a.get("label"), "rule": a.get("rule"),
                "loc": a.get("loc")}
        if a.get("sources"):
            node["sources"] = a["sources"]
        if a.get("fired") is not None:
            node["fired"] = a["fired"]
        if n in cut:
            node["more"], node["expand"] = cut[n], h[n]
        nodes.append(node)
    keep = set(shown)
    edges = [[f"n{x}", f"n{y}"] for x, y in sorted((h[a], h[b]) for a, b in g.edges
                                                   if a in keep and b in keep and a not in cut)]
    return {"root": f"n{h[roots[0]]}", "nodes": nodes, "edges": edges}


_SHAPE = {"fact": "note", "value": "doubleoctagon", "absent": "box", "condition": "plaintext",
          "excluded": "box", "clamp": "hexagon"}


def to_dot(g: ProofGraph, root: Roots, depth: Optional[int] = None, start: Optional[int] = None) -> str:
    """One DOT digraph; with several roots (a goal's answers) one cluster per answer, holding the
    nodes first reached from it (a shared sub-proof sits in the first)."""
    h, roots, shown, cut = view(g, root, depth, start)
    out = ["digraph proof {", "  rankdir=TB; node [fontname=\"Helvetica\", fontsize=10];"]

    def node(n):
        a = g.nodes[n]
        text = a.get("label") + (f"\n{a['loc']}" if a.get("loc") else "")
        if n in cut:
            text += f"\n... {cut[n]} more: --from {h[n]}"
        style = ', style="dashed"' if a.get("kind") in ("absent", "excluded") else ""
        style += ', penwidth=2' if a.get("fired") else ""
        return f"n{h[n]} [label={json.dumps(text)}, shape={_SHAPE.get(a.get('kind'), 'ellipse')}{style}];"

    if len(roots) == 1:
        out += [f"  {node(n)}" for n in shown]
    else:
        owner: Dict[str, int] = {}
        for i, r in enumerate(roots):  # handle order is depth-first from each root in turn
            for n in [r, *g.descendants(r)]:
                owner.setdefault(n, i)
        for i, r in enumerate(roots):
            out.append(f"  subgraph cluster_{i + 1} {{")
            out.append(f"    label={json.dumps('answer ' + str(i + 1))};")
            out += [f"    {node(n)}" for n in shown if owner.get(n) == i]
            out.append("  }")
    keep = set(shown)
    for a, b in sorted(g.edges, key=lambda e: (h.get(e[0], 0), h.get(e[1], 0))):
        if a in keep and b in keep and a not in cut:
            out.append(f"  n{h[a]} -> n{h[b]};")
    out.append("}")
    return "\n".join(out)
