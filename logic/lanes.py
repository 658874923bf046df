"""Provenance lanes and benchmark evidence: scoring validity, magnitudes, contributions, M floors.

Put this file beside seeds/provenance-lanes.txt and docs/lanes.md. Clause ids:
``PL.1`` is the methodology's section 01 (Provenance), ``PL.3`` its section 03
(Trust Magnitude contribution, with Phase 2B's catalog check); section 02
(Reproducibility fingerprint), the benchmark id of section 04 and the refusal
of self-attestation are enforced at load (facts/results.py ``check_result`` and
``across``: E130, E160-E167). ``M.3`` is rules.txt section 7:
"A public leaderboard with open tasks and logs: 3; with third-party re-runs
documented: 4."

The text's names, in order (every number an exact :class:`fractions.Fraction`):

- ``magnitude`` = normalized base score x lane multiplier ("Magnitude = normalized
  base score x lane multiplier"); the multiplier is 0 unless the row is scoring-valid;
- ``capped`` = min(magnitude, 1): "the existing benchmark cap applies after the lane multiplier";
- ``fresh`` = capped x freshness, ``2^(-age/365.25)`` (facts/halflife.py: exact at whole
  half-lives, 9 decimals elsewhere);
- ``weighted`` = fresh x weight 1.4;
- ``contribution`` = weighted on the named layer; a generic-layer result passes 0.15 of it
  (inheritMultiplier).

A result of an org's own open tasks (``own-tasks``), recorded on the named layer,
scoring-valid and documented by a source the org does not publish, derives an
M floor 4 under M.3 in the verified lane and 3 in the reported lane, within the
grade ceiling S (provlog's 4). These are derived signals (stratum ``derive``)
that cite the result's ``src=`` (with its ``span=``), so C14, C16, section 9 and
the evidence policies act on them as on any signal. Magnitudes never bound a
value: they rank evidence, they do not move the floor.
"""
from ..facts.results import GRADE_CEILING, INHERIT_MULTIPLIER, WEIGHT
from .clauses import CLAUSES
from .rules import RuleSet

LANES = RuleSet("lanes", statements=CLAUSES)
r = LANES.add
D = "derive"


def _frac(x) -> str:
    return f"Fraction({x.numerator}, {x.denominator})"


# --- PL.1 Provenance: who documents a result --------------------------------------------
r("PL.1", "third_party_cited(R) <= result(R, O, Bm, L, F) & result_src(R, Src) & usable(Src) & source(Src, Pub, St, T) & (Pub != O)",
  "PL.1: {R} cites {Src}, a usable source published by {Pub}, not by {O} itself")
r("PL.1", "own_cited(R) <= result(R, O, Bm, L, F) & result_src(R, Src) & usable(Src) & source(Src, O, St, T)",
  "PL.1: {R} cites {Src}, which {O} publishes itself")
r("PL.1", "own_pages_only(R) <= own_cited(R) & ~third_party_cited(R)",
  "PL.1: {R} is documented only by its org's own pages: it scores by its lane, but documents no third-party re-run (M.3)")

# --- PL.3 Phase 2B: schema-valid is not scoring-valid ------------------------------------------
r("PL.3", "catalog_lane(R, CL) <= result_catalog(R, C) & benchmark_source(C, CL)",
  "PL.3: {R}'s catalog source {C} is in the {CL} lane")
r("PL.3", "catalog_scores(R) <= catalog_lane(R, 'verified')", "PL.3: {R}'s catalog source is verified")
r("PL.3", "catalog_scores(R) <= catalog_lane(R, 'reported')", "PL.3: {R}'s catalog source is reported (human-approved)")
r("PL.3", "catalogued(R) <= result_catalog(R, C)", "{R} names a catalog source")
r("PL.3", "lane_scores(R, X) <= result(R, O, Bm, 'verified', F) & result_fingerprint(R) & (X == Fraction(2, 1))",
  "PL.3: {R} is verified with its reproducibility fields (both hashes, run-at): lane multiplier 2.0")
r("PL.3", "lane_scores(R, X) <= result(R, O, Bm, 'reported', F) & result_approved(R) & (X == Fraction(1, 1))",
  "PL.3: {R} is reported with a public attestor and the human gate's approval: lane multiplier 1.0")
r("PL.3", "in_scoring_lane(R) <= lane_scores(R, X)", "{R} is in a scoring lane")
r("PL.3", "usable_cited(R) <= result_src(R, Src) & usable(Src)", "{R} cites a usable source")
r("PL.3", "unusable_only(R) <= result_src(R, Src) & ~usable_cited(R)",
  "PL.3: every source {R} cites is unusable (in the rejected or pending lane, or quarantined)")
r("PL.3", "scoring_valid(R) <= in_scoring_lane(R) & catalog_scores(R) & ~unusable_only(R)",
  "PL.3: {R} is scoring-valid: a scoring lane, through a verified or reported catalog source (Phase 2B)")
r("PL.3", "zero_reason(R, 'lane') <= result(R, O, Bm, L, F) & ~in_scoring_lane(R)",
  "PL.3: {R} is in the {L} lane, which scores 0 (rejected, or a legacy alias)")
r("PL.3", "zero_reason(R, 'uncatalogued') <= result(R, O, Bm, L, F) & ~catalogued(R)",
  "PL.3: {R} names no catalog source: an unknown catalog source scores 0")
r("PL.3", "zero_reason(R, 'catalog') <= catalog_lane(R, CL) & ~catalog_scores(R)",
  "PL.3: {R}'s catalog source is in the {CL} lane, which scores 0")
r("PL.3", "zero_reason(R, 'sources') <= unusable_only(R)",
  "PL.3: {R} rests only on unusable sources: a rejected source scores 0")

# --- PL.3 Magnitude = normalized base score x lane multiplier ----------------------------------
r("PL.3", "has_percentile(R) <= result_percentile(R, P)", "{R} states a percentile")
r("PL.3", "normalized_base(R, B) <= result_percentile(R, P) & (B == P * Fraction(1, 100))",
  "PL.3: {R}'s base is its percentile {P} / 100")
r("PL.3", "normalized_base(R, B) <= result_score(R, S, 'pct') & ~has_percentile(R) & (B == S * Fraction(1, 100))",
  "PL.3: {R} has no percentile; its base is its score {S} (unit pct) / 100")
r("PL.3", "normalized_base(R, B) <= result_score(R, S, 'fraction') & ~has_percentile(R) & (B == S)",
  "PL.3: {R} has no percentile; its base is its score {S} (unit fraction)")
r("PL.3", "lane_multiplier(R, X) <= lane_scores(R, X) & scoring_valid(R)", "PL.3: {R} is scoring-valid: its lane's multiplier")
r("PL.3", "lane_multiplier(R, X) <= result(R, O, Bm, L, F) & ~scoring_valid(R) & (X == Fraction(0, 1))",
  "PL.3: {R} is not scoring-valid: lane multiplier 0")
r("PL.3", "magnitude(R, M) <= normalized_base(R, B) & lane_multiplier(R, X) & (M == B * X)",
  "PL.3: {R}'s magnitude: normalized base x lane multiplier")

# --- PL.3 then capped, fresh, weighted contribution ----------------------------------------------
r("PL.3", "capped(R, C) <= magnitude(R, M) & (M <= 1) & (C == M)",
  "PL.3: {R}'s magnitude is within the benchmark cap of 1")
r("PL.3", "capped(R, C) <= magnitude(R, M) & (M > 1) & (C == Fraction(1, 1))",
  "PL.3: the benchmark cap, applied after the lane multiplier, holds {R}'s magnitude at 1")
r("PL.3", "dated(R) <= result_age(R, N)", "{R} has a run-at date")
r("PL.3", "freshness(R, Fr) <= result_age(R, N) & decay(N, Fr)",
  "PL.3: {R} ran {N} days before the as-of date: freshness 2^(-{N}/365.25), half-life one year")
r("PL.3", "freshness(R, Fr) <= result(R, O, Bm, L, F) & ~dated(R) & (Fr == Fraction(1, 1))",
  "PL.3: {R} has no run-at (a reported claim need not): no decay")
r("PL.3", "fresh(R, Fh) <= capped(R, C) & freshness(R, Fr) & (Fh == C * Fr)",
  "PL.3: {R}'s fresh magnitude: capped x freshness")
r("PL.3", f"weighted(R, Wt) <= fresh(R, Fh) & (Wt == Fh * {_frac(WEIGHT)})",
  f"PL.3: {{R}}'s weighted contribution: fresh x weight {float(WEIGHT)}")
r("PL.3", "contribution(R, Wt) <= weighted(R, Wt) & result_layer(R, 'named')",
  "PL.3: {R} is recorded on the named layer: it contributes its weighted magnitude")
r("PL.3", f"contribution(R, I) <= weighted(R, Wt) & result_layer(R, 'generic') & (I == Wt * {_frac(INHERIT_MULTIPLIER)})",
  f"PL.3: {{R}} is recorded on the generic layer: a named layer inherits {float(INHERIT_MULTIPLIER)} of it")

# --- M.3 The link to the RULES: third-party runs of the org's own open tasks ----------------
_M3 = ("result_flag(R, 'own-tasks') & scoring_valid(R) & result_layer(R, 'named') & third_party_cited(R) "
       "& grade_ceiling(G, C) & (C >= {n})")
r("M.3", "m3_result(R, O, 4) <= result(R, O, Bm, 'verified', F) & " + _M3.format(n=4),
  f"M.3: {{R}} is a scoring-valid verified run of {{O}}'s own open tasks {{Bm}}, documented by a third party: "
  f"re-runs documented, floor 4 (within the grade ceiling {GRADE_CEILING[0]})", D)
r("M.3", "m3_result(R, O, 3) <= result(R, O, Bm, 'reported', F) & " + _M3.format(n=3),
  "M.3: {R} is a scoring-valid, human-approved public result on {O}'s own open tasks {Bm}: floor 3", D)
r("M.3", "derive('M.3', O, 'M', 'for', 'floor', N, R) <= m3_result(R, O, N)",
  "M.3: result {R} on {O}'s own open tasks: M floor {N}", D)
r("M.3", "uses('M.3', O, R, Fs) <= m3_result(R, O, N) & result(R, O, Bm, L, F) & (Fs == (F,))", "", D)
