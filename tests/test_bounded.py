"""A relation derived again only for the keys an edit reaches (issue 27; logic/bounded.py, logic/spread.py).

The keys are found by hand on small rule sets (each route: the key in the moved literal, a join through
a relation that did not move, a join through one that did, a negation, a function read), each with its
near miss; a relation joined from its keys equals the whole relation's rows of those keys; and an edit of
a world whose derived signals move through a join (an investor's lab stake replaced by an investment)
equals a whole derivation.
"""
import sys
from pathlib import Path
from types import SimpleNamespace

from provlog import World
from provlog.logic import bounded
from provlog.logic.engine import Program
from provlog.logic.joins import compile_rules
from provlog.logic.rules import Rule

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_edit import same_as_whole  # noqa: E402


def moved(removed=(), added=(), rows=None):
    """A relation's change as spread.Changed gives it (rows: after the edit)."""
    return SimpleNamespace(removed=set(removed), added=set(added), rows=list(added) if rows is None else rows)


def program(**tables):
    p = Program()
    for name, rows in tables.items():
        p.assert_rows(name, rows)
    return p


FLAG = [Rule("def", "flag(O, X) <= owns(O, X) & bad(X)", "")]


def test_a_moved_row_holding_the_key_names_it():
    p = program(owns=[("o1", "x"), ("o3", "z")], bad=[("x",)])
    assert bounded.reached(FLAG, 0, {"owns": moved(added=[("o3", "z")])}, p) == {"o3"}
    assert bounded.reached(FLAG, 0, {"owns": moved()}, p) == set()  # nothing moved: no key


def test_a_moved_row_without_the_key_joins_to_it_through_what_did_not_move():
    p = program(owns=[("o1", "x"), ("o2", "y")], bad=[("y",)])
    # x is no longer bad (o1 loses its row), y now is (o2 gains one)
    assert bounded.reached(FLAG, 0, {"bad": moved([("x",)], [("y",)], [("y",)])}, p) == {"o1", "o2"}
    # the near miss: q turned bad, and no org owns q
    assert bounded.reached(FLAG, 0, {"bad": moved(added=[("q",)], rows=[("y",), ("q",)])}, p) == set()


def test_a_join_through_a_relation_that_moved_reads_its_rows_before_and_after():
    # o1 owned x, and x was bad: both rows removed. flag(o1, x) is gone, found from either removal: from
    # bad's (x,) only through owns' row before the edit (it is no longer in the program)
    p = program(owns=[("o2", "y")], bad=[("y",)])
    both = {"owns": moved(removed=[("o1", "x")], rows=[("o2", "y")]), "bad": moved(removed=[("x",)], rows=[("y",)])}
    assert bounded.reached(FLAG, 0, both, p) == {"o1"}
    assert bounded.reached(FLAG, 1, both, p) == {"x"}  # keyed by the other argument: x's rows


def test_a_negated_literal_and_a_function_read_name_their_key():
    rules = [Rule("def", "clean(O) <= org(O) & ~flagged(O)", ""),
             Rule("def", "big(O) <= (total[O] == V) & (V > 5)", "")]
    p = program(org=[("o1",), ("o2",)], flagged=[])
    assert bounded.reached(rules[:1], 0, {"flagged": moved(removed=[("o2",)], rows=[])}, p) == {"o2"}
    assert bounded.reached(rules[1:], 0, {"total": moved([("o1", 3)], [("o1", 7)])}, p) == {"o1"}


def test_a_key_bound_only_by_a_test_reaches_every_key():
    rules = [Rule("def", "next(K) <= step(X) & (K == X + 1)", ""),
             Rule("def", "pair(K, X) <= step(X) & seed(K)", "")]
    p = program(step=[(1,)], seed=[(5,)])
    assert bounded.reached(rules[:1], 0, {"step": moved(added=[(2,)])}, p) is None
    assert bounded.reached(rules[1:], 0, {"step": moved(added=[(2,)])}, p) == {5}  # the near miss: a join binds K


def test_the_key_column_is_one_the_moved_literals_hold():
    rules = [Rule("def", "flag(O, X) <= owns(O, X) & bad(X)", "")]
    assert bounded.key_column(rules, ["text", "text"], {"bad"}) == 1
    assert bounded.key_column(rules, ["text", "text"], {"owns"}) == 0
    assert bounded.key_column(rules, ["int", "num"], {"owns"}) is None  # no text column: SQL cannot select it
    assert bounded.key_column([Rule("def", "uses('9', O, O, Fs) <= a(O, Fs)", "")], ["text"] * 4, {"a"}) == 1


def test_rules_joined_from_their_keys_give_those_keys_rows():
    p = program(owns=[("o1", "x"), ("o2", "y"), ("o3", "x")], bad=[("x",), ("y",)])
    whole = compile_rules(FLAG, p)()
    assert sorted(compile_rules(FLAG, p, keys=(0, ["o1", "o2"]))()) == sorted(r for r in whole if r[0] in ("o1", "o2"))
    assert sorted(compile_rules(FLAG, p, keys=(1, ["x"]))()) == [("o1", "x"), ("o3", "x")]
    assert compile_rules(FLAG, p, keys=(0, []))() == []
    ancestor = [Rule("def", "anc(A, B) <= par(A, B)", ""), Rule("def", "anc(A, C) <= anc(A, B) & par(B, C)", "")]
    assert compile_rules(ancestor, program(par=[("a", "b")]), keys=(0, ["a"])) is None  # recursive: whole


# v holds 10% of acme, and 5% of the lab big: a lab investor (F.4, look-through depth 0), so a material
# investor of acme (5% or more): F.4's cap 1 on acme F, its proof the stake in acme and v's stake in big.
WORLD = """\
lab big "Big Lab"
entity v "Fund V" kind=fund
entity reg "Registry" kind=public
source s1 "https://r.example/1" publisher=reg status=confirmed tier=1
org acme "Acme" type=nonprofit evaluated=yes
org bolt "Bolt" type=nonprofit evaluated=yes
stake v acme 10% src=s1 span="V holds 10% of Acme"
stake v big 5% src=s1 span="V holds 5% of Big"
signal bolt-f bolt F against cap 3 rule=F.9
cite bolt-f s1 "bolt quote"
"""


def f4(w):
    return [(s.bound, s.key, s.facts) for s in w.derivation.derived.values() if s.rule == "F.4"]


def test_an_investors_lab_tie_moved_through_a_join_equals_a_whole_derivation(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    world, store = tmp_path / "w", tmp_path / "s.sqlite"
    world.mkdir()
    (world / "main.facts").write_text(WORLD)
    before = World.load(world, store=store)
    assert f4(before) == [(1, "v", ("stake@w/main.facts:7", "stake@w/main.facts:8"))]
    # v now invests in big (a priced round it led) instead of holding its stake: still a lab investor, so
    # still material to acme; the proof's lab tie is the investment. uses moved (investor_fact has no org:
    # reached through material_investor(acme, v)), derive did not
    (world / "main.facts").write_text(WORLD.replace("stake v big 5% src=s1", "invest v big led priced src=s1"))
    after = World.load(world, store=store)
    assert after.edited == ["acme"]
    assert f4(after) == [(1, "v", ("invest@w/main.facts:8", "stake@w/main.facts:7"))]
    assert after.value("acme", "F").value == 1
    same_as_whole(world, store, tmp_path)
    # the near miss: bolt's own signal moved; acme's derived signals are not made again
    (world / "main.facts").write_text(WORLD.replace("stake v big 5% src=s1", "invest v big led priced src=s1")
                                      .replace("cap 3", "cap 2"))
    assert World.load(world, store=store).edited == ["bolt"]
    same_as_whole(world, store, tmp_path)
