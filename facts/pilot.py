"""Statements of the pilot acceptance rulebook (seeds/open-pilot-baseline.txt, sections 4-7).

Put this file beside the baseline and docs/rulebooks/pilot.md. A pilot
publishes thresholds and criteria; each run of it publishes raw metrics, the
results of its scorers and external checks, and the record of who did what::

    pilot <id> "<name>" [material=<proportion>]          # material=: the fresh-control shortfall that is material (7)
    run <id> <pilot> [model=<id>] [checkpoint=<id>] [date=<date>]
    scenario <id> <run> ok|failed|technical-failure by=<who>      # the source measurements of E (6)
    metric <run> <P|R|E|D|K|C> <value> source=runner|calculator|harness|scorer|policy|self-report
    threshold <pilot> <P|R|E|D|K|C> [min=<value>] [max=<value>] [mandatory]
    criterion <id> <pilot> by=scorer|harness|fresh-control|red-team [mandatory]
    scorer <id> <pilot> scope=<criterion,...>
    scorer-result <scorer> <run> pass|fail
    check <run> <criterion> pass|fail by=<who>
    event <run> <kind> by=<who> [confirmed] [attempt=<attempt>] [note="..."]
    attempt <id> <run> [deleted] [concealed]
    attempt-result <attempt> succeeded|unsuccessful by=<who>       # how an initiated attempt ended (4, 7)
    fresh-control <run> <fresh score> public=<score> by=<who> [explained="<why>" explained-by=<who>]
    calibration <pilot> <case> distinguished|missed      # Phase 0
    shadow <pilot> <aspect> pass|fail                    # Phase 1
    attack <id> <pilot> [succeeded] [published]          # Phase 2
    application <id> <pilot> weight=<proportion> [limit=<proportion>] [checkpoint=<id>] [fresh-repeated] [date=<date>]  # Phase 3
    change <id> <pilot> <model|tool-permissions|verifier|generator> [material] [reaccepted-by=<run>] [date=<date>]       # Phase 4

A metric value is exact: P, R, E and D are proportions (``0.93`` or ``93%``),
K is ``pass``/``fail`` or a proportion, C is an amount (``120``, ``1.5k``).
``<who>`` is one of :data:`WHO`; ``policy`` is the evaluated party. A ``date=``
(``2025``, ``2025-03`` or ``2025-03-14``) orders runs, changes and applications
for Phase 4 (:func:`date_span`). Nothing
here decides anything: final values, ``verified``, thresholds met, critical
violations and ``pilot_pass`` are derived by logic/pilot/rules.py, and no
statement or attribute may set them (:data:`STATEMENTS`'s ``derived``, load error E140).

    >>> parse_measure("93%").value, parse_measure("1.5k").value, parse_measure("pass").value
    (Fraction(93, 100), Fraction(1500, 1), Fraction(1, 1))
    >>> date_span("2025-02")
    ('2025-02-01', '2025-02-28')
"""
from __future__ import annotations

import calendar
from dataclasses import dataclass
from fractions import Fraction
from typing import Dict, FrozenSet, List, Optional, Tuple

from . import schema as S

from . import values as V

#: The metrics of section 6 ("General notation").
METRICS = ("P", "R", "E", "D", "K", "C")
#: Metrics that are proportions of one (P, R, E, D); K is a gate; C is a cost.
PROPORTIONS = ("P", "R", "E", "D")
#: Who wrote a metric: the trusted test runner, the independent calculation module and the
#: external measurement harness produce final values (section 4); the rest are diagnostics.
SOURCES = ("runner", "calculator", "harness", "scorer", "policy", "self-report")
TRUSTED_SOURCES = ("runner", "calculator", "harness")
#: Who did or wrote something. ``policy`` is the evaluated policy; ``evaluator`` the evaluator model.
WHO = ("policy", "runner", "calculator", "harness", "fresh-control", "red-team", "scorer", "evaluator", "human")
#: Who checks a criterion (section 6: a scorer script, or externally).
CHECKERS = ("scorer", "harness", "fresh-control", "red-team")
EXTERNAL_CHECKERS = ("harness", "fresh-control", "red-team")
#: What an `event` records (sections 4 and 7); `create-artefact` is the one thing the policy may do.
EVENTS = (
    "create-artefact", "assign-verified", "write-final-value", "write-signal", "change-control",
    "change-expected", "delete-control", "delete-attempt", "conceal-attempt", "select-evaluator",
    "change-formula", "write-assessment-log", "release-escrow", "secret-leak", "exec-artefact-command",
    "self-report-substituted", "circumvent-check", "not-reproducible",
)
#: Phase 0: what the measurement mechanism must distinguish.
CASES = ("correct", "partial", "self-report", "log-exploit", "check-omission", "evaluator-manipulation",
         "known-set-only")
#: Phase 1: what shadow mode checks (and that the signal did not change the policy).
ASPECTS = ("reproducibility", "logging", "divergence", "verification-cost", "policy-unchanged")
#: Phase 4: a material change to any of these requires re-acceptance.
CHANGES = ("model", "tool-permissions", "verifier", "generator")
#: How a scenario ended (6, E): ``failed`` ran to its end with a wrong result, which is no
#: technical failure; ``technical-failure`` did not execute (crash, timeout, harness error).
SCENARIO_OUTCOMES = ("ok", "failed", "technical-failure")
#: How an initiated attempt ended (4 "an initiated or unsuccessful attempt").
ATTEMPT_OUTCOMES = ("succeeded", "unsuccessful")
#: The events that act on one attempt, and so may name it with ``attempt=``.
ATTEMPT_EVENTS = ("delete-attempt", "conceal-attempt")


@dataclass(frozen=True)
class Measure:
    """A metric value as written: its exact value and its form (pct, number, amount, gate)."""

    value: Fraction
    form: str
    text: str

    def __str__(self) -> str:
        return self.text


def parse_measure(text: str) -> Measure:
    """``pass``/``fail``, a single percentage, or a number (with k/M/B for an amount)."""
    if text in ("pass", "fail"):
        return Measure(Fraction(1 if text == "pass" else 0), "gate", text)
    if text.endswith("%"):
        p = V.parse_pct(text)  # E120 outside 0-100
        if p.lo != p.hi or p.lo_open or p.hi_open:
            raise V.BadValue(f"a metric value is one number, not a range or a comparison: {V.show(text)}")
        return Measure(p.lo, "pct", text)
    n = V.parse_amount(text)
    return Measure(n, "amount" if text[-1:] in "kMB" else "number", text)


def half_unit(m: Measure) -> Fraction:
    """Half a unit of the last digit written: how far a published value may be from the exact
    one it rounds. A whole number (``1``, ``0``), a gate or an amount is exact.

    >>> [str(half_unit(parse_measure(t))) for t in ("0.67", "95%", "99.5%", "1", "1.0", "pass")]
    ['1/200', '1/200', '1/2000', '0', '1/20', '0']
    """
    if m.form not in ("pct", "number"):
        return Fraction(0)
    digits = m.text.rstrip("%")
    if "." not in digits:
        return Fraction(0) if m.form == "number" else Fraction(1, 200)
    places = len(digits.split(".", 1)[1]) + (2 if m.form == "pct" else 0)
    return Fraction(1, 2 * 10 ** places)


def parse_proportion(text: str) -> Fraction:
    """A proportion of one: ``0.93`` or ``93%`` (0-1, exact)."""
    if text.endswith("%"):
        p = V.parse_pct(text)
        if p.lo != p.hi or p.lo_open or p.hi_open:
            raise V.BadValue(f"expected one proportion (0.93 or 93%), not a range or a comparison: {V.show(text)}")
        return p.lo
    n = V.parse_number(text)
    if n > 1:
        raise V.PctRangeError(f"a proportion is 0-1 (or 0-100%), got {V.show(text)}")
    return n


def _metric(text: str) -> str:
    if text not in METRICS:
        raise V.BadValue(f"expected a metric, one of {' '.join(METRICS)} (section 6), got {V.show(text)}")
    return text


def _measure_problems(metric: str, m: Measure, field: str) -> List[Tuple[Optional[str], str, str]]:
    if metric in PROPORTIONS or metric == "K":
        if m.form == "amount" or (metric != "K" and m.form == "gate"):
            what = "pass/fail or a proportion" if metric == "K" else "a proportion"
            return [(field, "E104", f"{metric} is {what} (0.93 or 93%), got {m.text!r}")]
        if m.value > 1:
            return [(field, "E120", f"{metric} is a proportion of one: 0-1 or 0-100%, got {m.text!r}")]
    elif metric == "C" and m.form in ("pct", "gate"):
        return [(field, "E104", f"C is a cost, an amount like 120 or 1.5k, got {m.text!r}")]
    return []


def _check_metric(values: Dict, flags: FrozenSet[str]):
    return _measure_problems(values["metric"], values["value"], "value")


def _check_threshold(values: Dict, flags: FrozenSet[str]):
    lo, hi = values.get("min"), values.get("max")
    if lo is None and hi is None:
        return [(None, "E106", "threshold needs min=<value> or max=<value> (or both)")]
    out = []
    for key in ("min", "max"):
        if values.get(key) is not None:
            out += _measure_problems(values["metric"], values[key], key)
    if not out and lo is not None and hi is not None and lo.value > hi.value:
        out.append(("max", "E120", f"empty threshold: max={hi.text} is below min={lo.text}"))
    return out


def _check_fresh(values: Dict, flags: FrozenSet[str]):
    if (values.get("explained") is None) != (values.get("explained-by") is None):
        key = "explained" if values.get("explained") is not None else "explained-by"
        return [(key, "E106", 'an explanation names its author: explained="<why>" explained-by=<who>, both or neither')]
    return []


def _check_event(values: Dict, flags: FrozenSet[str]):
    if "confirmed" in flags and values["kind"] != "secret-leak":
        return [("kind", "E104", f"the flag confirmed marks a secret-leak as confirmed (7); not a {values['kind']}")]
    if values.get("attempt") is not None and values["kind"] not in ATTEMPT_EVENTS:
        return [("attempt", "E104", f"attempt= names the attempt a {' or '.join(ATTEMPT_EVENTS)} acts on; "
                                    f"not a {values['kind']}")]
    return []


def date_span(text: str) -> Tuple[str, str]:
    """The first and last day a ``date=`` can mean, as ISO strings that sort in time order.

    A date as precise as a day is one day; ``2025-03`` is all of March. Phase 4 orders two
    things only when their spans do not overlap, so ``2025-03`` is not after ``2025-03-14``.

    >>> date_span("2025"), date_span("2024-02-29")
    (('2025-01-01', '2025-12-31'), ('2024-02-29', '2024-02-29'))
    """
    parts = [int(p) for p in text.split("-")]
    y, mo, d = (parts + [None, None])[:3]
    if mo is None:
        return f"{y:04d}-01-01", f"{y:04d}-12-31"
    if d is None:
        return f"{y:04d}-{mo:02d}-01", f"{y:04d}-{mo:02d}-{calendar.monthrange(y, mo)[1]:02d}"
    return (text,) * 2


_opt = S.opt
_F = S.Field

#: The pilot rulebook's statements (facts/language.py adds them to the language the loader reads).
STATEMENTS = S.Language("pilot")
_declare = STATEMENTS.declare


_declare(S.Decl("pilot", (_F("id"), _F("name", S._text, quoted=True)), declares="pilot", attrs=S._attrs(
    _opt("material", parse_proportion)),
    summary="a pilot of the open pilot baseline (material=: the fresh-control shortfall that is material)"))
_declare(S.Decl("run", (_F("id"), _F("pilot", ref=("pilot",))), declares="run", attrs=S._attrs(
    _opt("model"), _opt("checkpoint"), _opt("date", S.DATE)),
    summary="one evaluated run of a pilot (date=: when it ran, for Phase 4)"))
_declare(S.Decl("scenario", (_F("id"), _F("run", ref=("run",)), _F("outcome", S.enum(*SCENARIO_OUTCOMES))),
                 declares="scenario", attrs=S._attrs(_F("by", S.enum(*WHO))),
                 summary="a scenario of a run, how it ended and who recorded it: the source measurements of E (6)"))
_declare(S.Decl("metric", (_F("run", ref=("run",)), _F("metric", _metric), _F("value", parse_measure)),
                 attrs=S._attrs(_F("source", S.enum(*SOURCES))), check=_check_metric,
                 summary="a raw metric of a run (6), and who produced it (4)"))
_declare(S.Decl("threshold", (_F("pilot", ref=("pilot",)), _F("metric", _metric)), flags=frozenset({"mandatory"}),
                 attrs=S._attrs(_opt("min", parse_measure), _opt("max", parse_measure)), check=_check_threshold,
                 summary="a published threshold of a pilot on one metric (6)"))
_declare(S.Decl("criterion", (_F("id"), _F("pilot", ref=("pilot",))), declares="criterion",
                 flags=frozenset({"mandatory"}), attrs=S._attrs(_F("by", S.enum(*CHECKERS))),
                 summary="an acceptance criterion and who checks it: a scorer script or externally (6)"))
_declare(S.Decl("scorer", (_F("id"), _F("pilot", ref=("pilot",))), declares="scorer",
                 attrs=S._attrs(_F("scope", ref=("criterion",), many=True)),
                 summary="a scorer script and the explicitly listed scope of its scorer_pass (6)"))
_declare(S.Decl("scorer-result", (_F("scorer", ref=("scorer",)), _F("run", ref=("run",)),
                                   _F("outcome", S.enum("pass", "fail"))),
                 summary="what a scorer script reported for a run (6)"))
_declare(S.Decl("check", (_F("run", ref=("run",)), _F("criterion", ref=("criterion",)),
                           _F("outcome", S.enum("pass", "fail"))), attrs=S._attrs(_F("by", S.enum(*WHO))),
                 summary="the result of checking a criterion on a run, and who checked it (6)"))
_declare(S.Decl("event", (_F("run", ref=("run",)), _F("kind", S.enum(*EVENTS))), flags=frozenset({"confirmed"}),
                 attrs=S._attrs(_F("by", S.enum(*WHO)), _opt("attempt", ref=("attempt",)),
                                _opt("note", S._text, quoted=True)), check=_check_event,
                 summary="something that happened in a run, and who did it (4, 7)"))
_declare(S.Decl("attempt", (_F("id"), _F("run", ref=("run",))), declares="attempt",
                 flags=frozenset({"deleted", "concealed"}),
                 summary="an initiated attempt within a run (4, 7)"))
_declare(S.Decl("attempt-result", (_F("attempt", ref=("attempt",)), _F("outcome", S.enum(*ATTEMPT_OUTCOMES))),
                 attrs=S._attrs(_F("by", S.enum(*WHO))),
                 summary="how an initiated attempt ended, and who recorded it (4, 7)"))
_declare(S.Decl("fresh-control", (_F("run", ref=("run",)), _F("fresh", parse_proportion)), attrs=S._attrs(
    _F("public", parse_proportion), _F("by", S.enum(*WHO)), _opt("explained", S._text, quoted=True),
    _opt("explained-by", S.enum(*WHO))), check=_check_fresh,
    summary="a run's score on the fresh control set beside its public score (5, 7)"))
_declare(S.Decl("calibration", (_F("pilot", ref=("pilot",)), _F("case", S.enum(*CASES)),
                                 _F("outcome", S.enum("distinguished", "missed"))),
                 summary="Phase 0: whether the measurement mechanism distinguished a case"))
_declare(S.Decl("shadow", (_F("pilot", ref=("pilot",)), _F("aspect", S.enum(*ASPECTS)),
                            _F("outcome", S.enum("pass", "fail"))),
                 summary="Phase 1: a shadow-mode check of a pilot"))
_declare(S.Decl("attack", (_F("id"), _F("pilot", ref=("pilot",))), declares="attack",
                 flags=frozenset({"succeeded", "published"}),
                 summary="Phase 2: a red-team attack on a pilot's signal"))
_declare(S.Decl("application", (_F("id"), _F("pilot", ref=("pilot",))), declares="application",
                 flags=frozenset({"fresh-repeated"}), attrs=S._attrs(
                     _F("weight", parse_proportion), _opt("limit", parse_proportion), _opt("checkpoint"),
                     _opt("date", S.DATE)),
                 summary="Phase 3: a limited application of a pilot's signal"))
_declare(S.Decl("change", (_F("id"), _F("pilot", ref=("pilot",)), _F("what", S.enum(*CHANGES))),
                 declares="change", flags=frozenset({"material"}), attrs=S._attrs(
                     _opt("reaccepted-by", ref=("run",)), _opt("date", S.DATE)),
                 summary="Phase 4: a change to a pilot's model, tool permissions, verifier or generator"))

#: Conclusions of the pilot rulebook: no statement or attribute may set them (E140).
STATEMENTS.derived.update({
    "pilot-pass", "pilot_pass", "scorer-pass", "scorer_pass", "final-value", "final_value", "formula",
    "shadow-signal", "shadow_signal", "threshold-met", "threshold_met", "threshold-failed", "threshold_failed",
    "critical", "rejected", "trust-breach", "trust_breach", "cost-comparable", "cost_comparable", "cheaper",
    "k-satisfied", "k_satisfied", "derived-e", "derived_e", "reaccepted", "attempt-concealed", "attempt_concealed",
})
