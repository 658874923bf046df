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


#: edits of WORLD's stakes: (a line, what replaces it)
CYCLE_EDITS = [
    ("stake c o1 30%", "stake c o1 35%"),  # on the cycle
    ("stake b c 50%", ""),  # the cycle broken
    ("stake z o1 10%", "stake z d 10%"),  # z now reaches the cycle
    ("stake d a 20%", "stake d a 20%\nstake o1 d 5%"),  # a second cycle through o1
]


@pytest.mark.parametrize("change", CYCLE_EDITS)
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


# -- chain's dependents (effective_stake, stake_total, chain_fact) derived again for the reached holders --

def line_world(changed_pct=50):
    ents = "".join(f'entity x{i} "X{i}" kind=fund\n' for i in range(9))
    stakes = "".join(f"stake x{i} x{i + 1} {changed_pct if i == 6 else 50}%\n" for i in range(8))
    return "as-of 2026-06-01\n" + ents + stakes


def again_and_whole(before_text, after_text):
    """The holders reached, the dependents derived again for them, the old and new whole derivations."""
    w0, w1 = World.from_text(before_text), World.from_text(after_text)
    p0, p1 = w0.derivation.program, w1.derivation.program
    again = chains.holders(p0.table("stake"), p1.table("stake"))
    chain = chains.rederive(p0.table("chain"), p0.table("stake"), p1.table("stake"), RULES.rules)
    got = chains.dependents([r for r in chain if r[0] in again], RULES.rules, 3)
    return again, got, p0, p1


def totals(rows, holder):
    return {r[1]: r[2] for r in rows if r[0] == holder}


def test_dependents_on_a_line_are_the_reached_holders_rows_by_hand():
    again, got, p0, p1 = again_and_whole(line_world(), line_world(25))
    assert again == {"x1", "x2", "x3", "x4", "x5", "x6"}
    # x6 -> x7 now 1/4: x6 holds x7 at 1/4 and x8 at 1/4 * 1/2; x5 holds them through x6 at half that;
    # x1 reaches x7 by its sixth stake ((1/2)^5 * 1/4) and x8 not at all (a seventh)
    assert totals(got["stake_total"], "x6") == {"x7": Fraction(1, 4), "x8": Fraction(1, 8)}
    assert totals(got["stake_total"], "x5") == {"x6": Fraction(1, 2), "x7": Fraction(1, 8), "x8": Fraction(1, 16)}
    assert totals(got["stake_total"], "x1")["x7"] == Fraction(1, 128) and "x8" not in totals(got["stake_total"], "x1")
    assert totals(got["effective_stake"], "x5") == totals(got["stake_total"], "x5")
    # x5's chain to x7 rests on stakes x5 -> x6 and x6 -> x7 (lines 16, 17: as-of, nine entities, then x0 -> x1)
    assert {r[2] for r in got["chain_fact"] if r[:2] == ("x5", "x7")} == {"stake@<text>:16", "stake@<text>:17"}
    # the near miss: x0's rows (not reached: x0 -> x7 would be a seventh stake) are none of these and
    # did not change: x0 holds x6 at (1/2)^6 before and after
    assert not [r for rows in got.values() for r in rows if r[0] == "x0"]
    assert totals(p0.table("stake_total"), "x0") == totals(p1.table("stake_total"), "x0") == {
        f"x{i}": Fraction(1, 2 ** i) for i in range(1, 7)}


@pytest.mark.parametrize("change", CYCLE_EDITS)
def test_dependents_kept_plus_derived_again_equal_a_whole_derivation(change):
    again, got, p0, p1 = again_and_whole(WORLD, WORLD.replace(change[0], change[1]))
    for name in ("stake_total", "chain_fact"):
        kept = [r for r in p0.table(name) if r[0] not in again]
        assert sorted(map(repr, kept + got[name])) == sorted(map(repr, p1.table(name)))
    whole = list(p1.match("effective_stake", 3, [], function=True))
    assert sorted(map(repr, [r for r in p0.match("effective_stake", 3, [], function=True) if r[0] not in again]
                         + got["effective_stake"])) == sorted(map(repr, whole))


def test_dependents_on_the_cycle_by_hand():
    again, got, p0, p1 = again_and_whole(WORLD, WORLD.replace("stake c o1 30%", "stake c o1 35%"))
    assert again == {"a", "b", "c", "d"}  # d holds a, on the cycle; z holds only o1
    # a path never revisits a node, so c's own stake in o1 is its direct 35%; a's goes a -> b -> c -> o1
    assert totals(got["stake_total"], "c")["o1"] == Fraction(7, 20)
    assert totals(got["stake_total"], "a")["o1"] == Fraction(3, 5) * Fraction(1, 2) * Fraction(7, 20)
    # the near miss: z (not reached) keeps its 10% of o1, in the old and new whole derivations alike
    assert "z" not in again
    assert totals(p0.table("stake_total"), "z") == totals(p1.table("stake_total"), "z") == {"o1": Fraction(1, 10)}


def test_other_dependent_rules_are_derived_whole():
    class R:
        head_name, text = "chain_fact", "chain_fact(A, T, F) <= chain(A, T, P, Path, Fs, N)"

    assert chains.dependents([], [R()], 3) is None


def chain_rowids(store):
    """The stored ``chain`` rows by rowid (their values as stored: text, numbers as text or json)."""
    import sqlite3

    con = sqlite3.connect(store)
    try:
        return dict((r[0], r[1:]) for r in con.execute('SELECT rowid, * FROM "chain"'))
    finally:
        con.close()


def test_a_stake_edit_writes_only_the_reached_holders_chain_rows(tmp_path, monkeypatch):
    """d's stake in a changes: only d reaches it (no one holds d), so only d's chains are derived again,
    deleted and inserted; every other holder's row stays where it was in the store (a table written
    again whole would move the rows stored after d's first one). The table is a whole derivation's."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "main.facts").write_text(WORLD)
    store = tmp_path / "s.sqlite"
    World.load(tmp_path / "w", store=store).derivation
    was = chain_rowids(store)
    first_d = min(i for i, r in was.items() if r[0] == "d")
    assert any(i > first_d and r[0] != "d" for i, r in was.items())  # else a rewrite would keep them too
    text = WORLD.replace("stake d a 20%", "stake d a 25%")
    (tmp_path / "w" / "main.facts").write_text(text)
    w = World.load(tmp_path / "w", store=store)
    w.derivation
    assert w.edited is not None  # the edit path wrote the store
    now = chain_rowids(store)
    assert {i: r for i, r in now.items() if r[0] != "d"} == {i: r for i, r in was.items() if r[0] != "d"}
    # d's chains by hand (F.1: a chain's share is the product of its stakes'): d -> a 25% = 1/4, on
    # through a's 60% of b (3/20), b's 50% of c (3/40), c's 30% of o1 (9/400); c -> a closes the cycle
    assert sorted(Fraction(r[2]) for r in now.values() if r[0] == "d") == [
        Fraction(9, 400), Fraction(3, 40), Fraction(3, 20), Fraction(1, 4)]
    whole = World.load(tmp_path / "w", store=tmp_path / "whole.sqlite")  # a new store: derived whole
    stored = World.load(tmp_path / "w", store=store)
    assert sorted(map(repr, stored.derivation.program.table("chain"))) == \
        sorted(map(repr, whole.derivation.program.table("chain")))
