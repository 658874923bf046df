"""Issue 40 parts 1-2: a recorded signal's bound against the bounds its clause gives (W120) and a
floor against the policies its org states (W121), each at the signal's file:line:col; errors under
`check --strict`, failures of `verify`, and no value changed. The expected findings of each fixture
world are derived by hand from rules.txt in the world's comments (tests/worlds/core/bounds.facts,
policy_floors.facts); here they are listed by signal."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.logic import bounds
from provlog.logic.clauses import BOUNDS, CLAUSES
from provlog.queries.cli import main

CORE = Path(__file__).resolve().parent / "worlds" / "core"
BOUNDS_WORLD = str(CORE / "bounds.facts")
POLICY_WORLD = str(CORE / "policy_floors.facts")
EXAMPLE = str(Path(__file__).resolve().parent.parent / "facts" / "worlds" / "example")

W120_BY_HAND = {"bd-s2-zero-s", "bd-s2-for-s", "bd-r3-miss-r", "bd-x5-miss-x", "bd-f8-miss-f", "bd-nine-m",
                "bd-a5-miss-a", "bd-m2-miss-m", "bd-f11-miss-f", "bd-mech-g"}
W121_BY_HAND = {"pf-g2-one-g", "pf-g2-twice-g", "pf-g2-gov-one-g", "pf-g2-pbc3-g", "pf-g2-vc-g", "pf-g1-vc-g",
                "pf-p5-miss-p", "pf-p6-miss-p"}


def found(path):
    return {(x.signal["id"], x.code) for x in bounds.findings(World.load(path, store=False).facts)}


def run(*args):
    return CliRunner().invoke(main, ["--no-store", *args])


def test_a_bound_its_clause_does_not_give_is_w120_and_one_it_gives_is_not():
    assert found(BOUNDS_WORLD) == {(s, "W120") for s in W120_BY_HAND}


def test_a_floor_the_stated_policies_do_not_give_is_w121():
    assert found(POLICY_WORLD) == {(s, "W121") for s in W121_BY_HAND} | {("pf-g1-three-g", "W120")}


@pytest.mark.parametrize("path", [BOUNDS_WORLD, POLICY_WORLD])
def test_no_value_changes(path):
    results = World.load(path, store=False).check_expects()
    assert results and all(r.ok for r in results), [r for r in results if not r.ok]


def test_w120_is_at_the_signal_and_names_the_clause_and_what_it_gives():
    w = World.load(BOUNDS_WORLD, store=False)
    by = {d.message.split()[1]: d for d in w.warnings() if d.code == "W120"}
    zero = by["bd-s2-zero-s"]
    loc = w.facts.signals["bd-s2-zero-s"].loc
    assert (zero.file, zero.line, zero.col) == (loc.file, loc.line, loc.col)
    assert "states cap 0 on S under S.2, which gives cap 2" in zero.message
    assert "which gives cap 1, or cap 2 if the org also publishes its own reports" in by["bd-r3-miss-r"].message
    assert "which gives floor at most 3" in by["bd-f8-miss-f"].message
    assert "floor at most 2 on S, R, M" in by["bd-nine-m"].message
    assert "informational (write `info`)" in by["bd-f11-miss-f"].message


def test_w121_names_what_is_missing():
    msgs = {d.message.split()[1]: d.message for d in World.load(POLICY_WORLD, store=False).warnings()}
    assert "(recusal) do not give it: G.2 needs two of recusal, no-contingent-fees" in msgs["pf-g2-one-g"]
    assert "or civil-service" in msgs["pf-g2-gov-one-g"] and "civil-service" not in msgs["pf-g2-one-g"]
    assert "G.2 floors a for-profit or PBC at 2, not 3 (type pbc)" in msgs["pf-g2-pbc3-g"]
    assert msgs["pf-p5-miss-p"].endswith("P.5 needs disclose-ties")
    assert msgs["pf-p6-miss-p"].endswith("P.6 needs mandatory-recusal")


def test_check_warns_and_strict_refuses():
    r = run("check", POLICY_WORLD)
    assert r.exit_code == 0 and r.stdout.count("[W121]") == len(W121_BY_HAND)
    r = run("check", "--strict", POLICY_WORLD)
    assert r.exit_code == 1 and "ok:" not in r.stdout
    assert "policy_floors.facts:37:1: error: signal pf-g2-one-g floors pf-g2-one G at 3" in r.stderr
    assert f"{len(W121_BY_HAND) + 1} errors under --strict" in r.stderr
    doc = json.loads(run("check", "--strict", BOUNDS_WORLD, "--format", "json").stdout)
    assert doc["ok"] is False and {e["code"] for e in doc["errors"]} == {"W120"} and doc["warnings"] == []


def test_verify_fails_on_a_bound_its_clause_does_not_give():
    r = run("verify", BOUNDS_WORLD)
    assert r.exit_code == 1
    assert "bounds.facts:33:1: signal bd-s2-zero-s states cap 0 on S under S.2" in r.stdout


def test_why_says_what_a_floor_that_needs_a_policy_stands_on():
    w = World.load(POLICY_WORLD, store=False)
    span = w.why("pf-g2-none", "G")
    assert "on its cited span, not a stated policy: pf-g2-none states none of the policies G.2 reads" in span
    assert "`policy pf-g2-none recusal`" in span and "would make it checked" in span
    assert "the policies pf-g2-two states (no-contingent-fees, recusal) give it" in w.why("pf-g2-two", "G")
    assert "W121: signal pf-p5-miss-p floors" in w.why("pf-p5-miss", "P")
    assert "`policy pf-r7-none no-lab-review` or `policy pf-r7-none security-only-redactions`" in w.why("pf-r7-none", "R")
    assert "stated policy" not in w.why("pf-p6", "P")  # a floor 2 needs no policy


def test_the_example_world_states_what_its_floors_need():
    w = World.load(EXAMPLE, store=False)
    assert bounds.findings(w.facts) == []
    reading = {sid: bounds.policy_reading(w.facts, w.facts.signals[sid]).state
               for sid in ("oma-g-civil", "oma-p-civil", "qv-g-policy", "qv-p-recusal", "qv-r-redact", "lv-r-policy")}
    assert reading == {"oma-g-civil": "checked", "oma-p-civil": "checked", "qv-g-policy": "checked",
                       "qv-p-recusal": "checked", "qv-r-redact": "checked", "lv-r-policy": "unchecked"}


def test_without_its_register_of_interests_the_example_floor_is_w121():
    text = ('org oma "Office" type=gov\nentity p "P" kind=public\nsource s "x" publisher=p status=confirmed\n'
            "policy oma mandatory-recusal src=s\nsignal g oma G for floor 3 rule=G.2 src=s\n"
            "signal p oma P for floor 3 rule=P.5 src=s\n")
    assert {(d.code, d.line) for d in World.from_text(text, "w.facts").warnings()} == {("W121", 5), ("W121", 6)}
    text += "policy oma disclose-ties src=s\npolicy oma civil-service src=s\n"
    assert World.from_text(text, "w.facts").warnings() == []


def test_every_clause_says_what_it_gives():
    assert set(BOUNDS) == set(CLAUSES)
    r = run("rules", "S.2")
    assert r.exit_code == 0 and "    gives: cap 2" in r.stdout.splitlines()
    doc = json.loads(run("rules", "A.1", "--json").stdout)
    assert doc["clauses"][0]["gives"] == "the anchor table's (checked against nothing)"


def test_a_clause_whose_floor_needs_statements_names_them():
    """`provlog rules` names what checks a floor (logic/policies.py NEEDS, W121): P.8's Four needs a
    cooling-off rule and disclosed ties (RULES P.8); F.3 gives caps only, so it needs nothing."""
    lines = run("rules", "P.8").stdout.splitlines()
    [line] = [x for x in lines if x.startswith("    a floor is checked against: ")]
    assert "`policy ORG cooling-off`" in line and "`policy ORG disclose-ties`" in line and line.endswith("(W121)")
    assert json.loads(run("rules", "S.5", "--json").stdout)["clauses"][0]["needs"] == (
        "`policy ORG incident-investigation` or `policy ORG refuse-sign-off`")
    assert json.loads(run("rules", "F.3", "--json").stdout)["clauses"][0]["needs"] == ""
