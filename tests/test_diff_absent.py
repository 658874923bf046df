"""`provlog diff`: a move that a proof reaches through an absence rests on the statement that made
the absent atom hold on the other side (issue 28: "the statements ... that the change in the proof
rests on"). A hold (G.7 holding a floor 4 at 3) is lifted by a cite added: the new proof reads "no
clause holds g4's floor 4", the old one "g4 quotes no span from a confirmed tier-1 source"; the cite
added is in neither side's own fact leaves, but in the proof, on the new side, of the atom the old
proof reads as absent. Before, the report said the move "rests on no edited statement".
"""
import os

import pytest

from provlog import World
from provlog.queries.diff import compare

WORLD = """\
org ev "Evaluator" type=nonprofit
entity reg "Registry" kind=public
entity press "Press" kind=company
source own "Evaluator governance page" publisher=ev status=confirmed tier=2
source art "Press article" publisher=press status=confirmed tier=3
source rev "Registry: external review" publisher=reg status=confirmed tier=1
signal g4 ev G for floor 4 rule=G.7
cite g4 own "Five of seven directors are independent."
cite g4 art "The board is independent and was reviewed externally."
"""
CITE = 'cite g4 rev "The external review found the board independent."\n'


@pytest.fixture(autouse=True)
def _cwd(tmp_path):
    here = os.getcwd()
    os.chdir(tmp_path)
    yield
    os.chdir(here)


def _rests(old: str, new: str):
    for name, body in (("old", old), ("new", new)):
        os.makedirs(name)
        with open(f"{name}/a.facts", "w") as f:
            f.write(body)
    r = compare(World.load("old"), World.load("new"), "standard").to_json()
    return [(org, m["what"], m["key"]["dim"], m["old"], m["new"],
             sorted((k, s.get("kind") or s["new"]["kind"]) for k in ("added", "removed", "changed") for s in m["rests_on"][k]))
            for org, ms in r["orgs"].items() for m in ms]


def test_a_cite_that_lifts_a_g7_hold_is_what_the_move_rests_on():
    # G.7: a floor 4 on G needs a span from a confirmed tier-1 source. own (tier 2, span) and art
    # (tier 3) pass C16 (section 0: tier 1-2 with a span) but not G.7: held at 3. The span quoted from
    # rev (tier 1, confirmed) lifts it: G 3 -> 4, resting on the cite added.
    assert _rests(WORLD, WORLD + CITE) == [("ev", "value", "G", 3, 4, [("added", "cite")])]
    # and the reverse: the cite removed holds it again
    os.chdir("..")
    os.makedirs("rev")
    os.chdir("rev")
    assert _rests(WORLD + CITE, WORLD) == [("ev", "value", "G", 4, 3, [("removed", "cite")])]


def test_a_cite_without_a_span_lifts_nothing_and_moves_nothing():
    # the near miss: rev cited with no span is not tier-1 evidence quoted (G.7): G stays 3
    assert _rests(WORLD, WORLD + "cite g4 rev\n") == []
