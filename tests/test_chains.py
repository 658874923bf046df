"""A stake edit derives ``chain`` again only for the holders it reaches (issue 27; logic/chains.py).

The holders are found by hand on small stake graphs (a line longer than a chain may be, a cycle),
and the chains derived again after an edit equal a whole derivation's, on cycles and on the line.
"""
from fractions import Fraction

import pytest

from provlog import World
from provlog.logic import chains
from provlog.logic.program import RULES


def edge(a, b, pct=Fraction(1, 2)):
    return (a, b, pct, f"stake@w:{a}-{b}")


LINE = [edge(f"x{i}", f"x{i + 1}") for i in range(8)]  # x0 -> x1 -> ... -> x8


def test_an_edited_stake_reaches_the_holders_within_five_stakes_of_its_holder():
    new = LINE[:6] + [edge("x6", "x7", Fraction(1, 4))] + LINE[7:]
    # x6 -> x7 changed: chains through it start at x6 or at most five stakes before it (x1: x1..x6 then
    # x6 -> x7 is its sixth stake, the last a chain may have); x0 would need a seventh
    assert chains.holders(LINE, new) == {"x1", "x2", "x3", "x4", "x5", "x6"}
    assert chains.holders(LINE, LINE) == set()  # the near miss: nothing changed, nothing reached


def test_holders_on_a_cycle_end_and_name_the_cycle():
    ring = [edge("a", "b"), edge("b", "c"), edge("c", "a"), edge("c", "o"), edge("z", "o")]
    assert chains.holders(ring, ring[:3] + [edge("c", "o", Fraction(1, 3))] + ring[4:]) == {"a", "b", "c"}
    assert chains.holders(ring, ring[:4]) == {"z"}  # z holds only o: no one reaches z


WORLD = """\
as-of 2026-06-01
org o1 "Org One" type=nonprofit
entity a "A" kind=fund
entity b "B" kind=fund
entity c "C" kind=fund
entity d "D" kind=fund
entity z "Z" kind=fund
stake a b 60%
stake b c 50%
stake c a 40%
stake c o1 30%
stake d a 20%
stake z o1 10%
"""


def chain_rows(text):
    w = World.from_text(text)
    return sorted(map(repr, w.derivation.program.table("chain"))), w


@pytest.mark.parametrize("change", [
    ("stake c o1 30%", "stake c o1 35%"),  # on the cycle
    ("stake b c 50%", ""),  # the cycle broken
    ("stake z o1 10%", "stake z d 10%"),  # z now reaches the cycle
    ("stake d a 20%", "stake d a 20%\nstake o1 d 5%"),  # a second cycle through o1
])
def test_chains_derived_again_equal_a_whole_derivation(change):
    before, w0 = chain_rows(WORLD)
    after, w1 = chain_rows(WORLD.replace(change[0], change[1]))
    old_stakes, new_stakes = w0.derivation.program.table("stake"), w1.derivation.program.table("stake")
    got = chains.rederive(w0.derivation.program.table("chain"), old_stakes, new_stakes, RULES.rules)
    assert sorted(map(repr, got)) == after
    assert before != after


def test_other_chain_rules_are_derived_whole():
    class R:
        head_name, text = "chain", "chain(A, T, P, Path, Fs, N) <= stake(A, T, P, F) & (N == 1)"

    assert chains.rederive([], LINE, LINE, [R()]) is None
