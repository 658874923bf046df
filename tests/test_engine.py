"""logic/engine.py: programs side by side, facts served from tables, relations asked in parts."""
from fractions import Fraction

import pytest

from provlog.logic.engine import Program


def _program(rows):
    p = Program()
    p.load_rules(["big(X, K) <= r(X, K) & (K > 1)"])
    p.assert_rows("r", rows)
    return p


def test_two_programs_do_not_see_each_others_facts():
    a, b = _program([(1, 2), (2, 3)]), _program([(7, 5)])
    assert sorted(a.ask("big(X, K)")) == [(1, 2), (2, 3)]
    assert b.ask("big(X, K)") == [(7, 5)]
    assert a.ask("r(7, K)") == [] and b.ask("r(1, K)") == []


def test_bound_arguments_read_through_an_index_and_duplicates_are_one_fact():
    p = _program([(1, 2), (1, 2), (2, 2), (3, 4)])
    assert p.sizes["r"] == 3 and sorted(p.table("r")) == [(1, 2), (2, 2), (3, 4)]
    assert sorted(p.ask("r(X, 2)")) == [(1,), (2,)]
    assert p.ask("r(3, 4)") == [()] and p.ask("r(3, 2)") == []
    # a position indexed before, then a call binding two arguments
    assert p.match("r", 2, [(0, 1), (1, 2)]) == [(1, 2)]


def test_a_relation_asked_in_parts_gives_the_answers_of_the_whole():
    p = _program([(x, k) for x in range(6) for k in (2, 3, 4)])
    whole = sorted(p.relation("big", 2))
    parts = sorted(row for k in (2, 3, 4) for row in p.relation("big", 2, {1: k}))
    assert whole == parts and len(whole) == 18


def test_the_floor_decider_shape_largest_bound_then_recorded_then_smallest_id():
    # as logic/mechanics.py floor_decider: min_(S, order_by=(-B, R, S)); R 0 recorded, 1 derived
    p = Program()
    p.load_rules(["(pick[G] == min_(S, order_by=(-B, R, S))) <= b(S, G, B, R)"])
    p.assert_rows("b", [("s2", "g1", 3, 0), ("s1", "g1", 3, 0), ("d1", "g1", 3, 1), ("s0", "g1", 2, 0),
                        ("d2", "g2", 4, 1), ("s9", "g2", 3, 0),
                        ("d3", "g3", 2, 1), ("s8", "g3", 2, 0)])
    assert sorted(p.ask("(pick[G] == S)")) == [("g1", "s1"), ("g2", "d2"), ("g3", "s8")]


def test_exact_values_survive_the_tables():
    p = Program()
    p.load_rules(["over(X) <= share(X, S) & (S > Fraction(1, 5))"])
    p.assert_rows("share", [("a", Fraction(1, 5)), ("b", Fraction(21, 100))])
    assert p.ask("over(X)") == [("b",)]


def test_the_engine_internals_provlog_relies_on_are_there():
    from provlog.logic import engine

    assert all(hasattr(owner, name) for owner, name in engine.INTERNALS)


def test_a_programs_patches_hold_only_inside_its_block():
    from pyDatalog import Aggregate, pyEngine

    from provlog.logic import engine

    mine = lambda *terms: iter(())  # noqa: E731  (a caller's own resolver, as @pyDatalog.predicate adds)
    pyEngine.Python_resolvers["callers_own/1"] = mine
    try:
        before = Aggregate.Aggregate.complete
        p = _program([(1, 2)])
        with p.active():
            assert Aggregate.Aggregate.complete is engine._complete_in_order
            assert pyEngine.Python_resolvers["callers_own/1"] is mine and "r/2" in pyEngine.Python_resolvers
        assert Aggregate.Aggregate.complete is before is not engine._complete_in_order
        assert pyEngine.Python_resolvers.get("callers_own/1") is mine and "r/2" not in pyEngine.Python_resolvers
    finally:
        pyEngine.Python_resolvers.pop("callers_own/1", None)


def test_a_derivation_gives_the_collector_back_as_it_found_it():
    import gc

    from provlog.queries.api import World

    frozen = gc.get_freeze_count()
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            World.from_text('lab acme "Acme AI"\n')
            assert gc.isenabled() is enabled
        finally:
            gc.enable()
    assert gc.get_freeze_count() == frozen  # only a caller that owns the process asks for a freeze


def test_no_relation_reads_as_another_through_pydatalogs_resolver_names():
    """pyDatalog looks a relation r of arity n up among the Python resolvers as "r/n", then as "r<n>/n":
    a relation tier1/2 would read tier12/2's facts. No two relations of the rules and facts meet so."""
    from provlog.logic import RULES
    from provlog.logic.edb import PREDICATES

    arity = dict(PREDICATES)
    for r in RULES.rules:
        arity.setdefault(r.head_name, len(r.head_literal.args) + (0 if r.head.startswith(r.head_name) else 1))
    assert [n for n, a in arity.items() if arity.get(f"{n}{a}") == a] == []


def test_a_derivation_freezes_its_rows_while_it_runs_and_gives_them_back_after():
    """The kept rows hold no cycle: inside held_collector they are frozen out of the collector's walks
    (its sweeps visit only what pyDatalog made since), and given back when the derivation ends."""
    import gc

    from provlog.logic import strata
    from provlog.logic.gc_hold import held_collector
    from provlog.logic.engine import Program
    from provlog.logic.rules import Rule

    if gc.get_freeze_count():
        gc.unfreeze()  # a CLI test in this process may have frozen its world
    p = Program()
    p.assert_rows("r", [(i, "a") for i in range(50)])
    rules = [Rule("q", "q(X) <= r(X, 'a')", "")]
    p.load_rules([r.text for r in rules])
    with held_collector():
        assert not gc.isenabled()
        strata.materialize(p, rules, [["q"]], set())
        assert gc.get_freeze_count() > 0 and len(p.table("q")) == 50
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    with held_collector(keep_frozen=True):
        strata.materialize(p, rules, [["q"]], set())
    assert gc.get_freeze_count() > 0  # a caller that owns the process keeps them frozen
    gc.unfreeze()


@pytest.mark.parametrize("path", ["facts/worlds/example", "tests/worlds/structure/cycles.facts",
                                  "tests/worlds/structure/f3_fees.facts"])
def test_a_function_reads_as_the_kept_relation_that_reads_it_whole(path):
    """f[K] == V is read through r(K, V) <= (f[K] == V) once r is kept (the store writes every function):
    the same rows pyDatalog's own answer has, without asking it again."""
    from pathlib import Path

    from provlog.queries.api import World

    p = World.load(Path(__file__).resolve().parent.parent / path).derivation.program
    assert {"cap_decider", "effective_stake", "hop"} <= set(p._read_by)
    for name, arity in p.functions().items():
        fast = p.match(name, arity, [], function=True)
        assert sorted(fast, key=repr) == sorted(p._ask_whole(name, arity, True), key=repr), name
        if fast:  # one key bound: the rows of that key
            key = fast[0][0]
            assert sorted(p.match(name, arity, [(0, key)], function=True), key=repr) == \
                sorted((r for r in fast if r[0] == key), key=repr)


def test_a_pattern_of_several_arguments_reads_through_an_index_on_them_all():
    from provlog.logic.engine import Table

    t = Table()
    t.extend([(f"s{i}", f"o{i % 2}", "FG"[i % 3 == 0], "cap") for i in range(60)])
    want = sorted(r for r in t.rows if r[1] == "o1" and r[2] == "G")
    assert sorted(t.match([(1, "o1"), (2, "G")])) == want and (1, 2) not in t._index  # one question: no index
    for _ in range(40):
        assert sorted(t.match([(1, "o1"), (2, "G")])) == want
    assert (1, 2) in t._index  # asked again and again: indexed
    assert sorted(t.match([(2, "G"), (1, "o1")])) == want  # any order of the bound arguments
    assert not t.match([(1, "o1"), (2, "P")]) and t.match([(0, "s3"), (1, "o1")]) == [("s3", "o1", "G", "cap")]
