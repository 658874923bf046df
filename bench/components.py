"""How far an edit can reach: the world split into parts that share no name (issue 14, "edits cost
what they touch").

    python -m bench.components --world bench/out/worlds/w1000-s1

Two statements are in one part when they name the same org, lab, entity, person, source or signal
(a stake, money row, role, invest, unit, cite, ... joins its ends). A part that shares no name with
another cannot change another's derivation by any rule that joins on names; that is the most an
incremental scheme could re-derive alone, before looking at rules that read across orgs
(docs/store.md, "Edits"). Prints the number of parts and the statements in the largest ones, first
with every name, then without the labs (every lab rule reaches its investors' and owners' orgs).
"""
from __future__ import annotations

import argparse
from collections import Counter
from typing import Dict, Iterable, List, Optional

from provlog.facts import load_world

#: attributes whose value names another statement's id
_REFS = ("org", "lab", "holder", "subject", "payer", "recipient", "investor", "target", "person", "at",
         "signal", "source", "publisher", "principal", "customer", "id", "attestor")


def _names(f) -> Iterable[str]:
    for k in _REFS:
        v = f[k]
        if isinstance(v, str):
            yield v
    yield from f.src
    for d in f["donors"] or ():
        yield d


def parts(facts, skip: Iterable[str] = ()) -> List[int]:
    """Statements per part (largest first), names in ``skip`` joining nothing."""
    skip = set(skip)
    parent: Dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    firsts = []
    for i, f in enumerate(facts):
        names = [n for n in _names(f) if n not in skip] or [f"#{i}"]
        first = find(names[0])
        for n in names[1:]:
            parent[find(n)] = first
        firsts.append(names[0])
    return sorted(Counter(find(n) for n in firsts).values(), reverse=True)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.components", description=__doc__.split("\n\n")[0])
    ap.add_argument("--world", required=True)
    a = ap.parse_args(argv)
    facts = load_world(a.world)
    labs = [f["id"] for f in facts.of("lab")]
    for label, skip in (("every name", ()), ("labs joining nothing", labs)):
        sizes = parts(facts, skip)
        print(f"{label}: {len(sizes)} parts of {len(facts)} statements; largest {sizes[:5]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
