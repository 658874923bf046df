"""Benchmark results as the rules score them (logic/lanes.py; docs/lanes.md).

    >>> for r in World.load("w").results("evalco"):              # doctest: +SKIP
    ...     print(r.id, r.lane, r.scoring_valid, r.magnitude, r.contribution)

Every number comes from the Datalog relations ``normalized_base``,
``lane_multiplier``, ``magnitude``, ``capped``, ``freshness``, ``fresh``,
``weighted`` and ``contribution``; validity from ``scoring_valid`` and
``zero_reason``; the M floor a result derives is the derived signal whose key is
the result (rule M.3). Nothing is computed here.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple, Union

from ..facts.results import GRADE_CEILING, INHERIT_MULTIPLIER, LAYERS, LEGACY_LANES, WEIGHT
from ..facts.halflife import YEAR_DAYS

Number = Union[Fraction, float]

#: The numbers of a row, in the order the text names them (03 Trust Magnitude contribution).
NUMBERS = ("base", "multiplier", "magnitude", "capped", "freshness", "fresh", "weighted", "contribution")
_RELATIONS = ("normalized_base", "lane_multiplier", "magnitude", "capped", "freshness", "fresh", "weighted",
              "contribution")

#: Why a schema-valid row scores 0 (relation ``zero_reason``), as people read it.
ZERO_REASONS = {
    "lane": "its lane scores 0",
    "uncatalogued": "it names no catalog source (unknown)",
    "catalog": "its catalog source's lane scores 0",
    "sources": "every source it cites is unusable (rejected or pending lane, or quarantined)",
}

#: The benchmark-result evidence type's parameters (03), as `results --json` shows them.
PARAMETERS = {
    "weight": WEIGHT, "grade_ceiling": GRADE_CEILING[0], "grade_ceiling_value": GRADE_CEILING[1],
    "allowed_layers": sorted(LAYERS), "inherit_multiplier": INHERIT_MULTIPLIER, "half_life_days": YEAR_DAYS,
}


@dataclass(frozen=True)
class Result:
    """One ``result`` statement: its lane and catalog source, whether it is scoring-valid, and its numbers."""

    id: str
    org: str
    benchmark: str
    lane: str
    catalog: Optional[str]  # its benchmark-source, if it names one
    catalog_lane: Optional[str]
    layer: str
    own_tasks: bool
    scoring_valid: bool
    zero_reasons: Tuple[str, ...]  # keys of ZERO_REASONS, empty when scoring-valid
    own_pages_only: bool  # documented only by the org's own pages (no M.3 floor; docs/lanes.md)
    run_at: Optional[str]
    age_days: Optional[int]  # days from run-at to the as-of date; 0 for a run after it; None undated
    ahead_days: Optional[int]  # a run dated after the as-of date: by how many days ("in the future")
    base: Number
    multiplier: Number
    magnitude: Number
    capped: Number
    freshness: Number
    fresh: Number
    weighted: Number
    contribution: Number
    signal: Optional[str]  # the derived M.3 signal, if the result derives one
    floor: Optional[int]  # its stated floor (before clamps; `value` gives the effective one)
    src: Tuple[str, ...]
    loc: str

    @property
    def legacy(self) -> bool:
        return self.lane in LEGACY_LANES

    def to_json(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {
            "id": self.id, "org": self.org, "benchmark": self.benchmark, "lane": self.lane,
            "legacy_lane": self.legacy, "catalog": self.catalog, "catalog_lane": self.catalog_lane,
            "layer": self.layer, "own_tasks": self.own_tasks, "schema_valid": True,
            "scoring_valid": self.scoring_valid, "zero_reasons": list(self.zero_reasons),
            "own_pages_only": self.own_pages_only, "run_at": self.run_at, "age_days": self.age_days,
            "in_the_future": self.ahead_days is not None, "days_ahead": self.ahead_days,
            "signal": self.signal, "floor": self.floor, "src": list(self.src), "loc": self.loc,
        }
        nums = {k: getattr(self, k) for k in NUMBERS}
        out.update({k: _num(v) for k, v in nums.items()})
        out["exact"] = {k: _exact(v) for k, v in nums.items()}
        return out


def _num(v: Number) -> Union[int, float]:
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return round(float(v), 9)


def _exact(v: Number) -> Optional[str]:
    """The exact rational as ``"p/q"`` (``"2"`` when whole); None if inexact."""
    return str(v) if isinstance(v, Fraction) else None


def parameters_json() -> Dict[str, Any]:
    return {k: (_exact(v) if isinstance(v, Fraction) else v) for k, v in PARAMETERS.items()}


def as_of_date(world) -> str:
    rows = world.derivation.program.match("as_of", 1, [])
    return date.fromordinal(rows[0][0]).isoformat() if rows else ""


def _exact_fraction(v) -> Fraction:
    # pyDatalog interns equal constants, so an exact 1 may come back as the int 1
    return Fraction(v) if isinstance(v, int) else v


def result_rows(world, org: Optional[str] = None) -> List[Result]:
    """Every result of the world (of one org if given), sorted by org and id."""
    match = world.derivation.program.match  # the read interface (logic/goal.py): no goal text
    one = {rel: {r: _exact_fraction(v) for r, v in match(rel, 2, [])} for rel in _RELATIONS}
    pairs = {rel: dict(match(rel, 2, [])) for rel in ("result_age", "result_ahead", "catalog_lane")}
    valid = {r for (r,) in match("scoring_valid", 1, [])}
    own_only = {r for (r,) in match("own_pages_only", 1, [])}
    reasons: Dict[str, List[str]] = {}
    for r, why in match("zero_reason", 2, []):
        reasons.setdefault(r, []).append(why)
    derived = {(s.rule, s.org, s.key): s for s in world.derivation.derived.values() if s.rule == "M.3"}
    out = []
    for f in world.facts.of("result"):
        if org is not None and f["org"] != org:
            continue
        r = f["id"]
        sig = derived.get(("M.3", f["org"], r))
        out.append(Result(
            r, f["org"], f["benchmark"], f["lane"], f["catalog"], pairs["catalog_lane"].get(r),
            f["layer"] or "named", "own-tasks" in f.flags, r in valid,
            tuple(k for k in ZERO_REASONS if k in reasons.get(r, ())), r in own_only, f["run-at"],
            pairs["result_age"].get(r), pairs["result_ahead"].get(r),
            *(one[rel][r] for rel in _RELATIONS),
            sig.id if sig else None, sig.bound if sig else None, tuple(f.src), str(f.loc)))
    return sorted(out, key=lambda x: (x.org, x.id))


def legacy_lanes(facts) -> List[str]:
    """Each result and catalog source written in a legacy lane (``check`` lists them), in file order."""
    rows = [f for kind in ("result", "benchmark-source") for f in facts.of(kind) if f["lane"] in LEGACY_LANES]
    return [f"{f.loc}: {f.kind} {f['id']} uses the legacy lane {f['lane']} (scores 0"
            + ("; an error under --strict" if f["lane"] == "pending" else "")
            + "): use reported after the human gate, or rejected"
            for f in sorted(rows, key=lambda f: (f.loc.file, f.loc.line))]


def _show(v: Number) -> str:
    """A number as the text shows it: a small fraction exactly (3/5, 1/512), else to 9 decimals."""
    if isinstance(v, Fraction) and v.denominator <= 1000:
        return str(v)
    return f"{float(v):.9f}".rstrip("0")


def _age(x: Result) -> str:
    if x.ahead_days is not None:
        return f"in the future: run {x.ahead_days} days after the as-of date"
    return "undated" if x.age_days is None else f"{x.age_days} days"


def print_results(as_of: str, origin: str, rows: List[Result], echo=print) -> None:
    echo(f"results as of {as_of} ({origin})")
    echo(f"  magnitude = normalized base x lane multiplier; capped = min(magnitude, 1); "
         f"fresh = capped x 2^(-age/{float(YEAR_DAYS)} days);")
    echo(f"  weighted = fresh x weight {float(WEIGHT)}; contribution = weighted (named layer), "
         f"x {float(INHERIT_MULTIPLIER)} from the generic layer; grade ceiling {GRADE_CEILING[0]}")
    if not rows:
        echo("  (no results)")
    for x in rows:
        via = f"catalog {x.catalog} ({x.catalog_lane})" if x.catalog else "no catalog source"
        valid = ("scoring-valid" if x.scoring_valid else
                 "schema-valid, not scoring-valid: " + "; ".join(ZERO_REASONS[k] for k in x.zero_reasons))
        floor = f"  -> {x.signal} M floor {x.floor}" if x.signal else ""
        legacy = " (legacy)" if x.legacy else ""
        echo(f"  {x.id}  {x.org}  {x.benchmark}  lane {x.lane}{legacy}  {via}  {x.layer} layer  {valid}")
        echo(f"      base {_show(x.base)} x{_show(x.multiplier)} = magnitude {_show(x.magnitude)}; "
             f"capped {_show(x.capped)}; fresh {_show(x.fresh)} ({_age(x)}, freshness {_show(x.freshness)}); "
             f"weighted {_show(x.weighted)}; contribution {_show(x.contribution)}{floor}")
