"""Issue 25: sentences of the RULES provlog now reads (G.7, P.8, F.8, F.9, section 9's
mis-dimensioned signals, F.11, A.3), on the fixture worlds tests/worlds/core/floor4_g7_p8.facts,
floor4_f8.facts, floor4_f9.facts and informational.facts.

Each world's `expect` lines check values and deciding rules (derived by hand in its comments); this
file checks what they cannot say: which clauses held a bound, that a held floor raises no conflict,
what `why`, `why-not` and the card say about each hold and each informational signal, the as-of date
F.8 measures at, the located errors of `policy ... amended=`, and that an edit which makes a
signal mis-dimensioned re-derives like a whole derivation.
"""
import functools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.facts import LoadError, load_text
from provlog.logic.clauses import clause_dims
from provlog.queries.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "tests" / "worlds" / "core"
G7, F8, F9, INFO = (str(CORE / f"{n}.facts") for n in ("floor4_g7_p8", "floor4_f8", "floor4_f9", "informational"))


@functools.lru_cache(maxsize=None)
def world(path, as_of=None):
    return World.load(path, as_of=as_of)


def held(path, org, dim, policy="standard", as_of=None):
    """{signal: (stated, effective, clauses)} of the clamps on org/dim."""
    return {c.signal: (c.stated, c.effective, set(c.clauses))
            for c in world(path, as_of).value(org, dim, policy).clamps}


def run(*args):
    r = CliRunner().invoke(main, ["--no-store", *args])
    assert r.exit_code in (0, 1), r.output
    return r.output


# -------------------------------------------------------------------------------------------- G.7, P.8
def test_g7_holds_a_four_without_a_confirmed_tier1_span():
    assert held(G7, "g7-ok", "G") == {}
    assert held(G7, "g7-t1-nospan", "G") == {"g7-t1-nospan-s": (4, 3, {"G.7"})}  # C16 passes on tier 2
    assert held(G7, "g7-t2", "G") == {"g7-t2-s": (4, 3, {"G.7"})}
    assert held(G7, "g7-unaud", "G") == {"g7-unaud-s": (4, 3, {"C14", "G.7"})}
    assert held(G7, "g7-own", "G") == {}
    assert held(G7, "g7-own", "G", "against-interest") == {"g7-own-s": (4, 3, {"C16", "G.7"})}
    # any floor 4 on G, whatever rule it names; a floor 3 is never tested
    assert held(G7, "g7-other-rule", "G") == {"g7-other-rule-s": (4, 3, {"G.7"})}
    assert not world(G7).value("g7-t2", "G").conflict


def test_p8_holds_a_four_on_p_and_not_on_m():
    assert held(G7, "p8-ok", "P") == {}
    assert held(G7, "p8-t2", "P") == {"p8-t2-s": (4, 3, {"P.8"})}
    assert held(G7, "p8-t2", "M") == {}


def test_why_and_why_not_name_g7():
    text = run("why", G7, "g7-t1-nospan", "G")
    assert "FIRED g7-t1-nospan-s (G.7): floor 4 -> effective 3 (held by G.7)" in text
    assert "held by G.7:" in text and "tier-1 evidence of an independent board and of external review" in text
    doc = json.loads(run("why-not", G7, "g7-t1-nospan", "G", "4", "--json"))
    (way,) = doc["ways"]
    assert way["blocked_by"]["what"] == "clamp" and way["blocked_by"]["clause"] == "G.7"
    assert any("quotes no span from a confirmed tier-1 source" in x for x in way["lift"]), way["lift"]
    graph = json.loads(run("why", G7, "g7-t1-nospan", "G", "--json"))
    assert [n for n in graph["nodes"] if n.get("kind") == "clamp" and n["rule"] == "G.7"]


# ------------------------------------------------------------------------------------------------- F.8
def test_f8_holds_by_age_at_the_as_of_date():
    assert held(F8, "f8-exact", "F") == {}  # exactly 24 months old
    assert held(F8, "f8-day", "F") == {"f8-day-f": (4, 3, {"F.8"})}  # one day younger
    assert held(F8, "f8-month", "F") == {"f8-month-f": (4, 3, {"F.8"})}
    assert held(F8, "f8-undated", "F") == {"f8-undated-f": (4, 3, {"F.8"})}
    assert held(F8, "f8-young", "X") == {} and held(F8, "f8-young-three", "F") == {}
    assert not world(F8).value("f8-day", "F").conflict


def test_f8_reads_the_as_of_date_given():
    # since=2026-03 may mean 2026-03-31: 24 months old on 2028-03-31
    assert world(F8, "2028-03-30").value("f8-young", "F").value == 3
    assert world(F8, "2028-03-31").value("f8-young", "F").value == 4
    # the 2026-10-01 amendment is made by then: two amendments seven months apart
    assert world(F8, "2026-10-01").value("f8-later", "F").value == 3
    assert held(F8, "f8-later", "F", as_of="2026-10-01") == {"f8-later-f": (4, 3, {"F.8"})}


def test_f8_holds_for_amendments_within_24_months():
    for org, clamped in (("f8-apart", False), ("f8-close", True), ("f8-apart24", False), ("f8-months", True),
                         ("f8-months25", False), ("f8-three", True), ("f8-once", False), ("f8-count", True),
                         ("f8-count-one", False)):
        assert bool(held(F8, org, "F")) == clamped, org


def test_why_says_how_old_the_rule_is_and_which_amendments():
    text = run("why", F8, "f8-day", "F")
    assert "held by F.8:" in text
    assert "f8-day's no-lab-money rule, adopted 2024-09-16, is younger than 24 months at the as-of date " \
           "2026-09-15 (24 months old on 2026-09-16)" in text
    assert "policy f8-day no-lab-money since=2024-09-16" in text  # the statement, with its file:line
    text = run("why", F8, "f8-close", "F")
    assert "f8-close's no-lab-money rule was amended 2022-01-10 and 2023-12-10, twice within 24 months" in text
    doc = json.loads(run("why-not", F8, "f8-count", "F", "4", "--json"))
    (way,) = doc["ways"]
    assert way["blocked_by"]["clause"] == "F.8"
    assert any("amended 2 times on dates not stated" in x for x in way["lift"]), way["lift"]


@pytest.mark.parametrize("attrs, col, fragment", [
    ("amended=2,2025-01", 31, "not a mix"),  # each at the value
    ("since=2025-01 amended=2024-06", 45, "amendment 2024-06 precedes since=2025-01"),
    ("amended=2025", 31, "could be a year or a number of amendments"),
    ("amended=2025-13", 31, "month out of range"),
    ("amended=soon", 31, "expected the number of amendments"),
    ("since=0000-05", 29, "not on the calendar"),
    ("amended=0000-05", 31, "not on the calendar"),
])
def test_a_bad_amended_is_a_located_error(attrs, col, fragment):
    text = f'org e "E" type=nonprofit\npolicy e no-lab-money {attrs}\n'
    with pytest.raises(LoadError) as e:
        load_text(text, "w.facts")
    (d,) = e.value.diagnostics
    assert (d.line, d.col, d.code) == (2, col, "E104") and fragment in d.message, str(d)


def test_amended_reads_a_count_or_dates():
    facts = load_text('org e "E" type=nonprofit\npolicy e no-lab-money since=2020 amended=2\n'
                      'policy e recusal since=2020-02 amended=2021-03,2022-04-05\n', "w.facts")
    assert [f["amended"] for f in facts.of("policy")] == [(2,), ("2021-03", "2022-04-05")]


# ------------------------------------------------------------------------------------------------- F.9
def test_f9_holds_the_public_four_with_material_lab_inkind():
    v = world(F9).value("f9-inkind", "F")
    assert (v.value, v.rule, v.conflict, v.cap, v.floor) == (3, "F.2", False, 3, 3)
    assert held(F9, "f9-inkind", "F") == {"f9-inkind-f": (4, 3, {"F.9"})}
    assert held(F9, "f9-clean", "F") == {} and world(F9).value("f9-clean", "F").value == 4
    # a cap 2 is below the held floor 3: the conflict stays
    v = world(F9).value("f9-large", "F")
    assert (v.value, v.conflict, v.cap, v.floor) == (2, True, 2, 3)
    # F.12's floor is not F.9's: held by nothing, in conflict with the cap
    v = world(F9).value("f9-f12", "F")
    assert (v.value, v.conflict, v.clamps) == (3, True, ())


def test_why_names_the_inkind_f9_reads():
    text = run("why", F9, "f9-inkind", "F")
    assert "held by F.9:" in text
    assert "F.2/f9-inkind/1 records material lab in-kind of f9-inkind under F.2 (cap 3)" in text


# ------------------------------------------------------------------ section 9: mis-dimensioned signals
NOTE = ("9: md-methods-f10 names F.10, a clause of F, but sits on M: by section 9 it is informational on M "
        "(bound null); record it on F as a new signal")


def test_a_misdimensioned_signal_bounds_nothing_and_conflicts_with_nothing():
    v = world(INFO).value("md-methods", "M")
    assert (v.value, v.rule, v.conflict, v.cap) == (3, "M.1", False, None)
    (n,) = v.notes
    assert (n.signal, n.dim, n.kind, n.stated, n.clause, n.note) == ("md-methods-f10", "M", "cap", 2, "9", NOTE)
    # under every policy, the same note
    for policy in ("leads-included", "verified-spans", "primary-only"):
        assert [x.note for x in world(INFO).value("md-methods", "M", policy).notes] == [NOTE]
    assert world(INFO).value("md-funding", "F").notes == ()


def test_a_new_derivation_of_the_same_world_object_reads_its_own_notes():
    # World.value keeps each signal's notes per derivation (they do not depend on the policy); a World
    # given another derivation (queries/diff.py does) must not answer with the first one's notes
    text = Path(INFO).read_text()
    w = World.from_text(text, "w.facts")
    assert [(n.stated, n.note) for n in w.value("md-methods", "M").notes] == [(2, NOTE)]

    def rederived(new_text):
        other = World.from_text(new_text, "w.facts")
        w.facts, w._derivation = other.facts, other.derivation

    rederived(text.replace("md-methods M against cap 2", "md-methods M against cap 1"))  # still on M: cap 1
    assert [(n.stated, n.note) for n in w.value("md-methods", "M", "leads-included").notes] == [(1, NOTE)]
    rederived(text.replace("signal md-methods-f10 md-methods M", "signal md-methods-f10 md-methods F"))
    assert w.value("md-methods", "M").notes == ()  # on F, its own dimension: no note


def test_the_card_carries_the_note_naming_section_9():
    text = run("card", INFO, "md-methods")
    assert f"informational M: md-methods-f10 cap 2 bounds nothing: {NOTE}" in text
    doc = json.loads(run("card", INFO, "md-methods", "--json"))
    assert doc["notes"] == [{"signal": "md-methods-f10", "dim": "M", "kind": "cap", "stated": 2, "clause": "9",
                             "note": NOTE}]
    assert doc["conflicts"] == [] and doc["values"]["M"] == 3


def test_f11_and_a3_make_a_signal_informational():
    notes = {(n.signal, n.clause) for n in world(INFO).card("md-credits").notes}
    assert notes == {("md-credits-a", "F.11"), ("md-credits-f", "F.11"), ("md-credits-m", "F.11"),
                     ("md-credits-m", "9")}
    assert [(n.signal, n.clause) for n in world(INFO).card("md-renew").notes] == [("md-renew-cap", "A.3")]
    assert world(INFO).card("md-renew-floor").notes == []
    assert world(INFO).card("md-section").notes == []  # rule 9 has no dimension; a superseded signal no note


def test_why_and_why_not_on_a_misdimensioned_signal():
    text = run("why", INFO, "md-methods", "M")
    assert "md-methods-f10 (F.10): cap 2 is informational by 9: it never bounds" in text and NOTE in text
    doc = json.loads(run("why-not", INFO, "md-methods", "M", "2", "--json"))
    way = next(w for w in doc["ways"] if w["signal"] == "md-methods-f10")
    assert way["blocked_by"] == {"what": "informational", "clause": "9", "text": NOTE}
    assert way["lift"] == [f"{NOTE}: unless `signal md-methods-f10 md-methods M against cap 2 rule=F.10` at "
                           f"{way['facts'][0]['loc']} is corrected"]


def test_clause_dimensions_and_derived_signals():
    assert clause_dims("F.4b") == ("F",) and clause_dims("X.8") == ("X",) and clause_dims("C15") == ()
    # no rule derives a signal on a dimension its clause does not belong on
    for path in [ROOT / "facts" / "worlds" / "example", *sorted((ROOT / "tests" / "worlds" / "structure").glob("*.facts")),
                 CORE / "section9.facts"]:
        w = World.load(path)
        for s in w.derivation.derived.values():
            assert not clause_dims(s.rule) or s.dim in clause_dims(s.rule), s.id
            assert s.id not in w.derivation.informational, s.id


def test_an_edit_that_misdimensions_a_signal_equals_a_whole_derivation(tmp_path, monkeypatch):
    from test_edit import WORLD, same_as_whole

    monkeypatch.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "main.facts").write_text(WORLD)
    store = tmp_path / "s.sqlite"
    World.load(tmp_path / "w", store=store).derivation
    # bolt's F.9 cap moves to M: a funding clause on methods, informational there; bolt F has no signal left
    (tmp_path / "w" / "main.facts").write_text(WORLD.replace("signal bolt-f bolt F", "signal bolt-f bolt M"))
    w = World.load(tmp_path / "w", store=store)
    w.derivation
    assert w.edited == ["bolt"]
    assert w.value("bolt", "M").value is None and w.value("bolt", "F").value is None
    assert [n.clause for n in w.value("bolt", "M").notes] == ["9"]
    same_as_whole(tmp_path / "w", store, tmp_path)


# ------------------------------------------------------------- the example world and the weighted number
def test_the_example_world_reads_g7_and_f8():
    w = World.load(ROOT / "facts" / "worlds" / "example")
    v = w.value("quorvell", "G")
    assert (v.value, v.signal, v.rule) == (3, "qv-g-board", "G.7")
    assert [(c.signal, c.clauses) for c in v.clamps] == [("qv-g-board", ("G.7",))]
    v = w.value("norland-oma", "F")
    assert (v.value, v.rule, [c.clauses for c in v.clamps]) == (3, "F.9", [("F.8",)])
    # the Act's rule (since=2025-07, read at 2025-07-31) is 24 months old on 2027-07-31
    assert World.load(ROOT / "facts" / "worlds" / "example", as_of="2027-07-31").value("norland-oma", "F").value == 4
    # section 13: sum of weight x value over the evidenced dimensions / their weights, after the band.
    # lab-procurement F=3 G=2 P=2 A=1 S=2 R=2 M=1 X=3 over quorvell's F3 G3 P3 A3 S3 R4 M3 X4:
    # (9 + 6 + 6 + 3 + 6 + 8 + 3 + 12) / 16 = 53/16
    card = w.card("quorvell", preset="lab-procurement")
    assert (card.band, card.weighted) == ("clear", Fraction(53, 16))
    assert w.card("quorvell").weighted is None  # shown only once a reader chooses weights
