"""Who is in the registry and why (RULES section 11): each candidate checked, the criterion applied,
the result recorded, and the result derived at the world's as-of date.

Inclusion, within scope: "cited as an external evaluator or red team in at least one frontier system
card or government evaluation report in the last 24 months" (``system-card``: the cited source's
date must lie in the 24 months up to the as-of date); "named in a
statute, code, or standard as an evaluator" (``statute``) or "operating a safety benchmark cited by a
frontier developer" (``benchmark``): the cited source is the criterion met. A candidate whose org is
``status=out-of-scope`` derives ``out-of-scope``: "unranked, shown in their own section, and excluded
from every statistic", so :func:`counts` leaves it out. The results are derived (logic/population.py,
clause 11); this module presents them.

    >>> from provlog import World
    >>> w = World.from_text('lab v "V"\\nsource card "V-1 card" publisher=v status=confirmed date=2024-06-30\\n'
    ...     'candidate c1 "C1" criterion=system-card result=excluded checked=2026-08-10 cited=card\\n'
    ...     'candidate c2 "C2" criterion=statute result=included checked=2026-08-10 cited=card\\n'
    ...     'as-of 2026-09-01\\n')
    >>> [(c["id"], c["derived"]) for c in candidates(w)]
    [('c1', 'excluded'), ('c2', 'included')]
    >>> counts(w)
    {'checked': 2, 'included': 1, 'excluded': 1, 'out_of_scope': 0}
"""
from __future__ import annotations

from typing import Any, Dict, List


def derived(world, f) -> str:
    """The result section 11 gives candidate ``f`` at the world's as-of date (logic/population.py
    ``candidate_result``, clause 11: ``provlog prove "candidate_result(C, R)"`` shows its proof)."""
    return world.derivation.candidate_results.get(f["id"], "excluded")


def candidates(world) -> List[Dict[str, Any]]:
    """Every candidate, sorted by id: recorded and derived result, the criterion and its source."""
    out = []
    for f in sorted(world.facts.of("candidate"), key=lambda f: f["id"]):
        src = world.facts.sources.get(f["cited"])
        got = derived(world, f)
        out.append({"id": f["id"], "name": f["name"], "criterion": f["criterion"], "result": f["result"],
                    "derived": got, "agrees": got == f["result"], "checked": f["checked"], "cited": f["cited"],
                    "cited_title": src["title"] if src is not None else None,
                    "cited_date": src["date"] if src is not None else None, "org": f["org"], "note": f["note"],
                    "loc": str(f.loc)})
    return out


def counts(world) -> Dict[str, int]:
    """The numbers of candidates by derived result; out-of-scope ones are in no other count."""
    rows = candidates(world)
    scoped = [c for c in rows if c["derived"] != "out-of-scope"]
    return {"checked": len(scoped), "included": sum(c["derived"] == "included" for c in scoped),
            "excluded": sum(c["derived"] == "excluded" for c in scoped), "out_of_scope": len(rows) - len(scoped)}

