"""`provlog check` warnings (issue 15): a signal that cites no source (W100), and a
quoted constant of an `expect holds|fails` goal that names nothing the world, the
fact language or the rules know (W110). Warnings are printed after `ok`; the exit
code stays 0."""
from __future__ import annotations

from click.testing import CliRunner

from provlog import World
from provlog.queries.cli import main

BASE = """\
lab acme "Acme AI"
org evalco "Eval Co" type=nonprofit
entity p "Publisher" kind=public
source s0 "https://example.org/report" publisher=p status=confirmed
"""


def warned(text):
    return [(d.line, d.code) for d in World.from_text(BASE + text, "w.facts").warnings()]


def test_a_signal_with_no_citation_is_warned_and_a_cited_one_is_not():
    assert warned("signal s1 evalco G against cap 2 rule=G.4\n") == [(5, "W100")]
    assert warned("signal s1 evalco G against cap 2 rule=G.4\ncite s1 s0\n") == []
    assert warned("signal s1 evalco G against cap 2 rule=G.4 src=s0\n") == []


def test_a_goal_constant_that_names_nothing_is_warned_with_the_nearest_spelling():
    assert warned("expect fails \"lab_owner('evalcoo', L)\"\n") == [(5, "W110")]
    (d,) = World.from_text(BASE + "expect fails \"lab_owner('evalcoo', L)\"\n", "w.facts").warnings()
    assert "'evalcoo'" in d.message and "did you mean 'evalco'?" in d.message


def test_a_rulebook_goal_knows_the_constants_of_the_rulebooks_tables():
    """advice routes each category to an axis and an action from its tables, not from a fact or a rule."""
    assert warned("expect holds \"category('expired-figure', 'compliance', 'automatic-block')\" rulebook=advice\n"
                  "expect holds \"category('expired-figure', 'complianse', 'automatic-block')\" rulebook=advice\n"
                  ) == [(6, "W110")]


def test_goal_constants_the_world_language_or_rules_know_are_not_warned():
    # an id, a dimension and a policy, an enum value of a statement, a constant of a rule ('all', in vcite)
    assert warned("expect fails \"lab_owner('evalco', L)\"\n"
                  "expect fails \"value('evalco', 'F', 'standard', X, S, R) & (X < 0)\"\n"
                  "expect fails \"vcite(S, 'all', 's0', Sp, 'confirmed', T, 'p')\"\n") == []


def test_check_prints_warnings_after_ok_and_exits_0(tmp_path):
    (tmp_path / "w.facts").write_text(BASE + "signal s1 evalco G against cap 2 rule=G.4\n"
                                      "expect holds \"lab_owner('acmee', L)\"\n")
    r = CliRunner().invoke(main, ["check", str(tmp_path / "w.facts")])
    assert r.exit_code == 0, r.output
    first, *rest = r.output.splitlines()
    assert first.startswith("ok: ")
    assert len(rest) == 2 and rest[0].endswith("[W100]") and rest[1].endswith("[W110]")
    assert ":5:1: warning: signal s1 cites no source" in rest[0] and "'acmee'" in rest[1]
