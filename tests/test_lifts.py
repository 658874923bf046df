"""Issue 40 part 3: lifts and the facts still missing (P.3, R.6, X.1, F.9, F.10, P.4), on the fixture
worlds under tests/worlds/lifts/. Each world's `expect` lines check the values and deciding rules
(derived by hand in its comments); this file checks what they cannot say: the card's notes, `why`
and `why-not` naming what lifts (or would lift) a bound, and that clingo reads the same."""
import functools
import os
from pathlib import Path

import pytest

from provlog import World

ROOT = Path(__file__).resolve().parent.parent
LIFTS = ROOT / "tests" / "worlds" / "lifts"
NAMES = ["p3_r6", "x1_unspecified", "f9_public", "f10_undisclosed", "p4_contractor"]


@functools.lru_cache(maxsize=None)
def world(name):
    return World.load(LIFTS / f"{name}.facts")


@pytest.mark.parametrize("name", NAMES)
def test_the_hand_derived_expects_hold(name):
    assert [r.text for r in world(name).check_expects() if not r.ok] == []


@pytest.mark.parametrize("name", NAMES)
def test_clingo_reads_the_lifts_the_same(name):
    if os.environ.get("CI"):
        import clingo  # noqa: F401
    pytest.importorskip("clingo")
    from bench import clingo_check

    w = world(name)
    res = clingo_check.evaluate(w.facts)
    assert clingo_check.compare(w, res) == [] and clingo_check.check_expects(w.facts, res) == []


def test_a_cooling_off_policy_lifts_the_p3_cap_and_the_card_says_so():
    w = world("p3_r6")
    v = w.value("lf-cool", "P")
    assert (v.value, v.rule, v.cap) == (2, "P.6", None)
    [note] = v.notes
    assert (note.signal, note.clause, note.kind, note.stated) == ("lf-cool-p", "P.3", "cap", 2)
    assert "cooling-off" in note.note
    assert [n.signal for n in w.card("lf-gov").notes] == ["lf-gov-p"]  # the statutory rule of a public body
    assert w.value("lf-npe", "P").notes == ()  # post-employment is a public body's: nothing lifted


def test_why_not_names_the_policy_that_would_lift_a_p3_cap():
    doc = world("p3_r6").why_not("lf-hire", "P", 3)
    lifts = [x for way in doc["ways"] for x in way["lift"]]
    assert any("`policy lf-hire cooling-off`" in x and "P.3" in x for x in lifts)


def test_a_disclosure_policy_raises_the_r6_cap_to_3_at_the_as_of_date():
    w = world("p3_r6")
    assert (w.value("lf-disc", "R").value, w.value("lf-disc", "R").cap) == (3, 3)
    assert w.value("lf-late", "R").cap == 2  # 2026-09 may mean the 30th: after 2026-09-15
    later = World.load(LIFTS / "p3_r6.facts", as_of="2026-10-01")
    assert later.value("lf-late", "R").value == 3 and later.value("lf-future", "R").value == 2
    both = w.value("lf-both", "R")
    assert (both.cap, both.floor, both.conflict, both.resolved, both.value) == (3, 4, True, True, 3)


def test_why_shows_the_disclosure_policy_the_raised_cap_rests_on():
    text = world("p3_r6").why("lf-disc", "R")
    assert "policy lf-disc disclosure-policy since=2026-02" in text and "R.6 caps at 3" in text
    doc = world("p3_r6").why_not("lf-ctl", "R", 3)
    assert any("`policy lf-ctl disclosure-policy`" in x for way in doc["ways"] for x in way["lift"])
