"""The ``result`` statement (one benchmark-result evidence row) and the benchmark-source catalog.

Put this file beside seeds/provenance-lanes.txt (01 Provenance, 02
Reproducibility fingerprint, 03 Trust Magnitude, 04 benchmarkId) and
docs/lanes.md::

    result <id> <org> <benchmark-id> (score=<n> unit=pct|fraction | percentile=<n>)
        lane=<lane> [catalog=<benchmark-source>] [layer=named|generic] [run-at=<date>]
        [dataset-hash=<64 hex>] [input-hash=<64 hex>] [attestor="..."] [approved-by="..."]
        [own-tasks] [src=] [span=]
    benchmark-source <id> "<title or url>" lane=<lane>

A lane is verified, reported or rejected (the three lanes), or a legacy alias
accepted during migration (pending, candidate, retired, unknown), which scores
0; ``lane=self-attested`` is refused at the schema (E130).

The declarations are data (``schema.declare``); the checks that look at more
than one attribute (lane requirements, ranges, hashes) are :func:`check_result`
and :func:`check_catalog_source` (the declarations' ``check``), and those that look at more than one statement
(an attestor that is the org itself, a revision without a new hash) are
:func:`across` here, each with its CATALOG code (E160-E167). Nothing here
scores: lane multipliers, magnitudes, freshness, contributions and the M floors
are derived by the rules in logic/lanes.py, and no statement can set them
(schema.STATEMENTS.derived).

    >>> parse_benchmark_id("humaneval/plus@1")
    ('humaneval', 'plus', '1')
    >>> parse_benchmark_id("mmlu-5shot@2024-03")
    ('mmlu-5shot', '', '2024-03')
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Tuple

from . import schema as S
from . import values as V
from .dates import first_day  # a run's freshness counts from the first day its date can mean

#: ``<name>@<version>`` or ``<name>/<subset>@<version>`` (04 "Adding a new benchmark").
#: Names and subsets are lowercase slugs; a version is semver-ish: an optional
#: ``v``, digits, then ``.`` or ``-`` separated lowercase alphanumeric parts
#: (``1``, ``1.0.0``, ``1.0.0-rc.1``, ``2024-03``, ``v2``).
BENCHMARK_ID = re.compile(
    r"(?P<name>[a-z0-9][a-z0-9_.-]*)(?:/(?P<subset>[a-z0-9][a-z0-9_.-]*))?@(?P<version>v?\d+(?:[.-][0-9a-z]+)*)\Z")

#: Units a score may be given in, with the score's range: the base is score/100 for
#: ``pct`` and the score itself for ``fraction`` (logic/lanes.py, "normalized base").
UNITS = {"pct": (V.Fraction(0), V.Fraction(100)), "fraction": (V.Fraction(0), V.Fraction(1))}

#: Flags: ``own-tasks``: the benchmark is the org's own published open task set (M.3).
FLAGS = frozenset({"own-tasks"})

#: 01 Provenance: "The simplified #1419 model has three lanes" ...
LANES = ("verified", "reported", "rejected")
#: ... "with legacy aliases accepted during migration"; they score 0 ("rejected/pending/unknown/
#: candidate/retired rows use 0x"), and pending is an error under --strict (E164).
LEGACY_LANES = ("pending", "candidate", "retired", "unknown")

#: 03 Trust Magnitude contribution: the parameters of the benchmark-result evidence type.
#: The rules (logic/lanes.py) write these into their text; docs/lanes.md gives the readings.
WEIGHT = V.Fraction(7, 5)  # weight: 1.4
GRADE_CEILING = ("S", 4)  # gradeCeiling: S, the registry's top grade, read as provlog's top value 4
LAYERS = ("named", "generic")  # allowedLayers: [generic, named]; a result is recorded on one (default named)
INHERIT_MULTIPLIER = V.Fraction(3, 20)  # inheritMultiplier: 0.15, what a generic-layer result passes on


class BenchmarkIdError(V.BadValue):
    """A malformed benchmark id (E160)."""

    code = "E160"


class ResultRangeError(V.BadValue):
    """A score outside its unit's range or a percentile outside 0-100 (E165)."""

    code = "E165"


def parse_benchmark_id(text: str) -> Tuple[str, str, str]:
    m = BENCHMARK_ID.match(text)
    if not m:
        raise BenchmarkIdError(
            f"a benchmark id is <name>@<version> or <name>/<subset>@<version> in lowercase, with a "
            f"semver-ish version (humaneval@1, humaneval/plus@1, mmlu-5shot@2024-03), got {text!r}")
    return m["name"], m["subset"] or "", m["version"]


def _benchmark(text: str) -> str:
    parse_benchmark_id(text)
    return text


def parse_percentile(text: str) -> V.Fraction:
    n = V.parse_number(text)
    if n > 100:
        raise ResultRangeError(f"a percentile is 0-100, got {text}")
    return n


def parse_run_at(text: str) -> str:
    """A date (``2025``, ``2025-03``, ``2025-03-14``) that is on the calendar."""
    V.parse_date(text)
    try:
        first_day(text)
    except ValueError:
        raise V.BadValue(f"not a calendar date: {text!r}") from None
    return text


def normalize_name(text: str) -> str:
    """How an attestor and an org's name are compared: case-folded, spaces collapsed."""
    return " ".join(text.casefold().split())


def is_hex64(text: str) -> bool:
    return bool(V.HEX64.match(text))


def _plain(n: V.Fraction) -> str:
    """A number as a curator writes it: 120, 0.5 (not 1/2)."""
    return str(n.numerator) if n.denominator == 1 else f"{float(n):g}"


def check_result(values: dict, flags) -> list:
    """What a result needs beyond its fields (seeds/provenance-lanes.txt 01-03, docs/lanes.md): a score
    with its unit and in its range, well-formed hashes, and what its lane requires; E164 only under --strict."""
    out = []
    lane = values.get("lane")
    score, unit, pct = values.get("score"), values.get("unit"), values.get("percentile")
    if score is None and pct is None:
        out.append((None, "E106", "result needs a score: score=<n> unit=pct|fraction, or percentile=<n>"))
    elif score is not None and unit is None:
        out.append(("score", "E106", "score= needs unit=pct (0-100) or unit=fraction (0-1) to be normalized"))
    elif unit is not None and score is None:
        out.append(("unit", "E106", "unit= names the unit of score=, which is missing"))
    elif score is not None:
        lo, hi = UNITS[unit]
        if not lo <= score <= hi:
            out.append(("score", "E165", f"score={_plain(score)} is outside unit={unit}'s range {lo}-{hi}"))
    for key in ("dataset-hash", "input-hash"):
        h = values.get(key)
        if h is not None and not is_hex64(h):
            why = (f"{len(h)} characters" if len(h) != 64 else
                   "uppercase" if is_hex64(h.lower()) else "non-hex characters")
            out.append((key, "E161", f"{key}= is a SHA-256 as 64 lowercase hex characters; got {why}: "
                                     "uppercase, short or non-hex hashes are rejected"))
    if lane == "verified":
        for key in ("dataset-hash", "input-hash"):
            if values.get(key) is None:
                out.append((None, "E161", f"lane=verified needs {key}= as 64 lowercase hex (SHA-256): "
                                          "verified rows carry their reproducibility fingerprint"))
        if values.get("run-at") is None:
            out.append((None, "E162", "lane=verified needs run-at=<date>: the harness emits when it ran"))
    elif lane == "reported":
        for key in ("attestor", "approved-by"):
            if values.get(key) is None:
                out.append((None, "E163", f"lane=reported needs {key}=: a reported claim counts only with a "
                                          "public attestor and the human gate's approval"))
    return out + check_catalog_source(values, flags)


def check_catalog_source(values: dict, flags) -> list:
    """A legacy lane=pending (a result or a catalog source) is an error under --strict (E164)."""
    if values.get("lane") == "pending":
        return [("lane", "E164", "lane=pending is a legacy no-scoring alias and an error under --strict: "
                                 "use reported (approved) or rejected")]
    return []


def _score(f) -> Tuple:
    """What a row states as its score, comparable across units: (percentile, score as a fraction)."""
    score = f["score"]
    if score is not None and f["unit"] == "pct":
        score = score / 100
    return f["percentile"], score


def across(results: List, lookup: Callable[[str, str], Any]) -> List[Tuple[Any, str, str]]:
    """Checks over several statements, once every reference resolves (schema.Decl.across).

    - E166: the attestor is the org itself (its id, or its name compared case-folded with
      spaces collapsed): self-attestation written in another field, refused like ``lane=self-attested``.
    - E167: two results with the same (dataset-hash, input-hash) and different scores: "A revision
      produces a new hash and therefore a new row", so a revised score without new hashes is an error
      at the later row.
    """
    out = []
    for f in results:
        org = lookup("node", f["org"]) or lookup("org", f["org"])  # orgs share the node namespace
        attestor = f["attestor"]
        if attestor is not None and org is not None and normalize_name(attestor) in (
                f["org"], normalize_name(org["name"])):
            out.append((f, "E166", f"attestor={attestor!r} is {f['org']} itself: self-attestation is rejected "
                                   "at the schema; a row is attested by the CI workflow (verified) or by the public "
                                   "claim the human gate approved (reported)"))
    first: Dict[Tuple[str, str], Any] = {}
    for f in sorted(results, key=lambda x: (x.loc.file, x.loc.line)):
        key = (f["dataset-hash"], f["input-hash"])
        if None in key:
            continue
        prev = first.setdefault(key, f)
        if prev is not f and _score(prev) != _score(f):
            out.append((f, "E167", f"result {f['id']} has the dataset-hash and input-hash of {prev['id']} (at "
                                   f"{prev.loc}) and another score: a revision produces a new hash and therefore "
                                   "a new row; give the revised run its own hashes"))
    return out


_LANE = S.enum(*LANES, *LEGACY_LANES)

#: The benchmark results' statements, part of the independence RULES' language (facts/language.py).
STATEMENTS = S.Language("independence")

RESULT = STATEMENTS.declare(S.Decl(
    "result",
    (S.Field("id"), S.Field("org", ref=("org",)), S.Field("benchmark", _benchmark)),
    declares="result",
    flags=FLAGS,
    attrs=S._attrs(
        S.Field("lane", _LANE),
        S.opt("catalog", ref=("benchmark-source",)),
        S.opt("layer", S.enum(*LAYERS)),
        S.opt("score", V.parse_number), S.opt("unit", S.enum(*UNITS)), S.opt("percentile", parse_percentile),
        S.opt("run-at", parse_run_at),
        S.opt("dataset-hash", S._text), S.opt("input-hash", S._text),  # checked by check_result (E161)
        S.opt("attestor", S._text, quoted=True), S.opt("approved-by", S._text, quoted=True),
    ),
    check=check_result,
    across=across,
    summary="a benchmark result of an org, in a provenance lane",
))

#: The benchmark-source catalog (registry/benchmark-sources.json in the methodology): Phase 2B
#: "checks each benchmark-result row against" it; a row scores only through a catalog source in
#: the verified or reported lane (logic/lanes.py, PL.3).
BENCHMARK_SOURCE = STATEMENTS.declare(S.Decl(
    "benchmark-source",
    (S.Field("id"), S.Field("title", S._text, quoted=True)),
    declares="benchmark-source",
    evidence=False,
    attrs=S._attrs(S.Field("lane", _LANE)),
    check=check_catalog_source,
    summary="an entry of the benchmark-source catalog, with its lane",
))
