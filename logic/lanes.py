"""Provenance lanes and benchmark evidence: lane multipliers, freshness, magnitudes, M floors.

Put this file beside seeds/provenance-lanes.txt and docs/lanes.md. Clause ids:
``PL.1`` is the methodology's section 01 (Provenance), ``PL.3`` its section 03
(Trust Magnitude contribution); section 02 (Reproducibility fingerprint) and
the benchmark id of section 04 are enforced at load (facts/loader.py
``_check_result``, E160-E165). ``M.3`` is rules.txt section 7: "A public
leaderboard with open tasks and logs: 3; with third-party re-runs documented: 4."

Every number is an exact :class:`fractions.Fraction`. Freshness halves each
year; within a year it uses a documented rational approximation of
``2^(-x)`` (x = the fraction of the year), ``(10 - 3x) / (10 + 4x)``, which is
exact at every whole year, continuous, decreasing, and within 0.27% of
``2^(-days/365)`` (never below it).

A result of an org's own open tasks (``own-tasks``) in the verified lane,
attested by someone other than the org, derives an M floor 4 under M.3; in the
reported lane a floor 3. These are derived signals (stratum ``derive``) that
cite the result's ``src=`` (with its ``span=``), so C14, C16, section 9 and the
evidence policies act on them as on any signal. Freshness and magnitude never
bound a value: they rank evidence, they do not move the floor.
"""
from .mechanics import MECHANICS

r = MECHANICS.add
D = "derive"

# --- PL.1 Provenance: who attests a result ------------------------------------------
r("PL.1", "third_party_cited(R) <= result(R, O, Bm, L, F) & result_src(R, Src) & usable(Src) & source(Src, Pub, St, T) & (Pub != O)",
  "PL.1: {R} cites {Src}, a usable source published by {Pub}, not by {O} itself")
r("PL.1", "own_cited(R) <= result(R, O, Bm, L, F) & result_src(R, Src) & usable(Src) & source(Src, O, St, T)",
  "PL.1: {R} cites {Src}, which {O} publishes itself")
r("PL.1", "self_named(R) <= result(R, O, Bm, L, F) & result_attestor(R, A) & org_name(O, A)",
  "PL.1: {R}'s attestor is {O} itself (its name)")
r("PL.1", "self_named(R) <= result(R, O, Bm, L, F) & result_attestor(R, O)",
  "PL.1: {R}'s attestor is {O} itself (its id)")
r("PL.1", "self_attested(R) <= self_named(R)",
  "PL.1: {R} is attested by its own org: self-attestation is rejected and scores zero")
r("PL.1", "self_attested(R) <= own_cited(R) & ~third_party_cited(R)",
  "PL.1: {R} rests only on its own org's publications: self-attestation is rejected and scores zero")

# --- PL.3 Normalized base: percentile when present, else the score by its unit --------
r("PL.3", "has_percentile(R) <= result_percentile(R, P)", "{R} states a percentile")
r("PL.3", "normalized_base(R, B) <= result_percentile(R, P) & (B == P * Fraction(1, 100))",
  "PL.3: {R}'s base is its percentile {P} / 100")
r("PL.3", "normalized_base(R, B) <= result_score(R, S, 'pct') & ~has_percentile(R) & (B == S * Fraction(1, 100))",
  "PL.3: {R} has no percentile; its base is its score {S} (unit pct) / 100")
r("PL.3", "normalized_base(R, B) <= result_score(R, S, 'fraction') & ~has_percentile(R) & (B == S)",
  "PL.3: {R} has no percentile; its base is its score {S} (unit fraction)")

# --- PL.3 Lane multiplier: verified 2.0x, reported 1.0x, everything else 0x -----------
r("PL.3", "scoring_lane(R, X) <= result(R, O, Bm, 'verified', F) & ~self_attested(R) & (X == Fraction(2))",
  "PL.3: {R} is in the verified lane: multiplier 2.0")
r("PL.3", "scoring_lane(R, X) <= result(R, O, Bm, 'reported', F) & ~self_attested(R) & (X == Fraction(1))",
  "PL.3: {R} is in the reported lane: multiplier 1.0")
r("PL.3", "scores(R) <= scoring_lane(R, X)", "{R} is in a scoring lane")
r("PL.3", "lane_multiplier(R, X) <= scoring_lane(R, X)", "PL.3: {R}'s lane multiplier")
r("PL.3", "lane_multiplier(R, X) <= result(R, O, Bm, L, F) & ~scores(R) & (X == Fraction(0))",
  "PL.3: {R} is {L} (rejected, pending, or self-attested): multiplier 0")

# --- PL.3 Freshness: 50% per year, at the as-of date ------------------------------------
r("PL.3", "result_age(R, N) <= result_run(R, Day) & as_of(A) & (A >= Day) & (N == A - Day)",
  "PL.3: {R} ran {N} days before the as-of date")
r("PL.3", "result_age(R, 0) <= result_run(R, Day) & as_of(A) & (A < Day)",
  "PL.3: {R} is dated after the as-of date: age 0")
r("PL.3", "dated(R) <= result_run(R, Day)", "{R} has a run-at date")
r("PL.3", "freshness(R, Fr) <= result_age(R, N) & (K == N // 365) & (Q == N % 365) & (P == 2 ** K) & (Fr == Fraction(1) * (3650 - 3 * Q) / ((3650 + 4 * Q) * P))",
  "PL.3: {R} is {N} days old ({K} whole years and {Q} days): freshness 2^-{K} x (3650 - 3x{Q}) / (3650 + 4x{Q})")
r("PL.3", "freshness(R, Fr) <= result(R, O, Bm, L, F) & ~dated(R) & (Fr == Fraction(1))",
  "PL.3: {R} has no run-at (a reported claim need not): no decay")

# --- PL.3 Magnitude: base x multiplier, capped at 1 (the benchmark cap), x freshness x weight 1.4 ---
r("PL.3", "lane_score(R, S) <= normalized_base(R, B) & lane_multiplier(R, X) & (S == B * X)",
  "PL.3: {R}'s base x lane multiplier")
r("PL.3", "capped_score(R, C) <= lane_score(R, S) & (S <= 1) & (C == S)",
  "PL.3: {R}'s base x lane multiplier is within the benchmark cap of 1")
r("PL.3", "capped_score(R, C) <= lane_score(R, S) & (S > 1) & (C == Fraction(1))",
  "PL.3: the benchmark cap, applied after the lane multiplier, holds {R}'s base x multiplier at 1")
r("PL.3", "magnitude(R, M) <= capped_score(R, C) & freshness(R, Fr) & (M == C * Fr * Fraction(7, 5))",
  "PL.3: {R}'s magnitude: capped score x freshness x weight 1.4 (at most 1.4)")

# --- M.3 The link to the RULES: third-party runs of the org's own open tasks ----------------
r("M.3", "m3_result(R, O, 4) <= result(R, O, Bm, 'verified', F) & result_flag(R, 'own-tasks') & ~self_attested(R) & third_party_cited(R)",
  "M.3: {R} is a verified, reproducible third-party run of {O}'s own open tasks {Bm}: re-runs documented, floor 4", D)
r("M.3", "m3_result(R, O, 3) <= result(R, O, Bm, 'reported', F) & result_flag(R, 'own-tasks') & ~self_attested(R) & third_party_cited(R)",
  "M.3: {R} is a reported, human-approved public result on {O}'s own open tasks {Bm}: floor 3", D)
r("M.3", "derive('M.3', O, 'M', 'for', 'floor', N, R) <= m3_result(R, O, N)",
  "M.3: result {R} on {O}'s own open tasks: M floor {N}", D)
r("M.3", "uses('M.3', O, R, Fs) <= m3_result(R, O, N) & result(R, O, Bm, L, F) & (Fs == (F,))", "", D)
