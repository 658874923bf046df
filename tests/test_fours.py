"""Issue 40: what a Four needs (P.8, S.5, R.5, M.1), checked against what the org states: its
policies, its people's equity in labs (a `stake`) and its published adverse findings (a source's
`adverse=`); a ranking gives R.5 nothing. W121 at the signal where they do not give the 4; the floor
stands on its span where the org states none of them; no value changes. The expected findings are
derived by hand from rules.txt in tests/worlds/core/policy_fours.facts; here they are listed by
signal."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.facts import LoadError
from provlog.logic import bounds
from provlog.queries.cli import main

ROOT = Path(__file__).resolve().parent
FOURS = str(ROOT / "worlds" / "core" / "policy_fours.facts")
EXAMPLE = str(ROOT.parent / "facts" / "worlds" / "example")

W121_BY_HAND = {"pf4-p8-equity-p", "pf4-p8-inv-p", "pf4-p8-hold-p", "pf4-p8-ties-p", "pf4-r5-rank-r", "pf4-r5-rankonly-r",
                "pf4-r5-review-r", "pf4-r5-other-r", "pf4-r5-quar-r", "pf4-m1-tasks-m", "pf4-m1-code4-m",
                "pf4-m1-rerun3-m"}
CHECKED_BY_HAND = {"pf4-p8-p", "pf4-p8-minor-p", "pf4-p8-adv-p", "pf4-p8-gov-p", "pf4-s5-inc-s", "pf4-s5-sign-s", "pf4-r5-r",
                   "pf4-m1-m", "pf4-m1-fact-m", "pf4-m1-code3-m"}
UNCHECKED_BY_HAND = {"pf4-p8-none-p", "pf4-s5-none-s", "pf4-r5-none-r", "pf4-m1-none-m"}


@pytest.fixture(scope="module")
def world():
    return World.load(FOURS, store=False)


def run(*args):
    return CliRunner().invoke(main, ["--no-store", *args])


def test_a_four_what_the_org_states_does_not_give_is_w121(world):
    assert {(x.signal["id"], x.code) for x in bounds.findings(world.facts)} == {(s, "W121") for s in W121_BY_HAND}


def test_each_floor_reads_as_derived_by_hand(world):
    states = {}
    for f in world.facts.of("signal"):
        states.setdefault(bounds.policy_reading(world.facts, f).state, set()).add(f["id"])
    assert states == {"short": W121_BY_HAND, "checked": CHECKED_BY_HAND, "unchecked": UNCHECKED_BY_HAND,
                      "none": {"pf4-s5-three-s"}}


def test_no_value_changes(world):
    results = world.check_expects()
    assert len(results) == 26 and all(r.ok for r in results), [r for r in results if not r.ok]


def test_w121_names_what_a_four_is_missing(world):
    msgs = {d.message.split()[1]: d.message for d in world.warnings()}
    assert ("(cooling-off, disclose-ties, stake pf4-p8-equity-cto in pf4-lab) does not give it"
            in msgs["pf4-p8-equity-p"])
    assert msgs["pf4-p8-equity-p"].endswith("P.8 needs no equity in a lab or lab investor held by its people "
                                            "(board, executives, staff)")
    assert "stake pf4-p8-inv-dir in pf4-fund" in msgs["pf4-p8-inv-p"]  # pf4-fund led a round in the lab
    assert "stake pf4-p8-hold-dir in pf4-hold" in msgs["pf4-p8-hold-p"]  # pf4-hold has 60% of pf4-fund
    assert msgs["pf4-p8-ties-p"].endswith("P.8 needs disclose-ties")
    rank = msgs["pf4-r5-rank-r"]
    assert "(no-lab-review, ranking pf4-r5-rank-row) does not give it: R.5 needs a published adverse finding" in rank
    assert rank.endswith("a leaderboard ranking alone is not one)")
    assert "R.5 needs no-lab-review and a published adverse finding" in msgs["pf4-r5-rankonly-r"]
    assert msgs["pf4-r5-review-r"].endswith("R.5 needs no-lab-review")
    assert msgs["pf4-m1-tasks-m"].endswith("M.1 needs open-tasks")
    assert msgs["pf4-m1-code4-m"].endswith("M.1 needs open-tasks and third-party-reruns or factsheets")
    assert "M.1 needs open-code or open-tasks for a 3" in msgs["pf4-m1-rerun3-m"]


def test_why_says_what_a_four_stands_on(world):
    span = world.why("pf4-p8-none", "P")
    assert "on its cited span, not a stated policy: pf4-p8-none states none of the statements P.8 reads" in span
    assert "`policy pf4-p8-none cooling-off` and `policy pf4-p8-none disclose-ties`" in span
    assert ("`policy pf4-s5-none incident-investigation` or `policy pf4-s5-none refuse-sign-off`"
            in world.why("pf4-s5-none", "S"))
    assert "`adverse=<finding> adverse-to=<lab>`" in world.why("pf4-r5-none", "R")
    checked = world.why("pf4-r5", "R")
    assert "what pf4-r5 states (adverse finding pf4-r5-report, no-lab-review) gives it" in checked
    assert "source pf4-r5-report" in checked and "adverse=safety-failure adverse-to=pf4-lab" in checked
    assert "W121: signal pf4-p8-equity-p floors" in world.why("pf4-p8-equity", "P")
    assert ("the policies pf4-p8 states (cooling-off, disclose-ties) give it, with no stake of its people in a lab "
            "or lab investor stated") in world.why("pf4-p8", "P")
    assert "stated policy" not in world.why("pf4-s5-three", "S")  # S.5's floor 3 needs neither right


def test_check_strict_and_verify_refuse():
    r = run("check", FOURS)
    assert r.exit_code == 0 and r.stdout.count("[W121]") == len(W121_BY_HAND)
    r = run("check", "--strict", FOURS)
    assert r.exit_code == 1 and f"{len(W121_BY_HAND)} errors under --strict" in r.stderr
    r = run("verify", FOURS)
    assert r.exit_code == 1 and "signal pf4-r5-rank-r floors pf4-r5-rank R at 4 under R.5" in r.stdout


def test_the_example_world_states_what_its_fours_need():
    w = World.load(EXAMPLE, store=False)
    reading = {sid: bounds.policy_reading(w.facts, w.facts.signals[sid]).state
               for sid in ("qv-r-adverse", "tw-r-adverse", "lv-s-charter", "qv-m-open")}
    assert reading == {"qv-r-adverse": "checked", "tw-r-adverse": "checked", "lv-s-charter": "unchecked",
                       "qv-m-open": "unchecked"}


LAB = 'lab l "L"\norg o "O" type=nonprofit evaluated=yes\nentity p "P" kind=public\n'
SRC = 'source s "x" publisher=p status=confirmed tier=1\n'
FOUR = 'signal r o R for floor 4 rule=R.5\ncite r s "No developer reviews our reports."\npolicy o no-lab-review src=s\n'


def test_a_ranking_is_no_adverse_finding_and_a_finding_is():
    text = LAB + SRC + FOUR + 'result row o bench@1 percentile=40 lane=rejected\n'
    assert [(d.code, d.line) for d in World.from_text(text, "w.facts").warnings()] == [("W121", 5)]
    text += 'source rep "report" publisher=o status=confirmed adverse=contested-grade adverse-to=l\n'
    assert World.from_text(text, "w.facts").warnings() == []


@pytest.mark.parametrize("attrs, code", [("adverse=ranking adverse-to=l", "E174"),
                                         ("lane=rejected adverse=disputed-result adverse-to=l", "E174"),
                                         ("adverse=safety-failure", "E173"), ("adverse-to=l", "E173")])
def test_a_ranking_cannot_be_stated_as_an_adverse_finding(attrs, code):
    with pytest.raises(LoadError) as e:
        World.from_text(LAB + f'source rep "report" publisher=o status=confirmed {attrs}\n', "w.facts")
    assert [d.code for d in e.value.diagnostics] == [code]
