"""The pilot acceptance rulebook (issue 8; seeds/open-pilot-baseline.txt, docs/rulebooks/pilot.md):
the example world's expectations, every rule exercised, prove/refute naming the failing
condition, and load errors for malformed statements."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.explain.clauses import parse_rule
from provlog.explain.proof import Explainer
from provlog.facts import LoadError, load_text
from provlog.logic.pilot.rules import PILOT
from provlog.logic.rulebooks import REGISTRY
from provlog.queries.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "facts" / "worlds" / "pilot"


@pytest.fixture(scope="module")
def world():
    return World.load(EXAMPLE)


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- the example world ---------------------------------------------------------------------------
def test_registered():
    assert REGISTRY["pilot"].rules is PILOT


def test_example_world_expects_hold(world):
    results = world.check_expects()
    failed = [f"{r.loc} {r.text}: got {r.got}" for r in results if not r.ok]
    assert not failed, "\n".join(failed)
    assert len(results) >= 250
    assert all("rulebook=pilot" in r.text for r in results)


def test_provlog_test_command():
    res = cli("test", EXAMPLE)
    assert res.exit_code == 0, res.output
    assert re.search(r"\d+ passed, 0 failed", res.output)


def test_every_rule_fires_in_the_example(world):
    """Each rule of the rulebook has at least one derivation in the example world."""
    ex = Explainer(world.rulebook("pilot"))
    never = []
    for rule in PILOT.rules:
        _, body = parse_rule(rule.text)
        if next(iter(ex.solve(body, {})), None) is None:
            never.append(f"{rule.clause}: {rule.text}")
    assert not never, "\n".join(never)


def test_every_relation_has_a_holds_and_a_fails_expectation(world):
    """Each relation a clause of the baseline derives is expected to hold somewhere and to fail
    somewhere (its near miss)."""
    goals = {"holds": " ".join(f["goal"] for f in world.facts.of("expect") if f["what"] == "holds"),
             "fails": " ".join(f["goal"] for f in world.facts.of("expect") if f["what"] == "fails")}
    missing = []
    for rule in PILOT.rules:
        if rule.clause == "def":
            continue
        for what, text in goals.items():
            if not re.search(rf"\b{rule.head_name}[(\[]", text):  # an aggregate is asked as name[...] == N
                missing.append(f"{rule.head_name} ({rule.clause}) has no expect {what}")
    assert not sorted(set(missing)), "\n".join(sorted(set(missing)))


def test_clause_ids():
    clauses = set(PILOT.clauses())
    for c in ("4.final", "4.diag", "4.status", "4.verified", "4.attempt", "4.control", "4.evaluator",
              "4.formula", "4.log", "4.escrow", "4.trust", "5.0", "5.1", "5.2", "5.3", "5.4",
              "6.threshold", "6.K", "6.advisory", "6.shadow", "6.scorer", "6.scope", "6.external", "6.pass",
              "6.C", "6.E", "7", "7.control", "7.final", "7.conceal", "7.secret", "7.exec", "7.selfreport",
              "7.fresh", "7.circumvent", "7.repro"):
        assert c in clauses, c
    # one clause per bullet of section 7, each deriving critical(R, '<its clause>')
    for c in ("7.control", "7.final", "7.conceal", "7.secret", "7.exec", "7.selfreport", "7.fresh",
              "7.circumvent", "7.repro"):
        heads = [r.head for r in PILOT.rules if r.clause == c and r.head_name == "critical"]
        assert heads and all(f"'{c}'" in h for h in heads), c
    for r in PILOT.rules:
        assert r.template, r.text


def test_pilot_pass_reads_no_aggregate():
    """6: a single aggregate never decides acceptance: pilot_pass does not rest on shadow_signal."""
    def reaches(rel, seen=()):
        if rel in seen:
            return set()
        out = {rel}
        for r in PILOT.defining(rel):
            for name in re.findall(r"~?([a-z_][a-z0-9_]*)\(", r.body):
                out |= reaches(name, seen + (rel,))
        return out

    assert "shadow_signal" not in reaches("pilot_pass")
    assert "threshold_failed" in reaches("pilot_pass")


def test_answers(world):
    assert world.query("pilot_pass(R)", rulebook="pilot") == [{"R": r} for r in sorted(
        ["r-ok", "r-diag", "r-cheap", "r-better", "r-fresh-explained", "r-formula-owner", "r-lite-ok",
         "r-e-all", "r-e-agree", "r-att-ok", "r-staged", "r-o-jan", "r-o-mar", "r-o-jun"])]
    assert world.query("threshold_failed('r-aggregate', M)", rulebook="pilot") == [{"M": "E"}]
    assert world.query("rejects('r-policy-expected', C)", rulebook="pilot") == [{"C": "4.control"}, {"C": "7.control"}]
    assert world.query("cheaper(A, 'r-ok')", rulebook="pilot") == [{"A": "r-cheap"}]


# --- prove and refute name the failing condition ----------------------------------------------------
def _refuted(world, goal):
    """The refutation as the CLI prints it: per rule, the first condition that fails."""
    return "\n".join(f"{w['rule']}: {w['fails']}" for w in world.refute(goal, rulebook="pilot"))


def test_cli_refute_and_prove_name_the_failed_threshold():
    res = cli("refute", EXAMPLE, "pilot_pass('r-aggregate')", "--rulebook", "pilot")
    assert res.exit_code == 0, res.output
    assert "6.pass: r-aggregate fails a mandatory threshold: see threshold_failed(r-aggregate, M)" in res.output
    res = cli("prove", EXAMPLE, "threshold_failed('r-aggregate', M)", "--rulebook", "pilot")
    assert res.exit_code == 0, res.output
    assert "fails the mandatory threshold on E: 94% against min 95%" in res.output
    assert "metric r-aggregate E 0.94 source=runner" in res.output and "thresholds.facts:" in res.output
    res = cli("prove", EXAMPLE, "pilot_pass('r-ok')", "--rulebook", "pilots")
    assert res.exit_code == 2 and "unknown rulebook 'pilots'" in res.output


def test_cli_refute_descends_to_the_reason():
    res = cli("refute", EXAMPLE, "pilot_pass('r-final')", "--rulebook", "pilot")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("6.pass: r-final is not verified")
    assert lines[1].strip().startswith("because 4.status: r-final's record is not intact: see rejects(r-final, C)")


def test_refute_names_the_external_check(world):
    assert ("6.pass: r-scorer-only has a mandatory criterion its checker did not pass: "
            "see criterion_unpassed(r-scorer-only, C)") in _refuted(world, "pilot_pass('r-scorer-only')")
    text = world.prove("criterion_unpassed('r-scorer-only', C)", rulebook="pilot")
    assert "mandatory criterion c-fresh is not passed on r-scorer-only by its checker, the fresh-control" in text
    text = world.prove("scorer_not_final('s-unit', 'r-scorer-only', 'c-fresh')", rulebook="pilot")
    assert "does not set r-scorer-only's pilot_pass" in text


def test_refute_names_the_critical_violation(world):
    assert ("6.pass: r-leak has a critical violation or a trust breach: see rejects(r-leak, C)"
            in _refuted(world, "pilot_pass('r-leak')"))
    text = world.prove("rejects('r-leak', C)", rulebook="pilot")
    assert "(7.secret)" in text and "event r-leak secret-leak confirmed by=policy" in text


def test_refute_names_the_missing_final_value(world):
    assert ("4.status: r-unmeasured has no final value of a mandatory metric: "
            "see threshold_unmeasured(r-unmeasured, M)") in _refuted(world, "verified('r-unmeasured')")
    ways = world.refute("final_value('r-unmeasured', 'R', 1)", rulebook="pilot")
    assert ways[0]["rule"] == "4.final" and ways[0]["fails"].startswith("no trusted_value(r-unmeasured, R")


def test_refute_costs(world):
    ways = world.refute("cost_comparable('r-kfail', 'r-ok')", rulebook="pilot")
    assert ways[0]["fails"] == "r-kfail does not satisfy the quality gate K"
    assert ways[0]["because"][0]["fails"] == "r-kfail fails the mandatory threshold on K"
    assert ("6.C: r-better and r-ok differ in their verified result"
            in _refuted(world, "cost_comparable('r-better', 'r-ok')"))


def test_holding_goal(world):
    assert world.refute("pilot_pass('r-ok')", rulebook="pilot") == []


# --- load errors ---------------------------------------------------------------------------------------
PRELUDE = '''pilot p1 "Pilot"
run r1 p1
criterion c1 p1 by=harness mandatory
'''


@pytest.mark.parametrize("line, code, at", [
    ("metric r1 P 1.2 source=runner", "E120", "1.2"),
    ("metric r1 P 120% source=runner", "E120", "120%"),
    ("metric r1 P pass source=runner", "E104", "pass"),
    ("metric r1 C 50% source=calculator", "E104", "50%"),
    ("metric r1 K 1.5k source=harness", "E104", "1.5k"),
    ("metric r1 P 90-95% source=runner", "E104", "90-95%"),
    ("metric r1 X 0.9 source=runner", "E104", "X"),
    ("metric r1 P 0.9", "E106", "metric"),
    ("metric r1 P 0.9 source=oracle", "E104", "oracle"),
    ("metric r9 P 0.9 source=runner", "E110", "r9"),
    ("threshold p1 P mandatory", "E106", "threshold"),
    ("threshold p1 P min=0.9 max=0.8", "E120", "0.8"),
    ("threshold p1 C min=pass", "E104", "pass"),
    ("threshold r1 P min=0.9", "E111", "r1"),
    ("criterion c2 p1 by=policy", "E104", "policy"),
    ("check r1 p1 pass by=harness", "E111", "p1"),
    ("check r1 c1 maybe by=harness", "E104", "maybe"),
    ("event r1 write-final-value", "E106", "event"),
    ("event r1 rewrite-history by=policy", "E104", "rewrite-history"),
    ("event r1 write-final-value by=policy confirmed", "E104", "write-final-value"),
    ('fresh-control r1 0.8 public=0.9 by=harness explained="harder set"', "E106", '"harder set"'),
    ("fresh-control r1 0.8 public=1.5 by=harness", "E120", "1.5"),
    ("application a1 p1 weight=120%", "E120", "120%"),
    ("change ch1 p1 weights material", "E104", "weights"),
    ("calibration p1 lucky distinguished", "E104", "lucky"),
    ("run r1 p1", "E112", "run"),
    ("attempt a1 r1 hidden", "E102", "hidden"),
])
def test_load_errors(line, code, at):
    with pytest.raises(LoadError) as e:
        load_text(PRELUDE + line + "\n", "w.facts")
    diags = [d for d in e.value.diagnostics if d.code == code]
    assert diags, e.value.render()
    d = diags[0]
    assert d.line == 4
    assert d.col == line.index(at) + 1, e.value.render()


def test_malformed_statements_are_reported_together():
    text = PRELUDE + "metric r1 P 1.2 source=runner\nthreshold p1 P mandatory\nevent r1 leak by=policy\n"
    with pytest.raises(LoadError) as e:
        load_text(text, "w.facts")
    assert [d.code for d in e.value.diagnostics] == ["E120", "E106", "E104"]
