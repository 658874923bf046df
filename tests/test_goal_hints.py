"""Goals that help (issue 15): a relation the rulebook lacks is refused with what was meant or the
rulebook that has it; a string constant nothing in the world or the rules has gets a note on stderr."""
from __future__ import annotations

from click.testing import CliRunner

from provlog import World
from provlog.grammar import QueryError
from provlog.queries.cli import main
from provlog.queries.hints import unknown_relation, uses

import pytest

# F.4b: acme-foundation owns 30% of the lab acme, so it is a lab owner; nobody else is.
WORLD = """
lab acme "Acme AI"
entity acme-foundation "Acme Foundation" kind=foundation
stake acme-foundation acme 30%
org evalco "Eval Co" type=nonprofit
"""


@pytest.fixture(scope="module")
def world_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("hints")
    (d / "world.facts").write_text(WORLD, encoding="utf-8")
    return d


def test_uses_reads_atoms_and_functions_not_strings():
    assert uses("value(O, 'F(x)', P, X, S, R) & ~lab_owner(O, L) & effective_stake['a', T] == E") == [
        ("value", 6), ("lab_owner", 2), ("effective_stake", 2)]


def test_a_known_goal_passes():
    assert unknown_relation("lab_owner(X, L) & effective_stake['a', T] == E") is None
    assert unknown_relation("finding(R, A, C, K)", "advice") is None


def test_a_misspelt_relation_gets_did_you_mean():
    msg = unknown_relation("lab_ownr(X, L)")
    assert "no relation lab_ownr/2" in msg and "did you mean lab_owner/2" in msg and "provlog relations" in msg


def test_a_relation_of_another_rulebook_names_it():
    assert unknown_relation("finding(R, A, C, K)") == "finding/4 is in rulebook advice: add --rulebook advice"
    assert "pilot_pass/1 is in rulebook pilot: add --rulebook pilot" in unknown_relation("pilot_pass(R)", "advice")
    assert "leave out --rulebook" in unknown_relation("lab_owner(X, L)", "pilot")


def test_a_wrong_arity_says_the_right_one():
    assert "lab_owner takes 2 arguments, not 1" in unknown_relation("lab_owner(X)")


def test_the_api_refuses_before_asking(world_dir):
    w = World.load(world_dir)
    assert w.query("lab_owner(X, L)") == [{"X": "acme-foundation", "L": "acme"}]
    for ask in (w.query, w.holds, lambda g: w.prove(g), lambda g: w.refute(g)):
        with pytest.raises(QueryError, match="did you mean lab_owner/2"):
            ask("lab_ownr(X, L)")


def test_cli_unknown_relation_exits_2(world_dir):
    out = CliRunner().invoke(main, ["query", str(world_dir), "finding(R, A, C, K)"])
    assert out.exit_code == 2 and "add --rulebook advice" in out.stderr


def test_cli_notes_a_constant_nothing_has(world_dir):
    """'acme-fundation' is a typo: the answer is "no", and stderr says why it may be."""
    out = CliRunner().invoke(main, ["query", str(world_dir), "lab_owner('acme-fundation', L)"])
    assert out.exit_code == 0 and out.stdout.strip() == "no"
    assert "'acme-fundation' names no id" in out.stderr and "did you mean 'acme-foundation'" in out.stderr
    # its near miss: the right id answers, with no note
    out = CliRunner().invoke(main, ["query", str(world_dir), "lab_owner('acme-foundation', L)"])
    assert out.stdout.strip() == "L=acme" and out.stderr == ""


def test_constants_of_the_rules_are_known(world_dir):
    """'standard' and 'cap' are written by the rules, not the facts: no note for them."""
    w = World.load(world_dir)
    assert w.goal_notes("value(O, 'F', 'standard', X, S, R) & effective(S, 'standard', 'cap', B)") == []
    assert len(w.goal_notes("value(O, 'F', 'standrd', X, S, R)")) == 1
