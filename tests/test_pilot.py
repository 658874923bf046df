"""The pilot acceptance rulebook (issue 8; seeds/open-pilot-baseline.txt, docs/rulebooks/pilot.md):
the example world's expectations, every rule exercised, prove/refute naming the failing
condition, and load errors for malformed statements."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.logic.syntax import parse_rule
from provlog.explain.proof import Explainer
from provlog.facts import LoadError, load_text
from provlog.logic.pilot.rules import PILOT
from provlog.logic.registry import RULEBOOKS
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
    assert RULEBOOKS["pilot"].rules is PILOT


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
    assert "fails the mandatory threshold on E: 0.94 against min 0.95" in res.output
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


# --- scenarios and the calculated E (6.E) -------------------------------------------------------------
def _ask(text, goal):
    """Raw answers (exact Fractions, not display floats) of a goal over a world given as text."""
    from provlog.logic.rulebooks import RulebookRun
    return RulebookRun.run(load_text(text, "w.facts"), RULEBOOKS["pilot"]).program.ask(goal)


E_PRELUDE = '''pilot p1 "Pilot"
threshold p1 E min=0.6 mandatory
run r1 p1
metric r1 K pass source=harness
'''


def test_calculated_e_is_exact(world):
    """By hand: r-e-crash 3 of 4, r-e-mixed 1 of 2 (the policy's and the human's scenarios left out),
    r-e-round 2 of 3: exact fractions, never floats."""
    from fractions import Fraction
    ask = world.rulebook("pilot").program.ask
    assert ask("derived_e('r-e-crash', X)") == [(Fraction(3, 4),)]
    assert ask("derived_e('r-e-mixed', X)") == [(Fraction(1, 2),)]
    assert ask("derived_e('r-e-round', X)") == [(Fraction(2, 3),)]
    assert ask("final_value('r-e-round', 'E', X)") == [(Fraction(2, 3),)]
    assert all(type(x) is Fraction for (_, x) in ask("derived_e(R, X)"))


def test_stated_es_that_both_reproduce_the_calculation_do_not_conflict():
    """Two trusted producers publish 2/3 at different precisions (0.67, 66.7%): each reproduces the
    scenarios' 2/3, so neither conflicts with the other; without scenarios the same pair would."""
    from fractions import Fraction
    stated = "metric r1 E 0.67 source=runner\nmetric r1 E 66.7% source=calculator\n"
    scenarios = ("scenario s1 r1 ok by=runner\nscenario s2 r1 failed by=runner\n"
                 "scenario s3 r1 technical-failure by=harness\n")
    assert _ask(E_PRELUDE + stated + scenarios, "value_conflict('r1', M)") == []
    assert _ask(E_PRELUDE + stated + scenarios, "final_value('r1', 'E', X)") == [(Fraction(2, 3),)]
    assert _ask(E_PRELUDE + stated + scenarios, "pilot_pass('r1')") == [()]
    assert _ask(E_PRELUDE + stated, "value_conflict('r1', M)") == [("E",)]


def test_policy_scenarios_never_make_e():
    """Section 4: scenarios recorded by the evaluated party neither establish E nor move it. By hand:
    the runner's 1 of 2 gives 1/2 < 0.6; the policy's ten clean scenarios would have made it 11/12."""
    from fractions import Fraction
    runner = "scenario s1 r1 ok by=runner\nscenario s2 r1 technical-failure by=runner\n"
    policy = "".join(f"scenario p{i} r1 ok by=policy\n" for i in range(10))
    assert _ask(E_PRELUDE + policy, "final_value('r1', 'E', X)") == []
    assert _ask(E_PRELUDE + policy, "verified('r1')") == []
    assert _ask(E_PRELUDE + runner + policy, "final_value('r1', 'E', X)") == [(Fraction(1, 2),)]
    assert _ask(E_PRELUDE + runner + policy, "threshold_failed('r1', M)") == [("E",)]
    assert _ask(E_PRELUDE + runner + policy, "trust_breach('r1', C)") == []


def test_prove_e_ends_at_the_scenario_lines():
    res = cli("prove", EXAMPLE, "final_value('r-e-crash', 'E', X)", "--rulebook", "pilot")
    assert res.exit_code == 0, res.output
    assert "E for r-e-crash = 3 of its 4 scenarios without a technical failure = 0.75" in res.output
    assert "scenario sc-crash-4 r-e-crash technical-failure by=runner" in res.output
    assert "scenarios.facts:" in res.output
    ways = _refuted(World.load(EXAMPLE), "verified('r-e-policy')")
    assert "r-e-policy has no final value of a mandatory metric" in ways


def test_refute_names_the_unreproduced_e(world):
    # numbers as the facts write them (metric r-e-trunc E 0.66), not as percentages
    text = world.prove("value_conflict('r-e-trunc', 'E')", rulebook="pilot")
    assert ("the calculator states E = 0.66 for r-e-trunc, below the 0.6667 its scenarios give "
            "(beyond the 0.005 its digits allow)") in text, text
    assert "metric r-e-trunc E 0.66 source=calculator" in text and "0.6667 - 0.66 is above 0.005" in text
    assert ("6.pass: r-e-trunc is not verified" in _refuted(world, "pilot_pass('r-e-trunc')"))


# --- attempts tied to their events ------------------------------------------------------------------------
def test_why_ties_the_deletion_to_its_attempt():
    res = cli("why", EXAMPLE, "--goal", "trust_breach('r-att-del', '4.attempt')", "--rulebook", "pilot")
    assert res.exit_code == 0, res.output
    assert "the policy deleted attempt a-del-lost of r-att-del" in res.output
    assert "event r-att-del delete-attempt by=policy attempt=a-del-lost" in res.output
    assert "a-del-kept" not in res.output


def test_refute_names_the_missing_outcome(world):
    assert world.query("attempt_concealed(A, 'r-att-self', How)", rulebook="pilot") == [
        {"A": "a-self", "How": "no-outcome"}]
    text = world.prove("attempt_concealed('a-self', 'r-att-self', How)", rulebook="pilot")
    assert "nobody but the policy recorded how attempt a-self ended" in text
    assert world.query("attempt_deleted(A, R, By)", rulebook="pilot") == [
        {"A": "a-del-lost", "R": "r-att-del", "By": "policy"},
        {"A": "a-human", "R": "r-att-human", "By": "human"},
        {"A": "a-won", "R": "r-att-del-won", "By": "policy"}]


ATTEMPT_PRELUDE = '''pilot p1 "Pilot"
run r1 p1
metric r1 K pass source=harness
attempt a1 r1
attempt-result a1 unsuccessful by=runner
attempt a2 r1
attempt-result a2 succeeded by=runner
'''


def test_old_and_new_attempt_forms_agree_on_the_run():
    """An event that names no attempt (the old form) and one that names its attempt reject the run the
    same way; only the named one says which attempt."""
    old = ATTEMPT_PRELUDE + "event r1 delete-attempt by=policy\n"
    new = ATTEMPT_PRELUDE + "event r1 delete-attempt by=policy attempt=a1\n"
    for text in (old, new):
        assert sorted(_ask(text, "rejects('r1', C)")) == [("4.attempt",), ("7.conceal",)]
    assert _ask(old, "attempt_concealed(A, 'r1', How)") == []
    assert _ask(new, "attempt_concealed(A, 'r1', How)") == [("a1", "delete-attempt")]
    assert _ask(ATTEMPT_PRELUDE, "pilot_pass('r1')") == [()]


# --- Phase 4 order ----------------------------------------------------------------------------------------
def test_refute_reacceptance_names_the_order(world):
    assert ("5.4: run r-o-jan is not shown to come after change ch-o2"
            in _refuted(world, "reaccepted('ch-o2')"))
    res = cli("refute", EXAMPLE, "reaccepted('ch-o2')", "--rulebook", "pilot")
    assert res.exit_code == 0 and "because 5.4: not so: 2025-01-15 is above 2025-04-10" in res.output, res.output
    assert world.query("application_fault(A, 'not-reaccepted')", rulebook="pilot") == [
        {"A": a} for a in ("app-4", "app-5", "app-o2", "app-o4", "app-o5", "app-o6")]


@pytest.mark.parametrize("run_date, change_date, reaccepted", [
    ("2025-03-11", "2025-03-10", True),
    ("2025-03-10", "2025-03-10", False),   # the same day: no order
    ("2025-03-09", "2025-03-10", False),   # before the change
    ("2025-03", "2025-03-10", False),      # March is not after 10 March
    ("2025-04", "2025-03", True),
    ("2026", "2025-12-31", True),
    ("2025-12-31", "2025", False),         # a day inside the year
    (None, "2025-03-10", False),           # undated: no order
    ("2025-03-11", None, False),
])
def test_reacceptance_order_by_date_spans(run_date, change_date, reaccepted):
    run = f"run r2 p1{f' date={run_date}' if run_date else ''}\nmetric r2 K pass source=harness\n"
    change = f"change ch1 p1 verifier material reaccepted-by=r2{f' date={change_date}' if change_date else ''}\n"
    text = 'pilot p1 "Pilot"\n' + run + change
    assert _ask(text, "pilot_pass('r2')") == [()]
    assert bool(_ask(text, "reaccepted('ch1')")) is reaccepted
    assert bool(_ask(text, "reacceptance_pending('p1', 'ch1')")) is not reaccepted


# --- load errors of the new statements ----------------------------------------------------------------------
NEW_PRELUDE = '''pilot p1 "Pilot"
run r1 p1
attempt a1 r1
'''


@pytest.mark.parametrize("line, code, at", [
    ("scenario s1 r1 crashed by=runner", "E104", "crashed"),
    ("scenario s1 r1 ok", "E106", "scenario"),
    ("scenario s1 r1 ok by=oracle", "E104", "oracle"),
    ("scenario s1 r9 ok by=runner", "E110", "r9"),
    ("scenario s1 p1 ok by=runner", "E111", "p1"),
    ("scenario s1 r1 ok by=runner verified", "E103", "verified"),
    ("scenario a1 r1 ok by=runner\nscenario a1 r1 failed by=runner", "E112", "scenario"),
    ("attempt-result a1 won by=runner", "E104", "won"),
    ("attempt-result a1 succeeded", "E106", "attempt-result"),
    ("attempt-result a9 succeeded by=runner", "E110", "a9"),
    ("attempt-result r1 succeeded by=runner", "E111", "r1"),
    ("event r1 write-signal by=policy attempt=a1", "E104", "a1"),
    ("event r1 delete-attempt by=policy attempt=a9", "E110", "a9"),
    ("event r1 delete-attempt by=policy attempt=r1", "E111", "r1"),
    ("run r2 p1 date=2025-13", "E104", "2025-13"),
    ("run r2 p1 date=yesterday", "E104", "yesterday"),
    ("change ch1 p1 model material date=2025-02-30", "E104", "2025-02-30"),
    ("application ap1 p1 weight=10% date=03/2025", "E104", "03/2025"),
    ("derived-e r1 1", "E140", "derived-e"),
    ("reaccepted ch1", "E140", "reaccepted"),
])
def test_load_errors_of_new_statements(line, code, at):
    with pytest.raises(LoadError) as e:
        load_text(NEW_PRELUDE + line + "\n", "w.facts")
    diags = [d for d in e.value.diagnostics if d.code == code]
    assert diags, e.value.render()
    d = diags[0]
    last = line.splitlines()[-1]  # a duplicate is reported at its second statement
    where = (d.file, d.line, d.col)
    assert where == ("w.facts", 3 + len(line.splitlines()), last.rindex(at) + 1), e.value.render()


def test_a_bad_line_loads_nothing_and_the_cli_says_where(tmp_path):
    """A world of two files, one good and one with a bad scenario: nothing is loaded, and the CLI
    prints file:line:col with a caret, not a traceback."""
    (tmp_path / "a.facts").write_text(NEW_PRELUDE + "scenario s1 r1 ok by=runner\n"
                                      'expect holds "derived_e(\'r1\', 1)" rulebook=pilot\n')
    (tmp_path / "b.facts").write_text("scenario s2 r1 ok\nattempt-result a1 won by=runner\n")
    with pytest.raises(LoadError) as e:
        World.load(tmp_path)
    assert [(Path(d.file).name, d.line, d.code) for d in e.value.diagnostics] == [
        ("b.facts", 1, "E106"), ("b.facts", 2, "E104")]
    for cmd in (["test", tmp_path], ["query", tmp_path, "derived_e(R, X)", "--rulebook", "pilot"]):
        res = cli(*cmd)
        assert res.exit_code == 1, res.output
        assert "b.facts:2:19:" in res.output and "^" in res.output and "Traceback" not in res.output
        assert "the world was not loaded" in res.output
    (tmp_path / "b.facts").unlink()
    assert cli("test", tmp_path).exit_code == 0
