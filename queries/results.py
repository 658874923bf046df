"""Benchmark results as the rules score them (logic/lanes.py; docs/lanes.md).

    >>> for r in World.load("w").results("evalco"):              # doctest: +SKIP
    ...     print(r.id, r.lane, r.multiplier, r.freshness, r.magnitude)

Every number comes from the Datalog relations ``normalized_base``,
``lane_multiplier``, ``freshness``, ``result_age``, ``magnitude`` and
``self_attested``; the M floor a result derives is the derived signal whose key
is the result (rule M.3). Nothing is computed here.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple, Union

Number = Union[Fraction, float]


@dataclass(frozen=True)
class Result:
    """One ``result`` statement with its lane multiplier, freshness and magnitude."""

    id: str
    org: str
    benchmark: str
    lane: str
    own_tasks: bool
    self_attested: bool
    run_at: Optional[str]
    age_days: Optional[int]
    base: Number
    multiplier: Number
    freshness: Number
    magnitude: Number
    signal: Optional[str]  # the derived M.3 signal, if the result derives one
    floor: Optional[int]  # its stated floor (before clamps; `value` gives the effective one)
    src: Tuple[str, ...]
    loc: str

    def to_json(self) -> Dict[str, Any]:
        nums = {"base": self.base, "multiplier": self.multiplier, "freshness": self.freshness,
                "magnitude": self.magnitude}
        out: Dict[str, Any] = {
            "id": self.id, "org": self.org, "benchmark": self.benchmark, "lane": self.lane,
            "own_tasks": self.own_tasks, "self_attested": self.self_attested, "run_at": self.run_at,
            "age_days": self.age_days, "signal": self.signal, "floor": self.floor, "src": list(self.src),
            "loc": self.loc,
        }
        out.update({k: _num(v) for k, v in nums.items()})
        out["exact"] = {k: _exact(v) for k, v in nums.items()}
        return out


def _num(v: Number) -> Union[int, float]:
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return round(float(v), 6)


def _exact(v: Number) -> Optional[str]:
    """The exact rational as ``"p/q"`` (``"2"`` when whole); None if inexact."""
    return str(v) if isinstance(v, Fraction) else None


def as_of_date(world) -> str:
    rows = world.derivation.program.match("as_of", 1, [])
    return date.fromordinal(rows[0][0]).isoformat() if rows else ""


def result_rows(world, org: Optional[str] = None) -> List[Result]:
    """Every result of the world (of one org if given), sorted by org and id."""
    match = world.derivation.program.match
    one: Dict[str, Dict[str, Any]] = {}
    for rel in ("normalized_base", "lane_multiplier", "freshness", "magnitude", "result_age"):
        # pyDatalog interns equal constants, so an exact 1 may come back as the int 1
        one[rel] = {r: (Fraction(v) if isinstance(v, int) and rel != "result_age" else v)
                    for r, v in match(rel, 2, [])}
    selfs = {r for (r,) in match("self_attested", 1, [])}
    derived = {(s.rule, s.org, s.key): s for s in world.derivation.derived.values() if s.rule == "M.3"}
    out = []
    for f in world.facts.of("result"):
        if org is not None and f["org"] != org:
            continue
        r = f["id"]
        sig = derived.get(("M.3", f["org"], r))
        out.append(Result(
            r, f["org"], f["benchmark"], f["lane"], "own-tasks" in f.flags, r in selfs, f["run-at"],
            one["result_age"].get(r), one["normalized_base"][r], one["lane_multiplier"][r], one["freshness"][r],
            one["magnitude"][r], sig.id if sig else None, sig.bound if sig else None, tuple(f.src), str(f.loc)))
    return sorted(out, key=lambda x: (x.org, x.id))


def _show(v: Number) -> str:
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v} ({float(v):.4g})"
    return f"{v:.4g}"


def print_results(as_of: str, rows: List[Result], echo=print) -> None:
    echo(f"results at {as_of}: magnitude = min(base x lane multiplier, 1) x freshness x 1.4")
    if not rows:
        echo("  (no results)")
    for x in rows:
        floor = f"  -> {x.signal} M floor {x.floor}" if x.signal else ""
        lane = x.lane + (" (self-attested)" if x.self_attested else "")
        age = "undated" if x.age_days is None else f"{x.age_days} days"
        echo(f"  {x.id}  {x.org}  {x.benchmark}  {lane}  base {_show(x.base)}  x{_show(x.multiplier)}  "
             f"fresh {_show(x.freshness)} ({age})  magnitude {_show(x.magnitude)}{floor}")
