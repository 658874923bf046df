"""RULES sections 10-11 as rules (logic/population.py): each org's list on the site, who is ranked, who
is counted, and each candidate's inclusion at the world's as-of date.

The fixture worlds under tests/worlds/population/ hold the cases and their near misses with the values
derived by hand in their comments (`expect holds/fails` lines); this file runs them and checks what they
cannot say: that the site, the CLI's counts and `candidates` read the derived relations, and the
24-month window on the day before and the day it closes.
"""
from __future__ import annotations

import functools
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.logic.population import counted_orgs
from provlog.logic.program import RULES
from provlog.queries.candidates import candidates, counts
from provlog.queries.cli import main

POP = Path(__file__).parent / "worlds" / "population"
EXAMPLE = Path(__file__).parent.parent / "facts" / "worlds" / "example"


@functools.lru_cache(maxsize=None)
def world(name, as_of=None):
    return World.load(POP / f"{name}.facts", as_of=as_of)


@pytest.mark.parametrize("name", ["placement", "candidates"])
def test_the_hand_derived_expects_hold(name):
    got = world(name).check_expects()
    assert got and [r.text for r in got if not r.ok] == []


def test_each_relation_is_a_rule_with_its_clause():
    clauses = {r.head_name: {x.clause for x in RULES.defining(r.head_name)} for r in RULES.rules}
    assert clauses["ranked"] == {"10"} and clauses["counted"] == {"11"}
    assert clauses["placed"] == {"10", "11"} and clauses["candidate_result"] == {"11"}


def test_placement_by_the_owner_and_by_lab_money():
    w = world("placement")
    # a benchmark owned by an academic group -> referees; near miss: held 50% only -> its own type, private
    assert (w.placement("pl-bench"), w.placement("pl-bench-half")) == ("referees", "commercial")
    # a benchmark consortium funded by a member lab -> commercial; near miss: no lab money -> unclassified
    assert (w.placement("pl-cons"), w.placement("pl-cons-free")) == ("commercial", "unclassified")
    # an entrant is never ranked; near miss: the same org in scope with engagements is
    assert (w.placement("pl-entrant"), w.ranked("pl-entrant")) == ("watchlist", False)
    assert (w.placement("pl-active"), w.ranked("pl-active")) == ("referees", True)


def test_out_of_scope_is_in_no_count():
    w = world("placement")
    assert "pl-cap" not in w.counted() and "pl-safe" in w.counted()
    assert len(w.counted()) == len(w.orgs) - 1 == 14
    r = CliRunner().invoke(main, ["--no-store", "check", str(POP / "placement.facts")])
    assert r.exit_code == 0 and "15 orgs" not in r.output
    assert r.output.startswith("ok: 51 statements in 1 file(s), 14 orgs in scope (1 out of scope, not counted)")
    # near miss: the same world with the leaderboard in scope counts all 15
    text = (POP / "placement.facts").read_text(encoding="utf-8").replace(
        "status=out-of-scope", "status=in-scope").replace('expect fails "counted(', '#')
    assert len(World.from_text(text).counted()) == 15


def test_the_site_lists_what_the_rules_place():
    pytest.importorskip("flask")
    from provlog.queries.web import data

    w = world("placement")
    placed = data.placed(w, "standard")
    shown = {r["org"]: s["group"] for s in placed["sections"] for r in s["rows"]}
    assert shown == {o: w.placement(o) for o in w.orgs}
    ranked = {r["org"] for s in placed["sections"] if s["ranked"] for r in s["rows"]}
    assert ranked == {o for o in w.orgs if w.ranked(o)}
    # the example world's lists are what they were (section 10: tallyweir academic, keelstone lab-funded)
    ex = World.load(EXAMPLE)
    assert {o: ex.placement(o) for o in ex.orgs} == {
        "quorvell": "referees", "tallyweir": "referees", "norland-oma": "government", "bastrel": "commercial",
        "veridane-redteam": "commercial", "keelstone": "commercial", "lodevane": "watchlist",
        "plumbrook": "out-of-scope"}


@pytest.mark.parametrize("as_of, result", [("2026-08-31", "included"), ("2026-09-01", "excluded")])
def test_the_24_month_window_the_day_before_and_the_day_it_closes(as_of, result):
    # cd-edge's system card is dated 2024-09-01: within the last 24 months through 2026-08-31
    w = world("candidates", as_of)
    assert {c["id"]: c["derived"] for c in candidates(w)}["cd-edge"] == result
    # cd-next (2024-09-02) is within them on both days
    assert {c["id"]: c["derived"] for c in candidates(w)}["cd-next"] == "included"


def test_candidate_counts_leave_out_of_scope_out_and_the_proof_names_clause_11():
    w = world("candidates")
    assert counts(w) == {"checked": 6, "included": 4, "excluded": 2, "out_of_scope": 1}
    text = w.prove("candidate_result('cd-next', R)")
    assert text.startswith("#1 11: candidate cd-next is cited by a system card")
    assert "dated 2024-09-02" in text and "(until 2026-09-02)" in text


def test_a_stored_world_answers_the_same(tmp_path):
    # the relations are kept in the store like every derived one: a world read from it places the same
    for name in ("placement", "candidates"):
        live = world(name)
        store = tmp_path / f"{name}.sqlite"
        World.load(POP / f"{name}.facts", store=store).derivation  # derived, and stored
        stored = World.load(POP / f"{name}.facts", store=store)
        assert type(stored.derivation.program).__name__ != "Program"  # read from the store, not derived
        assert {o: stored.placement(o) for o in stored.orgs} == {o: live.placement(o) for o in live.orgs}
        assert stored.counted() == live.counted() and [o for o in stored.orgs if stored.ranked(o)] == [
            o for o in live.orgs if live.ranked(o)]
        assert candidates(stored) == candidates(live)


@pytest.mark.parametrize("path", [POP / "placement.facts", POP / "candidates.facts", EXAMPLE])
def test_every_org_is_in_exactly_one_list(path):
    w = World.load(path)
    rows = sorted((a["O"], a["G"]) for a in w.query("placed(O, G)"))
    assert [o for o, _ in rows] == sorted(w.orgs)


def test_check_counts_without_deriving_as_rule_11_counts():
    """``check`` counts the orgs in scope from the statements (World.in_scope, no derivation): the same
    orgs as rule 11 ``counted`` derives, on every population fixture and the example world."""
    for w in [World.load(str(p)) for p in sorted(POP.glob("*.facts"))] + [World.load(str(EXAMPLE))]:
        assert w.in_scope() == w.counted()
        assert sorted(counted_orgs(w.facts)) == sorted(w.counted())  # from the statements (a FactSet) alone
