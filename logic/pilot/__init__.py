"""The pilot acceptance rulebook (issue 8): seeds/open-pilot-baseline.txt on the provlog engine.

Statements: facts/pilot.py. Rules: :mod:`.rules`. Readings: docs/rulebooks/pilot.md.

    provlog test facts/worlds/pilot
    provlog refute facts/worlds/pilot "pilot_pass('r-gap')" --rulebook pilot

The EDB below is a plain projection of checked facts (every inference is a
rule); each row remembers the facts it came from, so proofs end at
``file:line``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Dict, List, Tuple

from ...facts import pilot as F
from ...facts.model import Fact, FactSet
from ..rulebooks import Origins, Rulebook, collector
from .rules import PILOT

PREDICATES = {
    "pilot": 1, "pilot_material": 2, "run": 2, "run_date": 3, "scenario": 4, "metric": 4, "metric_precision": 5, "threshold": 5,
    "criterion": 4, "scorer": 2, "scorer_scope": 2, "scorer_result": 3, "check": 4,
    "event": 3, "event_confirmed": 3, "event_attempt": 4, "attempt": 2, "attempt_flag": 2, "attempt_result": 3,
    "fresh": 4, "fresh_explained": 4,
    "calibration": 3, "shadow": 3, "attack": 2, "attack_flag": 2,
    "application": 3, "application_limit": 2, "application_checkpoint": 1, "application_flag": 2,
    "application_date": 3,
    "change": 3, "change_flag": 2, "change_reaccepted_by": 2, "change_date": 3,
    # the text's fixed lists (section 5 Phase 0 and Phase 1; the result metrics of section 6)
    "phase0_case": 1, "shadow_aspect": 1, "result_metric": 1,
}


def _num(metric: str, v: Fraction):
    """A cost is shown as a whole number where it is one; every other value stays a fraction of one."""
    return int(v) if metric == "C" and v.denominator == 1 else v


def rows(facts: FactSet, origins: Origins) -> Dict[str, List[Tuple]]:
    """All EDB rows of the pilot rulebook, by predicate; ``origins`` maps each row to its fact."""
    out, add = collector(PREDICATES, origins)

    for c in F.CASES:
        add("phase0_case", None, c)
    for a in F.ASPECTS:
        add("shadow_aspect", None, a)
    for m in ("P", "R", "E", "D"):
        add("result_metric", None, m)
    _run_rows(facts, add)
    _event_rows(facts, add)
    _change_rows(facts, add)
    return out


def _run_rows(facts: FactSet, add) -> None:
    """Pilots, their runs and scenarios, metrics against thresholds, criteria, scorers and checks."""
    for f in facts.of("pilot"):
        add("pilot", f, f["id"])
        add("pilot_material", f, f["id"], f["material"] if f["material"] is not None else Fraction(0))
    for f in facts.of("run"):
        add("run", f, f["id"], f["pilot"])
        _add_date(add, "run_date", f)
    for f in facts.of("scenario"):
        add("scenario", f, f["id"], f["run"], f["outcome"], f["by"])
    for f in facts.of("metric"):
        add("metric", f, f["run"], f["metric"], _num(f["metric"], f["value"].value), f["source"])
        if f["metric"] == "E":  # the precision a stated E is published at (6.E compares it with the scenarios)
            add("metric_precision", f, f["run"], f["metric"], f["value"].value, f["source"], F.half_unit(f["value"]))
    for f in facts.of("threshold"):
        md = "mandatory" if "mandatory" in f.flags else "advisory"
        for b in ("min", "max"):
            if f[b] is not None:
                add("threshold", f, f["pilot"], f["metric"], b, _num(f["metric"], f[b].value), md)
    for f in facts.of("criterion"):
        add("criterion", f, f["id"], f["pilot"], f["by"], "mandatory" if "mandatory" in f.flags else "advisory")
    for f in facts.of("scorer"):
        add("scorer", f, f["id"], f["pilot"])
        for c in f["scope"]:
            add("scorer_scope", f, f["id"], c)
    for f in facts.of("scorer-result"):
        add("scorer_result", f, f["scorer"], f["run"], f["outcome"])
    for f in facts.of("check"):
        add("check", f, f["run"], f["criterion"], f["outcome"], f["by"])


def _event_rows(facts: FactSet, add) -> None:
    """What happened in a run (events, attempts, fresh controls) and the Phase 0 and 1 records
    (calibration, shadow)."""
    for f in facts.of("event"):
        add("event", f, f["run"], f["kind"], f["by"])
        if "confirmed" in f.flags:
            add("event_confirmed", f, f["run"], f["kind"], f["by"])
        if f["attempt"] is not None:
            add("event_attempt", f, f["run"], f["kind"], f["by"], f["attempt"])
    for f in facts.of("attempt"):
        add("attempt", f, f["id"], f["run"])
        for flag in sorted(f.flags):
            add("attempt_flag", f, f["id"], flag)
    for f in facts.of("attempt-result"):
        add("attempt_result", f, f["attempt"], f["outcome"], f["by"])
    for f in facts.of("fresh-control"):
        add("fresh", f, f["run"], f["fresh"], f["public"], f["by"])
        if f["explained-by"] is not None:
            add("fresh_explained", f, f["run"], f["fresh"], f["public"], f["explained-by"])
    for f in facts.of("calibration"):
        add("calibration", f, f["pilot"], f["case"], f["outcome"])
    for f in facts.of("shadow"):
        add("shadow", f, f["pilot"], f["aspect"], f["outcome"])


def _change_rows(facts: FactSet, add) -> None:
    """Attacks on a pilot, applications of it and changes to it, with their flags and dates."""
    for f in facts.of("attack"):
        add("attack", f, f["id"], f["pilot"])
        for flag in sorted(f.flags):
            add("attack_flag", f, f["id"], flag)
    for f in facts.of("application"):
        add("application", f, f["id"], f["pilot"], f["weight"])
        if f["limit"] is not None:
            add("application_limit", f, f["id"], f["limit"])
        if f["checkpoint"] is not None:
            add("application_checkpoint", f, f["id"])
        for flag in sorted(f.flags):
            add("application_flag", f, f["id"], flag)
        _add_date(add, "application_date", f)
    for f in facts.of("change"):
        add("change", f, f["id"], f["pilot"], f["what"])
        for flag in sorted(f.flags):
            add("change_flag", f, f["id"], flag)
        if f["reaccepted-by"] is not None:
            add("change_reaccepted_by", f, f["id"], f["reaccepted-by"])
        _add_date(add, "change_date", f)


def _add_date(add, pred: str, f: Fact) -> None:
    """``pred(id, First, Last)``: the days a ``date=`` spans (facts/pilot.py date_span); none if undated."""
    if f["date"] is not None:
        add(pred, f, f["id"], *F.date_span(f["date"]))


#: How a condition reads where it holds and where it does not ({0}, {1}...: its arguments), for
#: refute and for the absent conditions of a proof. Where a condition stands for several
#: failures, the text names the relation that lists them.
MEANINGS = {
    "verified": ("{0} is verified", "{0} is not verified (4: the status verified)"),
    "final_missing": ("{0} has no final value of a mandatory metric: see threshold_unmeasured({0}, M)",
                      "{0} has a final value of every mandatory metric"),
    "integrity_broken": ("{0}'s record is not intact: see rejects({0}, C)", "{0}'s record is intact"),
    "has_failed_threshold": ("{0} fails a mandatory threshold: see threshold_failed({0}, M)",
                             "{0} fails no mandatory threshold"),
    "rejected": ("{0} has a critical violation or a trust breach: see rejects({0}, C)",
                 "{0} has no critical violation and no trust breach"),
    "has_unpassed_criterion": ("{0} has a mandatory criterion its checker did not pass: see criterion_unpassed({0}, C)",
                               "{0} passes every mandatory criterion by its own checker"),
    "value_conflict": ("the trusted values of {1} for {0} disagree, or do not reproduce its calculation",
                       "the trusted values of {1} for {0} agree, and reproduce its calculation where there is one"),
    "has_final": ("{0} has a final value of {1}", "{0} has no final value of {1}"),
    "threshold_failed": ("{0} fails the mandatory threshold on {1}", "{0} meets the mandatory thresholds on {1}"),
    "k_satisfied": ("{0} satisfies the quality gate K", "{0} does not satisfy the quality gate K"),
    "k_threshold_stated": ("{0} states a threshold on K", "{0} states no threshold on K"),
    "result_differs": ("{0} and {1} differ in their verified result", "{0} and {1} have the same verified result"),
    "scorer_failed": ("a scorer whose scope lists {1} failed it on {0}", "no scorer whose scope lists {1} failed it on {0}"),
    "check_failed": ("the checker of {1} failed it on {0}", "the checker of {1} did not fail it on {0}"),
    "criterion_passed": ("{1} is passed on {0} by its own checker", "{1} is not passed on {0} by its own checker"),
    "explained": ("the shortfall of {0} ({1} against {2}) is explained by someone other than the policy",
                  "the shortfall of {0} ({1} against {2}) has no explanation but the policy's, if any"),
    "calibrated": ("Phase 0 shows {0} distinguishes {1}", "Phase 0 does not show that {0} distinguishes {1}"),
    "shadow_ok": ("shadow mode passed {1} for {0}", "shadow mode has not passed {1} for {0}"),
    "red_teamed": ("the red team attacked {0}", "no red-team attack on {0} is recorded"),
    "has_gap": ("{0} has a gap in Phase {1}: see phase_gap({0}, {1}, W)", "{0} has no gap in Phase {1}"),
    "reaccepted": ("change {0} was re-accepted by a passing run", "change {0} has no passing re-acceptance run"),
    "has_pending": ("{0} awaits a re-acceptance: see reacceptance_pending({0}, Ch)", "{0} awaits no re-acceptance"),
    "application_permitted": ("{0}'s signal may be applied (Phase 3)", "{0}'s signal may not be applied yet (Phase 3)"),
    "has_fault": ("{0} has a fault: see application_fault({0}, W)", "{0} has no fault"),
    "application_checkpoint": ("{0} retains a checkpoint", "{0} retains no checkpoint"),
    "has_clean_scenario": ("{0} has a scenario without a technical failure",
                           "every scenario of {0} the trusted side recorded ended in a technical failure"),
    "names_attempt": ("the {1} event by the {2} in {0} names an attempt of {0}",
                      "the {1} event by the {2} in {0} names no attempt of {0}"),
    "outcome_recorded": ("how attempt {0} ended is in the record", "nobody but the policy recorded how attempt {0} ended"),
    "ran_after": ("run {0} came after change {1}",
                  "run {0} is not shown to come after change {1} (5.4: both dated, the run's first day after the change's last)"),
    "phases_complete": ("{0} has passed Phases 0-2", "{0} has not passed Phases 0-2: see phase_gap({0}, N, W)"),
    "applied_before": ("application {0} came before change {1}", "application {0} is not shown to come before change {1}"),
    "reaccepted_before": ("change {0} was re-accepted before application {1}",
                          "change {0} is not shown re-accepted before application {1}"),
    "application_dated": ("application {0} is dated", "application {0} is undated"),
}


#: the pilot rulebook's record (logic/registry.py lists it with the others)
BOOK = Rulebook(
    "pilot", PILOT, PREDICATES, rows,
    summary="pilot acceptance (open pilot baseline, sections 4-7): thresholds one by one, "
            "non-compensatory critical violations, the trust architecture",
    meanings=MEANINGS,
)
