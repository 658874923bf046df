"""The command line and the API: JSON shapes, exit codes, isolation of worlds."""
import json

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.grammar import QueryError
from provlog.queries.cli import main

WORLD = '''lab acme "Acme AI"
org evalco "Eval Co" type=nonprofit evaluated=yes
org other "Other" type=vc
source s1 "https://evalco.example/about" publisher=evalco status=confirmed tier=1
source s2 "https://news.example/x" publisher=acme status=unaudited tier=3
signal f1 evalco F against cap 2 rule=F.3
cite f1 s1 "labs pay us per engagement"
signal g1 evalco G for floor 3 rule=G.2
cite g1 s2
signal m1 evalco M for floor 4 rule=M.1
cite m1 s1 "all code and tasks are open"
resolution evalco F value=2 rule=F.3
assessment evalco F value=2
assessment evalco role=referee
expect evalco F = 2 rule=F.3
expect evalco G = - policy=standard
expect evalco G = 3 policy=leads-included
expect evalco band=clear
'''


@pytest.fixture(scope="module")
def world_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("w") / "w.facts"
    p.write_text(WORLD)
    return str(p)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_value_json_shape(world_file):
    r = run("value", world_file, "evalco", "F", "--json")
    assert r.exit_code == 0, r.output
    v = json.loads(r.output)
    assert {k: v[k] for k in ("org", "dim", "policy", "value", "signal", "rule", "conflict")} == {
        "org": "evalco", "dim": "F", "policy": "standard", "value": 2, "signal": "f1", "rule": "F.3",
        "conflict": False}
    assert set(v["fingerprint"]) == {"facts", "rules"}


def test_unevidenced_value_is_null(world_file):
    # g1 cites only an unaudited source: not admissible under standard (C14 / policies).
    v = json.loads(run("value", world_file, "evalco", "G", "--json").output)
    assert v["value"] is None and v["signal"] is None and v["rule"] is None


def test_card_json_shape(world_file):
    c = json.loads(run("card", world_file, "evalco", "--json").output)
    assert set(c) >= {"org", "policy", "values", "band", "role", "conflicts", "clamps"}
    # m1: floor 4 with a span and a tier-1 confirmed source: C16 holds; no clamp.
    assert c["values"] == {"F": 2, "G": None, "P": None, "A": None, "S": None, "R": None, "M": 4, "X": None}
    assert c["band"] == "clear" and c["role"] == "referee"


@pytest.mark.parametrize("args", [
    ("value", "nobody", "F"), ("value", "evalco", "Q"), ("value", "evalco", "F", "--policy", "loose"),
    ("card", "nobody"), ("card", "evalco", "--preset", "none-such"), ("hops", "nobody"),
])
def test_unknown_names_exit_2_with_one_line(world_file, args):
    r = run(args[0], world_file, *args[1:])
    assert r.exit_code == 2
    assert len(r.output.strip().splitlines()) == 1 and r.output.startswith("provlog: unknown")


def test_test_and_verify(world_file):
    r = run("test", world_file)
    assert r.exit_code == 0 and "4 passed, 0 failed" in r.output
    r = run("verify", world_file)
    assert r.exit_code == 0, r.output


def test_an_expect_goal_that_cannot_be_asked_fails_with_its_reason(tmp_path):
    p = tmp_path / "w.facts"
    p.write_text('org o1 "O1" type=nonprofit\n'
                 'expect holds "nosuchrel(A)"\n'            # no such relation
                 'expect fails "value(A, B)"\n'             # value has six arguments
                 'expect holds "x(A)" rulebook=nosuch\n'    # no such rulebook
                 "expect fails \"value('o1', 'F', P, X, S, R)\"\n")  # unevidenced: no value row
    r = run("test", p)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "no relation nosuchrel/1" in r.output and "value takes 6 arguments, not 2" in r.output
    assert "unknown rulebook 'nosuch'" in r.output and "1 passed, 3 failed" in r.output


def test_verify_fails_on_a_wrong_stored_value(tmp_path):
    p = tmp_path / "w.facts"
    p.write_text(WORLD.replace("assessment evalco F value=2", "assessment evalco F value=3"))
    r = run("verify", p)
    assert r.exit_code == 1 and "stored 3, derived 2" in r.output


def test_query(world_file):
    r = run("query", world_file, "value(O, 'M', P, X, S, R) & (X > 3)", "--json")
    ans = json.loads(r.output)["answers"]
    assert {a["P"] for a in ans} == {"leads-included", "standard", "verified-spans", "primary-only"}
    # against-interest drops m1's self-published source (it is a for-signal)
    assert run("query", world_file, "__import__('os')").exit_code == 2


def test_worlds_side_by_side_do_not_leak():
    a = World.from_text(WORLD, name="a.facts")
    b = World.from_text(WORLD.replace("cap 2 rule=F.3", "cap 1 rule=F.3").replace("value=2", "value=1"), name="b.facts")
    assert a.value("evalco", "F").value == 2
    assert b.value("evalco", "F").value == 1
    assert a.query("signal_rule('f1', R)") == [{"R": "F.3"}]
    assert a.value("evalco", "F").value == 2  # still a's own program after b was asked


def test_load_error_is_reported_not_raised(tmp_path):
    p = tmp_path / "bad.facts"
    p.write_text('lab acme "Acme"\nstake acme nobody 20%\n')
    r = run("card", p, "acme")
    assert r.exit_code == 1
    assert "bad.facts:2:12:" in r.output and "^" in r.output and "Traceback" not in r.output


def test_why_and_why_not_take_a_goal_of_any_rulebook(world_file):
    r = run("why", world_file, "--goal", "effective('f1', 'standard', K, B)")
    assert r.exit_code == 0 and "f1 is admissible under standard with effective cap 2" in r.output
    r = run("why-not", world_file, "--goal", "admissible('g1', 'standard')")
    assert r.exit_code == 0 and "g1 cites no confirmed source" in r.output
    r = run("why", world_file)
    assert r.exit_code == 2 and "needs ORG DIM, or --goal" in r.output


# --- a World is given its rulebooks (issue 13) ----------------------------------------------------------

def _toy_rulebook():
    """A rulebook of one rule, built here as logic/advice builds its own: named(L) for every lab."""
    from provlog.logic.edb import Origins  # noqa: F401  (the rows function records each row's fact in it)
    from provlog.logic.rulebooks import Rulebook, collector
    from provlog.logic.rules import RuleSet

    rules = RuleSet("toy")
    rules.add("def", "named(L) <= lab_name(L, N)", "{L} is named {N}")

    def rows(facts, origins):
        out, add = collector({"lab_name": 2}, origins)
        for f in facts.of("lab"):
            add("lab_name", f, f["id"], f["name"])
        return out

    return Rulebook("toy", rules, {"lab_name": 2}, rows, summary="a test's own rulebook")


def test_a_world_answers_the_rulebooks_it_is_given():
    from provlog.logic.program import CORE
    from provlog.queries.api import UnknownName

    text = 'lab acme "Acme AI"\norg evalco "Eval Co" type=nonprofit\n'
    w = World.from_text(text, "w.facts", rulebooks={"toy": _toy_rulebook()})
    assert w.query("named(L)", "toy") == [{"L": "acme"}]
    assert w.holds("lab(L)")  # the independence RULES stay the world's own
    with pytest.raises(QueryError, match="named takes 1 argument, not 2"):
        w.query("named(L, N)", "toy")
    # near miss: a world given only its defaults has no toy rulebook, and this one has no advice
    with pytest.raises(UnknownName, match="unknown rulebook 'toy'; rulebooks: independence, advice, pilot"):
        World.from_text(text, "w.facts").query("named(L)", "toy")
    with pytest.raises(UnknownName, match="unknown rulebook 'advice'; rulebooks: independence, toy"):
        w.query("finding(R, A, C, K)", "advice")
    # its fingerprint covers the rules it answers with: the RULES' and the toy's, not advice's
    default = World.from_text(text, "w.facts").fingerprint()
    assert w.fingerprint()["facts"] == default["facts"] and w.fingerprint()["rules"] != default["rules"]
    assert World.from_text(text, "w.facts", rulebooks={"independence": CORE}).fingerprint()["rules"] != default["rules"]
