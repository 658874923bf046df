"""Section 4 of the open pilot baseline, held by provlog itself: what comes from the evaluated
party (``source=policy``/``self-report``/``scorer`` on a metric, ``by=policy`` anywhere) can
never establish the status ``verified``, a final value or the formula, nor ``pilot_pass``.

Each policy statement is tried on its own, on a run that passes, a run whose trusted side has
produced nothing, and a run that fails: nothing good may appear and nothing bad may go away.
Statements that would set a conclusion directly are refused at load.
"""
import pytest

from provlog.facts import LoadError, load_text
from provlog.facts.pilot import EVENTS, METRICS
from provlog.logic.registry import RULEBOOKS
from provlog.logic.rulebooks import RulebookRun

BASE = '''pilot p1 "Trust pilot" material=5%
threshold p1 P min=0.9 mandatory
threshold p1 R min=0.8 mandatory
criterion c-red p1 by=red-team mandatory
criterion c-unit p1 by=scorer mandatory
scorer s1 p1 scope=c-unit

run r-good p1
metric r-good P 0.95 source=runner
metric r-good R 0.9 source=calculator
metric r-good E 1 source=runner
metric r-good D 1 source=runner
metric r-good K pass source=harness
metric r-good C 100 source=calculator
scorer-result s1 r-good pass
check r-good c-red pass by=red-team
fresh-control r-good 0.94 public=0.95 by=harness
scenario sc-good-1 r-good ok by=runner
scenario sc-good-2 r-good failed by=harness
attempt a-r-good r-good
attempt-result a-r-good succeeded by=runner

run r-twin p1
metric r-twin P 0.95 source=runner
metric r-twin R 0.9 source=calculator
metric r-twin E 1 source=runner
metric r-twin D 1 source=runner
metric r-twin K pass source=harness
metric r-twin C 120 source=calculator
scorer-result s1 r-twin pass
check r-twin c-red pass by=red-team
attempt a-r-twin r-twin
attempt-result a-r-twin unsuccessful by=runner

run r-bare p1
scorer-result s1 r-bare pass
attempt a-r-bare r-bare

run r-low p1
metric r-low P 0.5 source=runner
metric r-low R 0.5 source=calculator
metric r-low E 1 source=runner
metric r-low D 1 source=runner
metric r-low K fail source=harness
metric r-low C 10 source=calculator
scorer-result s1 r-low pass
check r-low c-red fail by=red-team
fresh-control r-low 0.5 public=0.9 by=harness
scenario sc-low-1 r-low ok by=runner
attempt a-r-low r-low
attempt-result a-r-low unsuccessful by=runner
'''
RUNS = ("r-good", "r-twin", "r-bare", "r-low")

#: Conclusions the evaluated party must never be able to add...
GOOD = {
    "verified": "verified(R)", "final_value": "final_value(R, M, V)", "pilot_pass": "pilot_pass(R)",
    "shadow_signal": "shadow_signal(R, X)", "threshold_met": "threshold_met(R, M)",
    "criterion_passed": "criterion_passed(R, C)", "k_satisfied": "k_satisfied(R)",
    "explained": "explained(R, F, P)", "cost_comparable": "cost_comparable(A, B)", "cheaper": "cheaper(A, B)",
    "derived_e": "derived_e(R, X)", "outcome_recorded": "outcome_recorded(A)",
}
#: ...and the ones it must never be able to remove.
BAD = {
    "critical": "critical(R, C)", "rejects": "rejects(R, C)", "threshold_failed": "threshold_failed(R, M)",
    "criterion_unpassed": "criterion_unpassed(R, C)", "trust_breach": "trust_breach(R, C)",
    "material_shortfall": "material_shortfall(R, F, P, X)", "attempt_concealed": "attempt_concealed(A, R, H)",
    "value_conflict": "value_conflict(R, M)",
}


def _derive(text):
    run = RulebookRun.run(load_text(text, "w.facts"), RULEBOOKS["pilot"])
    return {name: set(run.program.ask(goal)) for name, goal in {**GOOD, **BAD}.items()}


@pytest.fixture(scope="module")
def before():
    got = _derive(BASE)
    # the base world is not vacuous: one run passes, the others fail for their own reasons
    assert got["pilot_pass"] == {("r-good",), ("r-twin",)}
    assert ("r-bare",) not in got["verified"] and ("r-low",) in got["verified"]
    assert ("r-low", "7.fresh") in got["critical"]
    assert got["cheaper"] == {("r-good", "r-twin")}
    # E is calculated from the trusted scenarios of r-good (2 of 2) and r-low (1 of 1); a-r-bare's
    # outcome is not in the record, so it is concealed
    assert got["derived_e"] == {("r-good", 1), ("r-low", 1)}
    assert got["attempt_concealed"] == {("a-r-bare", "r-bare", "no-outcome")}
    return got


def _policy_statements():
    """Every way the evaluated party can appear in a world, one template per case ({r}: the run)."""
    out = []
    for m in METRICS:
        value = {"K": "pass", "C": "0"}.get(m, "1")
        for src in ("policy", "self-report", "scorer"):
            out.append(f"metric {{r}} {m} {value} source={src}")
    for kind in EVENTS:
        out.append(f"event {{r}} {kind} by=policy")
    out.append("event {r} secret-leak by=policy confirmed")
    for crit in ("c-red", "c-unit"):
        for outcome in ("pass", "fail"):
            out.append(f"check {{r}} {crit} {outcome} by=policy")
    for outcome in ("ok", "failed", "technical-failure"):  # scenarios: the source measurements of E
        out.append(f"scenario sp-{outcome}-{{r}} {{r}} {outcome} by=policy")
    for outcome in ("succeeded", "unsuccessful"):  # how an attempt ended, in the policy's own word
        out.append(f"attempt-result a-{{r}} {outcome} by=policy")
    for kind in ("delete-attempt", "conceal-attempt"):
        out.append(f"event {{r}} {kind} by=policy attempt=a-{{r}}")
    out.append("fresh-control {r} 1 public=0.5 by=policy")
    out.append('fresh-control {r} 0.5 public=0.9 by=policy explained="the fresh set is harder" explained-by=policy')
    return out


@pytest.mark.parametrize("template", _policy_statements())
def test_a_policy_statement_never_helps(before, template):
    text = BASE + "".join(template.format(r=r) + "\n" for r in RUNS)
    after = _derive(text)
    for name in GOOD:
        gained = after[name] - before[name]
        assert not gained, f"{template!r} established {name}: {sorted(gained)}"
    for name in BAD:
        lost = before[name] - after[name]
        assert not lost, f"{template!r} removed {name}: {sorted(lost)}"


def test_the_policy_alone_establishes_nothing():
    """A run whose every fact comes from the evaluated party: no final value, no verified, no pass."""
    text = BASE + "".join(t.format(r="r-bare") + "\n" for t in _policy_statements()
                          if not t.startswith("event"))
    text += "event r-bare create-artefact by=policy\nevent r-bare assign-verified by=policy\n"
    run = RulebookRun.run(load_text(text, "w.facts"), RULEBOOKS["pilot"])
    ask = run.program.ask
    assert ask("final_value('r-bare', M, V)") == []
    assert ask("verified('r-bare')") == []
    assert ask("pilot_pass('r-bare')") == []
    assert ask("shadow_signal('r-bare', X)") == []
    assert ask("criterion_passed('r-bare', 'c-red')") == []
    # what the policy wrote is kept, as diagnostics and as breaches
    assert len(ask("diagnostic('r-bare', M, V, S)")) == 18
    assert set(ask("trust_breach('r-bare', C)")) == {("4.log",), ("4.verified",)}


def test_an_explanation_by_the_policy_does_not_explain():
    text = BASE.replace("fresh-control r-low 0.5 public=0.9 by=harness",
                        'fresh-control r-low 0.5 public=0.9 by=harness explained="harder" explained-by=policy')
    run = RulebookRun.run(load_text(text, "w.facts"), RULEBOOKS["pilot"])
    assert run.program.ask("critical('r-low', '7.fresh')") == [()]
    text = BASE.replace("fresh-control r-low 0.5 public=0.9 by=harness",
                        'fresh-control r-low 0.5 public=0.9 by=harness explained="harder" explained-by=human')
    run = RulebookRun.run(load_text(text, "w.facts"), RULEBOOKS["pilot"])
    assert run.program.ask("critical('r-low', '7.fresh')") == []


def test_the_formula_is_not_a_fact(before):
    """The shadow signal's formula lives in the rules (6.shadow); the policy changing it is a breach
    and changes no value."""
    text = BASE + "event r-good change-formula by=policy\n"
    after = _derive(text)
    assert after["shadow_signal"] == before["shadow_signal"]
    assert ("r-good", "4.formula") in after["trust_breach"]
    assert ("r-good",) not in after["verified"] and ("r-good",) not in after["pilot_pass"]


@pytest.mark.parametrize("line, code", [
    ("verified r-good", "E140"),
    ("pilot-pass r-good", "E140"),
    ("pilot_pass r-good", "E140"),
    ("final-value r-good P 1", "E140"),
    ("final_value r-good P 1", "E140"),
    ("formula p1 product", "E140"),
    ("shadow-signal r-good 1", "E140"),
    ("scorer-pass s1 r-good", "E140"),
    ("threshold-met r-good P", "E140"),
    ("critical r-good 7.final", "E140"),
    ("metric r-good P 1 source=policy verified=yes", "E140"),
    ("metric r-good P 1 source=policy final-value=1", "E140"),
    ("run r-new p1 verified=yes", "E140"),
    ("check r-good c-red pass by=policy pilot-pass=yes", "E140"),
    ("metric r-good P 1 source=policy verified", "E103"),
    ("metric r-good P 1 source=verified", "E104"),
    ("metric r-good P 1 source=trusted", "E104"),
    ("event r-good assign-verified by=policy verified", "E102"),
    ("metric r-good P 1", "E106"),
])
def test_conclusions_cannot_be_stated(line, code):
    with pytest.raises(LoadError) as e:
        load_text(BASE + line + "\n", "w.facts")
    assert [d.code for d in e.value.diagnostics] == [code], e.value.render()
