"""Provenance lanes and benchmark evidence (issues 6 and 16; docs/lanes.md).

Worlds in tests/worlds/lanes/; every expected number below is worked out by
hand in the comment beside the row it checks (magnitudes.facts), from
seeds/provenance-lanes.txt 03 and the readings in docs/lanes.md; the 9-decimal
freshness values were worked with a 50-digit decimal calculator, and the tests
of facts/halflife.py check it against Python's decimal module and against the
integer inequalities that define a correctly rounded result. None was taken
from program output.
"""
import json
from decimal import Decimal, localcontext
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.facts import CATALOG, LoadError, load_text
from provlog.facts.halflife import YEAR_DAYS, freshness, halving
from provlog.logic import RULES
from provlog.queries.cli import main
from provlog.queries.results import NUMBERS

WORLDS = Path(__file__).resolve().parent / "worlds" / "lanes"
H1 = "0f" * 32
H2 = "1a" * 32

HEAD = '''org e "Eval Co" type=nonprofit evaluated=yes
entity ci "CI Runner" kind=company
source s1 "https://ci.example/1" publisher=ci status=confirmed tier=2
benchmark-source cat "https://ci.example/workflow.yml" lane=verified
'''
VERIFIED = f"lane=verified run-at=2026-01-15 dataset-hash={H1} input-hash={H2}"


def codes(text, strict=False):
    with pytest.raises(LoadError) as e:
        load_text(HEAD + text, strict=strict)
    return [d.code for d in e.value.diagnostics]


def by_id(world):
    return {x.id: x for x in world.results()}


@pytest.fixture(scope="module")
def mg():
    return World.load(WORLDS / "magnitudes.facts")  # the world states as-of 2026-03-01


@pytest.fixture(scope="module")
def m3():
    return World.load(WORLDS / "m3_lanes.facts", as_of="2026-02-01")


@pytest.fixture(scope="module")
def m3_later():
    return World.load(WORLDS / "m3_lanes.facts", as_of="2031-02-01")


# --- magnitude; then capped, fresh, weighted contribution -------------------------------------------
EXACT = {  # id: (base, multiplier, magnitude, capped, freshness, fresh, weighted, contribution), by hand
    "mg-fresh": (F(87, 100), 2, F(87, 50), 1, 1, 1, F(7, 5), F(7, 5)),
    "mg-four-years": (F(3, 10), 2, F(3, 5), F(3, 5), F(1, 16), F(3, 80), F(21, 400), F(21, 400)),
    "mg-eight-years": (F(1, 2), 1, F(1, 2), F(1, 2), F(1, 256), F(1, 512), F(7, 2560), F(7, 2560)),
    "mg-undated": (F(2, 5), 1, F(2, 5), F(2, 5), 1, F(2, 5), F(14, 25), F(14, 25)),
    "mg-rejected": (F(99, 100), 0, 0, 0, 1, 0, 0, 0),
    "mg-half-year": (F(1, 4), 2, F(1, 2), F(1, 2), F("0.707945966"), F("0.353972983"), F("0.4955621762"),
                     F("0.4955621762")),
    "mg-year": (F(3, 10), 2, F(3, 5), F(3, 5), F("0.500237273"), F("0.3001423638"), F("0.42019930932"),
                F("0.42019930932")),
    "mg-future": (F(1, 5), 2, F(2, 5), F(2, 5), 1, F(2, 5), F(14, 25), F(14, 25)),
    "mg-own": (F(19, 20), 2, F(19, 10), 1, 1, 1, F(7, 5), F(7, 5)),
    "mg-generic": (F(1, 2), 2, 1, 1, 1, 1, F(7, 5), F(21, 100)),
}


@pytest.mark.parametrize("rid", sorted(EXACT))
def test_numbers_exact(mg, rid):
    r = by_id(mg)[rid]
    got = tuple(getattr(r, k) for k in NUMBERS)
    assert got == EXACT[rid]
    assert all(isinstance(v, F) for v in got), got  # exact, never a float


def test_each_number_has_one_value_per_result(mg, m3):
    for w in (mg, m3):
        ask = w.derivation.program.ask
        n = len(w.facts.of("result"))
        for rel in ("normalized_base", "lane_multiplier", "magnitude", "capped", "freshness", "fresh",
                    "weighted", "contribution"):
            rows = ask(f"{rel}(R, V)")
            assert len(rows) == len({r for r, _ in rows}) == n, rel


def test_magnitude_is_base_times_multiplier_and_the_cap_comes_after(mg):
    r = by_id(mg)["mg-fresh"]
    assert r.magnitude == r.base * r.multiplier == F(87, 50)  # the text's Magnitude, uncapped
    assert r.capped == 1 and r.contribution == F(7, 5)  # cap 1 after the multiplier, then x 1.4
    assert max(x.contribution for x in mg.results()) <= F(7, 5)


# --- freshness: 2^(-t / 365.25 days), exact integers -------------------------------------------------
def _decimal(t, digits=9):
    with localcontext() as c:
        c.prec = 60
        return Decimal(2) ** (Decimal(-t) / Decimal("365.25"))


@pytest.mark.parametrize("t, exact", [(0, F(1)), (1461, F(1, 16)), (2922, F(1, 256)), (14610, F(1, 2 ** 40))])
def test_freshness_is_exact_at_whole_half_lives(t, exact):
    assert freshness(t) == exact


@pytest.mark.parametrize("t", [1, 30, 181, 182, 183, 365, 366, 730, 1000, 1460, 1462, 3000, 36525 + 17])
def test_freshness_to_nine_decimals_at_any_age(t):
    got = freshness(t)
    k = 4 * t // 1461
    assert abs(Decimal(got.numerator) / Decimal(got.denominator) - _decimal(t)) <= Decimal("5e-10") / 2 ** k
    assert (got * 10 ** 9 * 2 ** k).denominator == 1  # a 9-decimal number halved k times: exact


def test_freshness_at_182_days_is_the_issue_figure():
    # issue 16: "about 0.709 at 182 days, where 2^(-182/365.25) is about 0.708"
    assert round(float(freshness(182)), 6) == round(2 ** (-182 / 365.25), 6) == 0.707946
    assert YEAR_DAYS == F(1461, 4)


@pytest.mark.parametrize("q", [1, 2, 100, 365, 730, 731, 1000, 1460])
def test_halving_is_correctly_rounded_by_integer_inequalities(q):
    # m = round(10^9 x 2^(-q/1461)) exactly when (2m-1)^1461 2^q <= (2 10^9)^1461 < (2m+1)^1461 2^q
    m = halving(q) * 10 ** 9
    assert m.denominator == 1
    m, n, top = int(m), 1461, (2 * 10 ** 9) ** 1461
    assert (2 * m - 1) ** n << q <= top < (2 * m + 1) ** n << q
    assert halving(q) == F(str(_decimal(q / 4).quantize(Decimal("1e-9"))))


def test_stale_vs_fresh_changes_the_contribution_not_the_floor(m3, m3_later):
    now, later = by_id(m3), by_id(m3_later)
    assert now["pl-old"].contribution < now["pl-new"].contribution  # the 2019 run has decayed
    assert later["pl-new"].contribution < now["pl-new"].contribution  # five years on, so has the 2026 run
    for w in (m3, m3_later):
        assert w.value("pl-stale", "M").value == 4 and w.value("pl-fresh", "M").value == 4
        assert w.value("pl-stale", "M").rule == "M.3"
    assert now["pl-old"].floor == later["pl-old"].floor == 4


# --- time: the world's as-of, --as-of, and runs in the future -----------------------------------------
def test_a_world_states_its_own_as_of_and_a_caller_overrides_it(mg):
    assert mg.as_of == "2026-03-01" and mg.as_of_origin.startswith("stated at ") and "magnitudes.facts:16" in mg.as_of_origin
    later = World.load(WORLDS / "magnitudes.facts", as_of="2027-03-01")
    assert later.as_of == "2027-03-01" and later.as_of_origin == "given"
    assert by_id(later)["mg-fresh"].age_days == 365 and by_id(mg)["mg-fresh"].age_days == 0


def test_without_any_as_of_it_is_today():
    import datetime

    w = World.from_text(HEAD)
    assert w.as_of == datetime.date.today().isoformat() and w.as_of_origin == "today"


def test_as_of_reads_ended_stakes_too():
    text = 'lab l "L"\norg o "O" type=vc\nstake l o 30% until=2025-06\n'
    assert World.from_text(text + "as-of 2025-01-01").query("stake(H, S, P, F)")
    assert not World.from_text(text + "as-of 2026-01-01").query("stake(H, S, P, F)")
    assert World.from_text(text + "as-of 2026-01-01", as_of="2025-01-01").query("stake(H, S, P, F)")


@pytest.mark.parametrize("text, code", [
    ("as-of 2026-03-01\nas-of 2026-04-01", "E112"),
    ("as-of 2026-02-30", "E104"),
    ("as-of 2026-03", "E104"),
    ("as-of today", "E104"),
])
def test_as_of_statement_errors(text, code):
    assert codes(text) == [code]


def test_a_run_after_the_as_of_date_is_in_the_future(mg):
    r = by_id(mg)["mg-future"]
    assert (r.age_days, r.ahead_days, r.freshness) == (0, 92, 1)
    assert by_id(mg)["mg-fresh"].ahead_days is None
    out = CliRunner().invoke(main, ["results", str(WORLDS / "magnitudes.facts")])
    assert "in the future: run 92 days after the as-of date" in out.output


@pytest.mark.parametrize("cmd", ["why", "prove"])
def test_why_and_prove_of_a_score_read_as_of(cmd):
    goal = "freshness('mg-half-year', Fr)"
    args = ["why", str(WORLDS / "magnitudes.facts"), "--goal", goal] if cmd == "why" else \
        ["prove", str(WORLDS / "magnitudes.facts"), goal]
    r = CliRunner()
    stated = r.invoke(main, args)
    assert stated.exit_code == 0, stated.output
    assert "ran 182 days before the as-of date" in stated.output
    later = r.invoke(main, args + ["--as-of", "2026-08-30"])  # 2025-08-31 + 364 days
    assert later.exit_code == 0 and "ran 364 days before the as-of date" in later.output
    assert r.invoke(main, args + ["--as-of", "2026-02-30"]).exit_code == 2


def test_every_command_that_reads_time_takes_as_of():
    # load and validate, or hash: no date is read; rules, relations and import read no world's time
    timeless = {"check", "fingerprint", "rules", "relations", "import", "lsp"}  # lsp: the editor reads the world at its own as-of, or today
    for name, cmd in main.commands.items():
        opts = {o for p in cmd.params for o in p.opts}
        assert ("--as-of" in opts) == (name not in timeless), name


# --- the benchmark-source catalog (Phase 2B) -----------------------------------------------------------
@pytest.mark.parametrize("rid, valid, reasons", [
    ("ct-a1", True, ()), ("ct-b1", True, ()),
    ("ct-c1", False, ("catalog",)), ("ct-d1", False, ("catalog",)), ("ct-e1", False, ("catalog",)),
    ("ct-f1", False, ("catalog",)), ("ct-g1", False, ("uncatalogued",)), ("ct-h1", False, ("sources",)),
])
def test_catalog_decides_scoring_validity(rid, valid, reasons):
    r = by_id(World.load(WORLDS / "catalog.facts"))[rid]
    assert (r.scoring_valid, r.zero_reasons) == (valid, reasons)
    assert (r.multiplier, r.contribution) == ((2, F(7, 5)) if valid else (0, 0))
    assert (r.floor == 4) == valid


def test_results_shows_schema_valid_vs_scoring_valid():
    out = CliRunner().invoke(main, ["results", str(WORLDS / "catalog.facts"), "--json"])
    rows = {r["id"]: r for r in json.loads(out.output)["results"]}
    assert all(r["schema_valid"] for r in rows.values())
    assert rows["ct-a1"]["scoring_valid"] and not rows["ct-c1"]["scoring_valid"]
    assert rows["ct-c1"]["catalog_lane"] == "rejected" and rows["ct-g1"]["catalog"] is None
    text = CliRunner().invoke(main, ["results", str(WORLDS / "catalog.facts"), "ct-c"]).output
    assert "schema-valid, not scoring-valid: its catalog source's lane scores 0" in text


# --- legacy lanes -------------------------------------------------------------------------------------
def test_legacy_lanes_load_and_score_zero():
    w = World.load(WORLDS / "legacy.facts")
    rows = by_id(w)
    for rid in ("pp-p1", "pp-c1", "pp-t1", "pp-u1", "pp-v1"):
        assert (rows[rid].multiplier, rows[rid].contribution, rows[rid].floor) == (0, 0, None), rid
    assert rows["pp-a1"].floor == 3 and rows["pp-a1"].multiplier == 1
    assert [r.legacy for r in (rows["pp-c1"], rows["pp-a1"])] == [True, False]


def test_check_names_each_row_in_a_legacy_lane_and_strict_refuses_pending():
    r = CliRunner()
    out = r.invoke(main, ["check", str(WORLDS / "legacy.facts")])
    assert out.exit_code == 0
    notes = [line for line in out.output.splitlines() if line.startswith("note: ")]
    assert [n.split(": ")[1].rsplit(":", 1)[1] for n in notes] == ["15", "18", "24", "29", "34"]
    assert [n.split()[3] for n in notes] == ["pp-cat-pending", "pp-p1", "pp-c1", "pp-t1", "pp-u1"]
    assert "legacy lane candidate" in out.output and "legacy lane retired" in out.output
    bad = r.invoke(main, ["check", str(WORLDS / "legacy.facts"), "--strict"])
    assert bad.exit_code == 1 and bad.output.count("[E164]") == 2
    assert "legacy.facts:15:" in bad.output and "legacy.facts:18:" in bad.output
    clean = r.invoke(main, ["check", str(WORLDS / "m3_lanes.facts")])  # the near miss: no legacy lane
    assert clean.exit_code == 0 and "note:" not in clean.output


def test_pending_is_an_error_under_strict_only():
    text = "result r1 e bench@1 percentile=50 lane=pending"
    assert codes(text, strict=True) == ["E164"]
    load_text(HEAD + text)  # loads without --strict
    for lane in ("candidate", "retired", "unknown"):
        load_text(HEAD + f"result r1 e bench@1 percentile=50 lane={lane}", strict=True)


# --- self-attestation ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "result r1 e bench@1 percentile=50 lane=self-attested",
    'benchmark-source b2 "x" lane=self-attested',
])
def test_self_attested_lane_is_a_schema_rejection(text):
    assert codes(text) == ["E130"]


@pytest.mark.parametrize("attestor, refused", [
    ("Eval Co", True), ("  eval   CO ", True), ("e", True),
    ("Eval Co Review Board", False), ("https://ci.example/workflows/bench@3f2a", False),
])
def test_an_attestor_that_is_the_org_is_refused(attestor, refused):
    text = f'result r1 e bench@1 percentile=50 lane=reported attestor="{attestor}" approved-by="gate" catalog=cat'
    if refused:
        assert codes(text) == ["E166"]
    else:
        assert load_text(HEAD + text).of("result")


def test_citing_only_the_org_own_page_scores_but_derives_no_floor(mg, m3):
    own = by_id(mg)["mg-own"]
    assert own.own_pages_only and own.scoring_valid and own.contribution == F(7, 5) and own.floor is None
    assert by_id(mg)["mg-fresh"].floor == 4 and not by_id(mg)["mg-fresh"].own_pages_only  # the near miss
    assert by_id(m3)["pl-s1"].contribution > 0 and by_id(m3)["pl-s1"].floor is None
    assert by_id(m3)["pl-b1"].floor == 4  # the org's page beside a third-party CI log


# --- revisions ----------------------------------------------------------------------------------------
def test_a_revision_without_new_hashes_is_a_located_error():
    first = f"result r1 e bench@1 percentile=50 {VERIFIED} catalog=cat"
    second = f"result r2 e bench@1 percentile=60 {VERIFIED} catalog=cat"
    with pytest.raises(LoadError) as e:
        load_text(HEAD + first + "\n" + second, name="w.facts")
    (d,) = e.value.diagnostics
    assert (d.code, d.line) == ("E167", 6) and "r1" in d.message and "w.facts:5" in d.message


@pytest.mark.parametrize("second", [
    f"result r2 e bench@1 score=0.5 unit=fraction {VERIFIED}",  # the same score in another unit
    f"result r2 e bench@1 percentile=60 {VERIFIED.replace(H1, '2c' * 32)}",  # a revision with a new hash
])
def test_revision_near_misses_load(second):
    load_text(HEAD + f"result r1 e bench@1 score=50 unit=pct {VERIFIED}\n" + second)


# --- Trust Magnitude parameters: layers, inherit multiplier, grade ceiling ----------------------------------
def test_generic_layer_passes_fifteen_hundredths_and_derives_no_floor(mg, m3):
    g = by_id(mg)["mg-generic"]
    assert (g.layer, g.weighted, g.contribution) == ("generic", F(7, 5), F(7, 5) * F(3, 20))
    assert by_id(m3)["pl-g1"].floor is None and by_id(m3)["pl-v1"].floor == 4
    assert codes("result r1 e bench@1 percentile=50 lane=rejected layer=organization") == ["E104"]


def test_grade_ceiling_s_admits_the_m3_floor_4(m3):
    text = m3.why("pl-verified", "M")
    assert "within the grade ceiling S" in text
    assert m3.query("grade_ceiling('S', 4)") == [{}]


def test_results_json_names_and_parameters(mg):
    out = CliRunner().invoke(main, ["results", str(WORLDS / "magnitudes.facts"), "mg", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["as_of"] == "2026-03-01" and data["as_of_origin"].startswith("stated at")
    assert data["parameters"] == {"weight": "7/5", "grade_ceiling": "S", "grade_ceiling_value": 4,
                                  "allowed_layers": ["generic", "named"], "inherit_multiplier": "3/20",
                                  "half_life_days": "1461/4"}
    rows = {r["id"]: r for r in data["results"]}
    assert set(rows) == set(EXACT)
    fresh = rows["mg-fresh"]
    assert fresh["exact"] == {"base": "87/100", "multiplier": "2", "magnitude": "87/50", "capped": "1",
                              "freshness": "1", "fresh": "1", "weighted": "7/5", "contribution": "7/5"}
    assert (fresh["magnitude"], fresh["contribution"], fresh["floor"]) == (1.74, 1.4, 4)
    assert rows["mg-half-year"]["freshness"] == 0.707945966
    assert "final_score" not in fresh and "finalScore" not in fresh


# --- the link to the RULES: derived M.3 signals ------------------------------------------------------
def test_m3_signal_cites_the_result_source_and_span(m3):
    sig = {s.id: s for s in m3.signals("pl-verified")}["M.3/pl-verified/1"]
    assert sig.derived and sig.rule == "M.3" and sig.dim == "M" and sig.direction == "for"
    assert (sig.kind, sig.bound) == ("floor", 4)
    assert sig.cites == (("pl-ci-log", "re-ran the open tasks: pass"),)
    assert sig.facts == ("result:pl-v1",)


@pytest.mark.parametrize("org, floor", [
    ("pl-verified", 4), ("pl-reported", 3), ("pl-rejected", None), ("pl-notown", None),
    ("pl-selfsrc", None), ("pl-both", 4), ("pl-badsrc", None), ("pl-generic", None),
])
def test_which_results_derive_a_floor(m3, org, floor):
    got = [(s.rule, s.bound) for s in m3.signals(org) if s.derived and s.dim == "M"]
    assert got == ([] if floor is None else [("M.3", floor)])


def test_why_shows_the_result(m3):
    text = m3.why("pl-verified", "M")
    assert "M.3" in text and "result pl-v1" in text


def test_lane_rules_name_their_clauses():
    from provlog.logic import lanes  # noqa: F401

    mine = [r for r in RULES.rules if r.clause in ("PL.1", "PL.3", "M.3")]
    heads = {r.head_name for r in mine}
    assert {"lane_multiplier", "magnitude", "capped", "freshness", "fresh", "weighted", "contribution",
            "scoring_valid", "zero_reason", "own_pages_only", "derive", "uses"} <= heads
    assert "self_attested" not in heads  # a schema rejection (E130, E166), not a rule
    assert all(r.template for r in mine if r.head_name != "uses")
    assert any("cap" in r.template and r.head_name == "capped" for r in mine)


# --- load errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, code", [
    (f"result r1 e bench@1 percentile=50 {VERIFIED.replace(H1, H1.upper())}", "E161"),  # uppercase
    (f"result r1 e bench@1 percentile=50 {VERIFIED.replace(H2, H2[:40])}", "E161"),  # short
    (f"result r1 e bench@1 percentile=50 {VERIFIED.replace(H2, 'g' * 64)}", "E161"),  # non-hex
    (f"result r1 e bench@1 percentile=50 lane=verified run-at=2026-01-15 dataset-hash={H1}", "E161"),  # one hash
    (f"result r1 e bench@1 percentile=50 lane=verified dataset-hash={H1} input-hash={H2}", "E162"),  # no run-at
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
    ('benchmark-source b2 "x"', "E106"),
    ("result r1 e bench@1 score=5 unit=points lane=rejected", "E104"),
    ("result r1 e bench@1 percentile=50 lane=limbo", "E104"),
    ('benchmark-source b2 "x" lane=limbo', "E104"),
    ("result r1 e bench@1 percentile=50 lane=rejected run-at=2026-02-30", "E104"),
    ("result r1 nowhere bench@1 percentile=50 lane=rejected", "E110"),
    ("result r1 e bench@1 percentile=50 lane=rejected src=nosuch", "E110"),
    ("result r1 e bench@1 percentile=50 lane=rejected catalog=nosuch", "E110"),
    ("result r1 e bench@1 percentile=50 lane=rejected catalog=s1", "E111"),
    ("result r1 e bench@1 percentile=50 lane=rejected\nresult r1 e bench@2 percentile=50 lane=rejected", "E112"),
    ('benchmark-source cat "again" lane=rejected', "E112"),
])
def test_load_errors(text, code):
    assert code in CATALOG
    assert code in codes(text)


@pytest.mark.parametrize("bid", ["humaneval@1", "humaneval/plus@1", "mmlu-5shot@2024-03", "humaneval@1.0.0",
                                 "swe-bench/verified@v2", "gpqa@1.0.0-rc.1"])
def test_good_benchmark_ids(bid):
    w = load_text(HEAD + f"result r1 e {bid} percentile=50 lane=rejected")
    assert w.of("result")[0]["benchmark"] == bid


def test_result_ids_have_their_own_namespace():
    # a result may share an id with an org, a source or a catalog source; only results clash with results
    load_text(HEAD + "result e e bench@1 percentile=50 lane=rejected\nresult s1 e bench@1 percentile=5 lane=rejected\n"
                     "result cat e bench@1 percentile=5 lane=rejected")


def test_every_error_is_reported_and_nothing_is_half_loaded():
    bad = ("result r1 e HumanEval@1 percentile=50 lane=rejected\n"
           "result r2 e bench@1 percentile=50 lane=self-attested\n"
           "result r3 e bench@1 percentile=50 lane=reported\n"
           "result r4 e bench@1 percentile=50 lane=rejected\n")
    got = codes(bad)
    assert sorted(set(got)) == ["E130", "E160", "E163"]


def test_new_codes_are_in_the_catalog():
    for c in ("E160", "E161", "E162", "E163", "E164", "E165", "E166", "E167"):
        assert c in CATALOG and all(CATALOG[c])


# --- inputs cannot forge conclusions: no final score is stored or accepted ---------------------------------
@pytest.mark.parametrize("text, code", [
    ("result r1 e bench@1 percentile=50 lane=rejected multiplier=2", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected lane-multiplier=2", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected magnitude=1.4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected capped=1", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected fresh=1", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected weighted=1", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected contribution=1.4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected freshness=1", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected final-score=1.4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected finalscore=1.4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected scoring-valid=yes", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected value=4", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected verified", "E102"),
    ("result r1 e bench@1 percentile=50 lane=rejected\nmagnitude r1 3", "E140"),
    ("result r1 e bench@1 percentile=50 lane=rejected\ncontribution r1 1", "E140"),
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
def test_results_text_and_errors():
    r = CliRunner()
    out = r.invoke(main, ["results", str(WORLDS / "magnitudes.facts")])
    assert out.exit_code == 0 and "mg-fresh" in out.output and "M.3/mg/1" in out.output
    assert "results as of 2026-03-01 (stated at" in out.output
    assert "magnitude 87/50; capped 1; fresh 1" in out.output and "contribution 7/5" in out.output
    assert "magnitude = normalized base x lane multiplier" in out.output
    bad = r.invoke(main, ["results", str(WORLDS / "magnitudes.facts"), "nope"])
    assert bad.exit_code == 2 and "unknown org" in bad.output
    bad = r.invoke(main, ["results", str(WORLDS / "magnitudes.facts"), "--as-of", "2026-02-30"])
    assert bad.exit_code == 2


# --- the example world: a result in every lane -----------------------------------------------------------
def test_example_world_has_a_result_in_every_lane():
    from provlog.facts.results import LANES, LEGACY_LANES

    example = Path(__file__).resolve().parent.parent / "facts" / "worlds" / "example"
    w = World.load(example)
    rows = w.results()
    assert {r.lane for r in rows} == set(LANES) | set(LEGACY_LANES)
    assert w.as_of == "2026-09-01" and w.as_of_origin.startswith("stated at")
    assert {r.id for r in rows if r.scoring_valid} == {"qv-mmlu", "tw-humaneval"}
    assert all(r.floor is None for r in rows)  # no own-tasks row: the example's M values stand
    with pytest.raises(LoadError) as e:
        World.load(example, strict=True)
    assert [d.code for d in e.value.diagnostics] == ["E164"]
