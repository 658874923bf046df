"""Provenance lanes and benchmark evidence (issue 6; docs/lanes.md).

Worlds in tests/worlds/lanes/; every expected number below is worked out by
hand in the comment beside the result it checks (magnitudes.facts), from
seeds/provenance-lanes.txt 03 and the readings in docs/lanes.md; none was
taken from program output.
"""
import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.facts import CATALOG, LoadError, load_text
from provlog.logic import RULEBOOK
from provlog.queries.cli import main

WORLDS = Path(__file__).resolve().parent / "worlds" / "lanes"
H1 = "0f" * 32
H2 = "1a" * 32

HEAD = f'''org e "Eval Co" type=nonprofit evaluated=yes
entity ci "CI Runner" kind=company
source s1 "https://ci.example/1" publisher=ci status=confirmed tier=2
'''
VERIFIED = f"lane=verified run-at=2026-01-15 dataset-hash={H1} input-hash={H2}"


def codes(text, strict=False):
    with pytest.raises(LoadError) as e:
        load_text(HEAD + text, strict=strict)
    return [d.code for d in e.value.diagnostics]


@pytest.fixture(scope="module")
def mg():
    return World.load(WORLDS / "magnitudes.facts", as_of="2026-03-01")


@pytest.fixture(scope="module")
def m3():
    return World.load(WORLDS / "m3_lanes.facts", as_of="2026-02-01")


@pytest.fixture(scope="module")
def m3_later():
    return World.load(WORLDS / "m3_lanes.facts", as_of="2031-02-01")


# --- magnitudes ---------------------------------------------------------------------------------
EXACT = {  # id: (base, multiplier, freshness, magnitude), all by hand (magnitudes.facts)
    "mg-fresh": (Fraction(87, 100), 2, 1, Fraction(7, 5)),
    "mg-year": (Fraction(3, 10), 2, Fraction(1, 2), Fraction(21, 50)),
    "mg-two-years": (Fraction(1, 2), 1, Fraction(1, 4), Fraction(7, 40)),
    "mg-undated": (Fraction(2, 5), 1, 1, Fraction(14, 25)),
    "mg-rejected": (Fraction(99, 100), 0, 1, 0),
    "mg-half": (Fraction(1, 4), 2, Fraction(3107, 4374), Fraction(21749, 43740)),
    "mg-future": (Fraction(1, 5), 2, 1, Fraction(14, 25)),
    "mg-self": (Fraction(19, 20), 0, 1, 0),
}


@pytest.mark.parametrize("rid", sorted(EXACT))
def test_magnitudes_exact(mg, rid):
    r = {x.id: x for x in mg.results()}[rid]
    got = (r.base, r.multiplier, r.freshness, r.magnitude)
    assert got == EXACT[rid]
    assert all(isinstance(v, Fraction) for v in got), got  # exact, never a float


def test_lane_multipliers_are_exact_fractions(mg):
    by = {x.id: x for x in mg.results()}
    assert by["mg-fresh"].multiplier == Fraction(2) and by["mg-two-years"].multiplier == Fraction(1)
    assert by["mg-rejected"].multiplier == 0 and by["mg-self"].multiplier == 0
    assert by["mg-self"].self_attested and not by["mg-fresh"].self_attested


def test_cap_applies_after_the_multiplier(mg):
    # 87/100 x 2 > 1: the benchmark cap holds it at 1, so magnitude is 1 x 1 x 7/5, not 87/100 x 2 x 7/5.
    r = {x.id: x for x in mg.results()}["mg-fresh"]
    assert r.magnitude == Fraction(7, 5) and r.magnitude < r.base * r.multiplier * Fraction(7, 5)
    assert max(x.magnitude for x in mg.results()) <= Fraction(7, 5)


def test_freshness_approximation_is_close_and_exact_on_whole_years(mg):
    r = {x.id: x for x in mg.results()}["mg-half"]
    assert r.age_days == 181
    true = 2 ** (-181 / 365)
    assert true <= float(r.freshness) <= true * 1.0027  # docs/lanes.md: within 0.27%, never below
    assert {x.id: x.freshness for x in mg.results()}["mg-two-years"] == Fraction(1, 4)


def test_stale_vs_fresh_changes_magnitude_not_floor(m3, m3_later):
    now = {x.id: x for x in m3.results()}
    later = {x.id: x for x in m3_later.results()}
    assert now["pl-old"].magnitude < now["pl-new"].magnitude  # the 2019 run has decayed
    assert later["pl-new"].magnitude < now["pl-new"].magnitude  # five years on, so has the 2026 run
    for w in (m3, m3_later):
        assert w.value("pl-stale", "M").value == 4 and w.value("pl-fresh", "M").value == 4
        assert w.value("pl-stale", "M").rule == "M.3"
    assert now["pl-old"].floor == later["pl-old"].floor == 4


def test_as_of_defaults_to_today():
    import datetime

    w = World.load(WORLDS / "magnitudes.facts")
    assert w.as_of == datetime.date.today().isoformat()


# --- the link to the RULES: derived M.3 signals ------------------------------------------------------
def test_m3_signal_cites_the_result_source_and_span(m3):
    sig = {s.id: s for s in m3.signals("pl-verified")}["M.3/pl-verified/1"]
    assert sig.derived and sig.rule == "M.3" and sig.dim == "M" and sig.direction == "for"
    assert (sig.kind, sig.bound) == ("floor", 4)
    assert sig.cites == (("pl-ci-log", "re-ran the open tasks: pass"),)
    assert sig.facts == ("result:pl-v1",)


@pytest.mark.parametrize("org, floor", [
    ("pl-verified", 4), ("pl-reported", 3), ("pl-rejected", None), ("pl-notown", None),
    ("pl-selfsrc", None), ("pl-selfname", None), ("pl-both", 4), ("pl-badsrc", None),
])
def test_which_results_derive_a_floor(m3, org, floor):
    got = [(s.rule, s.bound) for s in m3.signals(org) if s.derived and s.dim == "M"]
    assert got == ([] if floor is None else [("M.3", floor)])


def test_pending_result_loads_without_strict_only():
    w = World.load(WORLDS / "pending.facts")
    assert w.value("pp-pending", "M", "leads-included").value is None
    assert {x.id: x.multiplier for x in w.results()}["pp-p1"] == 0
    with pytest.raises(LoadError) as e:
        World.load(WORLDS / "pending.facts", strict=True)
    assert [d.code for d in e.value.diagnostics] == ["E164"]


def test_why_shows_the_result(m3):
    text = m3.why("pl-verified", "M")
    assert "M.3" in text and "result pl-v1" in text


def test_lane_rules_name_their_clauses():
    from provlog.logic import lanes  # noqa: F401

    mine = [r for r in RULEBOOK.rules if r.clause in ("PL.1", "PL.3", "M.3")]
    heads = {r.head_name for r in mine}
    assert {"lane_multiplier", "freshness", "magnitude", "self_attested", "derive", "uses"} <= heads
    assert all(r.template for r in mine if r.head_name != "uses")
    assert any("cap" in r.template and r.head_name == "capped_score" for r in mine)


# --- load errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, code", [
    (f"result r1 e bench@1 percentile=50 {VERIFIED.replace(H1, H1.upper())}", "E161"),  # uppercase
    (f"result r1 e bench@1 percentile=50 {VERIFIED.replace(H2, H2[:40])}", "E161"),  # short
    (f"result r1 e bench@1 percentile=50 {VERIFIED.replace(H2, 'g' * 64)}", "E161"),  # non-hex
    (f"result r1 e bench@1 percentile=50 lane=verified run-at=2026-01-15 dataset-hash={H1}", "E161"),  # one hash
    (f"result r1 e bench@1 percentile=50 lane=verified dataset-hash={H1} input-hash={H2}", "E162"),  # no run-at
    ("result r1 e bench@1 percentile=50 lane=self-attested", "E130"),
    ('result r1 e bench@1 percentile=50 lane=reported attestor="CI Runner"', "E163"),
    ('result r1 e bench@1 percentile=50 lane=reported approved-by="gate"', "E163"),
    ("result r1 e HumanEval@1 percentile=50 lane=rejected", "E160"),
    ("result r1 e humaneval percentile=50 lane=rejected", "E160"),
    ("result r1 e humaneval@latest percentile=50 lane=rejected", "E160"),
    ("result r1 e humaneval@ percentile=50 lane=rejected", "E160"),
    ("result r1 e a/b/c@1 percentile=50 lane=rejected", "E160"),
    ("result r1 e humaneval/plus percentile=50 lane=rejected", "E160"),
    ("result r1 e bench@1 score=101 unit=pct lane=rejected", "E165"),
    ("result r1 e bench@1 score=1.5 unit=fraction lane=rejected", "E165"),
    ("result r1 e bench@1 percentile=100.5 lane=rejected", "E165"),
    ("result r1 e bench@1 score=50 lane=rejected", "E106"),
    ("result r1 e bench@1 unit=pct percentile=5 lane=rejected", "E106"),
    ("result r1 e bench@1 lane=rejected", "E106"),
    ("result r1 e bench@1 percentile=50", "E106"),
    ("result r1 e bench@1 score=5 unit=points lane=rejected", "E104"),
    ("result r1 e bench@1 percentile=50 lane=candidate", "E104"),
    ("result r1 e bench@1 percentile=50 lane=rejected run-at=2026-02-30", "E104"),
    ("result r1 nowhere bench@1 percentile=50 lane=rejected", "E110"),
    ("result r1 e bench@1 percentile=50 lane=rejected src=nosuch", "E110"),
    ("result r1 e bench@1 percentile=50 lane=rejected\nresult r1 e bench@2 percentile=50 lane=rejected", "E112"),
])
def test_load_errors(text, code):
    assert code in CATALOG
    assert code in codes(text)


def test_pending_is_an_error_under_strict_only():
    text = "result r1 e bench@1 percentile=50 lane=pending"
    assert codes(text, strict=True) == ["E164"]
    load_text(HEAD + text)  # loads without --strict


@pytest.mark.parametrize("bid", ["humaneval@1", "humaneval/plus@1", "mmlu-5shot@2024-03", "humaneval@1.0.0",
                                 "swe-bench/verified@v2", "gpqa@1.0.0-rc.1"])
def test_good_benchmark_ids(bid):
    w = load_text(HEAD + f"result r1 e {bid} percentile=50 lane=rejected")
    assert w.of("result")[0]["benchmark"] == bid


def test_result_ids_have_their_own_namespace():
    # a result may share an id with an org or a source; only results clash with results
    load_text(HEAD + "result e e bench@1 percentile=50 lane=rejected\nresult s1 e bench@1 percentile=5 lane=rejected")


def test_every_error_is_reported_and_nothing_is_half_loaded():
    bad = ("result r1 e HumanEval@1 percentile=50 lane=rejected\n"
           "result r2 e bench@1 percentile=50 lane=self-attested\n"
           "result r3 e bench@1 percentile=50 lane=reported\n"
           "result r4 e bench@1 percentile=50 lane=rejected\n")
    got = codes(bad)
    assert sorted(set(got)) == ["E130", "E160", "E163"]


def test_new_codes_are_in_the_catalog():
    for c in ("E160", "E161", "E162", "E163", "E164", "E165"):
        assert c in CATALOG and all(CATALOG[c])


# --- inputs cannot forge conclusions ------------------------------------------------------------------
@pytest.mark.parametrize("text, code", [
    ("result r1 e bench@1 percentile=50 lane=rejected multiplier=2", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected lane-multiplier=2", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected magnitude=1.4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected freshness=1", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected final-score=1.4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected value=4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected verified", "E102"),
    ("result r1 e bench@1 percentile=50 lane=rejected\nmagnitude r1 3", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected\nmultiplier r1 2", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected\nfreshness r1 1", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected\nverified r1", "E140"),
    ('source s2 "https://ci.example/2" publisher=ci status=verified', "E104"),
    ("value e F 4", "E140"),
    ("value e M 4", "E140"),
    ("derive M.3 e M for floor 4 r1", "E140"),
    ("uses M.3 e r1", "E140"),
    ("signal M.3/e/1 e M for floor 4 rule=M.3", "E140"),
    ("org f \"F\" type=nonprofit magnitude=2", "E140"),
])
def test_inputs_cannot_forge_conclusions(text, code):
    assert code in codes(text)


# --- the command --------------------------------------------------------------------------------------
def test_results_json():
    out = CliRunner().invoke(main, ["results", str(WORLDS / "magnitudes.facts"), "mg", "--as-of", "2026-03-01",
                                    "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["org"] == "mg" and data["as_of"] == "2026-03-01"
    rows = {r["id"]: r for r in data["results"]}
    assert set(rows) == set(EXACT)
    fresh = rows["mg-fresh"]
    assert {k: fresh[k] for k in ("lane", "multiplier", "freshness", "magnitude", "floor", "signal")} == {
        "lane": "verified", "multiplier": 2, "freshness": 1, "magnitude": 1.4, "floor": 4, "signal": "M.3/mg/1"}
    assert fresh["exact"] == {"base": "87/100", "multiplier": "2", "freshness": "1", "magnitude": "7/5"}
    assert rows["mg-half"]["exact"]["magnitude"] == "21749/43740"
    assert rows["mg-self"]["self_attested"] is True and rows["mg-self"]["magnitude"] == 0
    assert rows["mg-year"]["signal"] is None and rows["mg-year"]["age_days"] == 365


def test_results_text_and_errors():
    r = CliRunner()
    out = r.invoke(main, ["results", str(WORLDS / "magnitudes.facts"), "--as-of", "2026-03-01"])
    assert out.exit_code == 0 and "mg-fresh" in out.output and "M.3/mg/1" in out.output
    assert "magnitude 7/5" in out.output
    bad = r.invoke(main, ["results", str(WORLDS / "magnitudes.facts"), "nope"])
    assert bad.exit_code == 2 and "unknown org" in bad.output
    bad = r.invoke(main, ["results", str(WORLDS / "magnitudes.facts"), "--as-of", "2026-02-30"])
    assert bad.exit_code == 2
    bad = r.invoke(main, ["check", str(WORLDS / "pending.facts"), "--strict"])
    assert bad.exit_code == 1 and "E164" in bad.output
