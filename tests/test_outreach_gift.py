"""Issue 41 leftovers (RULES section 12): a named person whose only open question concerns a gift, and
the reply window provlog takes when the world states none (docs/readings.md, "Sections 10-12").

tests/worlds/outreach/gift.facts, by hand: Rosa Hale holds 30% of the lab Corvid AI (a stake, no role)
and gave Harbor Evaluations a grant of 8% of its 2026 revenue. F.4b: money "from an entity that owns 20%
or more of a frontier developer" is lab-linked money under F.4 (cap 1) when "5% or more of annual
revenue": Harbor's F is 1. Section 12: the open question "that concerns a named person's gift ... is
phrased as a request for a document ... and goes to the person": Rosa's letter asks for exactly one
document, about her gift, and nothing about a role (she has none).
"""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from provlog import World
from provlog.queries.cli import main
from provlog.queries.letters import letters
from provlog.queries.windows import state

GIFT = Path(__file__).parent / "worlds" / "outreach" / "gift.facts"
GRANT = "money rosa harbor grant"


def _rosa(text: str):
    [got] = letters(World.from_text(text), people=True, only={"rosa"})
    return got


def test_the_gift_is_the_one_request_in_the_persons_letter(tmp_path):
    r = CliRunner().invoke(main, ["--no-store", "outreach", str(GIFT), str(tmp_path / "out"), "--people"])
    assert r.exit_code == 0, r.output
    doc = json.loads((tmp_path / "out" / "rosa.json").read_text(encoding="utf-8"))
    assert doc["kind"] == "person" and doc["roles"] == []  # public roles only: she holds none
    [req] = doc["requests"]
    # F.4b caps Harbor's F at 1; the next value is 2; the question is her grant, and only that
    assert (req["org"], req["dim"], req["value"], req["target"], req["clause"], req["about"]) == (
        "harbor", "F", 1, 2, "F.4b", ["gift"])
    assert [s.split()[:4] for s in req["facts"]] == [GRANT.split()]
    # a request for a document, never a suspicion
    assert req["text"].endswith("a document that shows it would make F 2: please send it, or tell us where "
                                "it is published.")
    md = (tmp_path / "out" / "rosa.md").read_text(encoding="utf-8")
    assert "(your gift, for Harbor Evaluations)" in md and "your role" not in md
    assert "## Your public roles\n\n- none recorded" in md


def test_near_miss_without_the_gift_the_person_is_asked_nothing():
    text = GIFT.read_text(encoding="utf-8")
    without = "\n".join(line for line in text.splitlines() if not line.startswith(GRANT) and "harbor F" not in line)
    assert _rosa(text)["requests"] and _rosa(without)["requests"] == []
    assert World.from_text(without).value("harbor", "F").value is None  # no F.4b: F unevidenced


def test_the_default_reply_window_is_30_days_when_the_world_states_none():
    # the RULES give no number (docs/readings.md): provlog's default is 30 days; a letter sent on
    # 2026-08-01 asks a reply by 2026-08-31, in window on that day and closed on the next
    base = 'org e "E" type=nonprofit\ncontact e sent=2026-08-01\n'
    on_the_day = state(World.from_text(base + "as-of 2026-08-31\n"), "e")
    assert (on_the_day.window, on_the_day.reply_by, on_the_day.status) == (30, "2026-08-31", "in-window")
    assert state(World.from_text(base + "as-of 2026-09-01\n"), "e").status == "closed"
    # near miss: a world's reply-window 14 replaces the default
    stated = state(World.from_text(base + "reply-window 14\nas-of 2026-08-31\n"), "e")
    assert (stated.window, stated.reply_by, stated.status) == (14, "2026-08-15", "closed")
