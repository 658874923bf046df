"""Python joins (logic/joins.py) keep exactly the rows pyDatalog keeps.

strata.py answers plain rules and min_/len_ aggregate reads by joins over kept
tables, and leaves every other rule to pyDatalog. Here each world is derived
both ways (``strata.PYTHON_JOINS`` off, then on) and every kept relation must
hold the same rows: the fixtures, the example world and a generated world.
docs/evaluators.md says which relations each evaluator answers, and why; the
last test here pins that page's table to what strata.py does.
"""
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from provlog.facts import load_text, load_world
from provlog.logic import strata
from provlog.logic.engine import Program
from provlog.logic.joins import compile_rules
from provlog.logic.program import Derivation
from provlog.logic.rules import Rule

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # bench/ is run from the repository root, never installed
    sys.path.insert(0, str(ROOT))

WORLDS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "worlds").glob("*/*.facts"))


def kept(facts, joins: bool, monkeypatch):
    monkeypatch.setattr(strata, "PYTHON_JOINS", joins)
    d = Derivation.run(facts, as_of="2026-06-01")
    return {name: set(rows) for name, rows in d.program.tables.items()}


def same_both_ways(facts, monkeypatch):
    engine_only, joined = kept(facts, False, monkeypatch), kept(facts, True, monkeypatch)
    assert set(engine_only) == set(joined)
    differ = {n: (engine_only[n] ^ joined[n]) for n in engine_only if engine_only[n] != joined[n]}
    assert differ == {}
    return joined


@pytest.mark.parametrize("path", WORLDS + ["facts/worlds/example"])
def test_fixture_worlds_keep_the_same_rows(path, monkeypatch):
    same_both_ways(load_world(ROOT / path), monkeypatch)


def test_generated_world_keeps_the_same_rows(monkeypatch):
    from bench.generate import generate_text

    rows = same_both_ways(load_text(generate_text(12, 5), "g.facts"), monkeypatch)
    assert len(rows["value"]) > 100 and rows["conflict"]  # a world where the per-policy layer has work


def test_generated_holding_circles_keep_the_same_rows(monkeypatch):
    from bench.generate import generate_text

    # four holding circles in 20 orgs (issue 19's heaviest shape): the recursive relations both ways
    rows = same_both_ways(load_text(generate_text(20, 7, circles=4), "g.facts"), monkeypatch)
    assert len(rows["chain"]) > 100 and len(rows["investor_fact"]) > 100 and len(rows["hop_within"]) > 20


def program(**tables):
    p = Program()
    for name, rows in tables.items():
        p.assert_rows(name, rows)
    return p


def answers(text, p, *more):
    rules = [Rule("def", text, "")] + [Rule("def", t, "") for t in more]
    by_head = {}
    for r in rules:
        by_head.setdefault(r.head_name, []).append(r)
    join = compile_rules(by_head[rules[0].head_name], p, by_head.get)
    return None if join is None else sorted(join())


def test_join_shapes():
    p = program(r=[(1, "a"), (2, "b"), (3, "a"), (4, "c")], e=[(1, 1), (1, 2), (2, 2)], bad=[(3,)])
    assert answers("q(X) <= r(X, 'a') & ~bad(X)", p) == [(1,)]
    assert answers("q(X, Y) <= e(X, Y) & r(Y, L) & (X != Y)", p) == [(1, 2)]
    assert answers("q(X) <= e(X, X)", p) == [(1,), (2,)]  # a repeated variable joins within the atom
    assert answers("q(L) <= r(X, L) & ~e(X, Y)", p) == [("a",), ("c",)]  # "no e(X, _)": 3 and 4
    assert answers("q(X, C) <= r(X, L) & L.in_(('b', 'c')) & (C == 1)", p) == [(2, 1), (4, 1)]


def test_aggregate_reads():
    p = program(b=[("o", "s1", 2, 1), ("o", "s2", 2, 0), ("o", "s3", 1, 1), ("p", "s4", 3, 0)])
    lo = ("first(O, S) <= (least[O] == S)", "(least[O] == min_(S, order_by=(B, R, S))) <= b(O, S, B, R)")
    hi = ("first(O, S) <= (most[O] == S)", "(most[O] == min_(S, order_by=(-B, R, S))) <= b(O, S, B, R)")
    n = ("count(O, N) <= (bounds[O] == N)", "(bounds[O] == len_(B)) <= b(O, S, B, R)")
    assert answers(lo[0], p, lo[1]) == [("o", "s3"), ("p", "s4")]
    assert answers(hi[0], p, hi[1]) == [("o", "s2"), ("p", "s4")]  # largest B, then smallest R
    assert answers(n[0], p, n[1]) == [("o", 2), ("p", 1)]  # distinct values of B


def test_arithmetic_and_sums():
    p = program(r=[(1, "a"), (2, "a")], share=[("o", 1, "m1"), ("o", 1, "m2"), ("o", 2, "m2")])
    assert answers("q(X, Y) <= r(X, L) & (Y == X + 1)", p) == [(1, 2), (2, 3)]
    assert answers("q(X) <= r(X, L) & (X > Fraction(1, 2) * 3)", p) == [(2,)]
    total = ("t(O, S) <= (shares[O] == S)", "(shares[O] == sum_(P, for_each=M)) <= share(O, P, M)")
    assert answers(total[0], p, total[1]) == [("o", 4)]  # distinct (P, M) rows: 1 + 1 + 2


def test_other_shapes_are_left_to_pydatalog():
    p = program(r=[(1, "a")], t=[(1, 2)])
    assert answers("q(X) <= t(X, Y) & q(Y) & q(X)", p, "q(X) <= r(X, L)") is None  # reads itself twice
    assert answers("q(X) <= t(X, Y) & ~q(Y)", p, "q(X) <= r(X, L)") is None  # negates itself
    assert answers("q(X) <= s(X)", p) is None  # a relation not kept as facts
    assert answers("q(X) <= r(X, L) & (f[X] == 1)", p) is None  # a function no aggregate defines
    assert answers("q(X) <= r(X, L) & (f[X] == 1)", p, "(f[X] == g(X)) <= r(X, L)") is None  # nor this


def test_a_linear_recursion_is_a_fixpoint_and_ends_on_a_circle():
    # e: the circle 1 -> 2 -> 3 -> 1 and a tail 3 -> 4. reach(X, Y): Y is reached from X in one or more
    # steps: from each of 1, 2, 3 every one of 1, 2, 3, 4 (round the circle); from 4 nothing.
    circle = program(e=[(1, 2), (2, 3), (3, 1), (3, 4)])
    base, step = "reach(X, Y) <= e(X, Y)", "reach(X, Y) <= reach(X, Z) & e(Z, Y)"
    assert answers(base, circle, step) == [(x, y) for x in (1, 2, 3) for y in (1, 2, 3, 4)]
    # near miss: no edge 3 -> 1, no circle: only the forward pairs
    line = program(e=[(1, 2), (2, 3), (3, 4)])
    assert answers(base, line, step) == [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    # bounded by a counter, as hop_within is: hop(X, N) within 2 steps of 1, ties pointing at 1
    tie = program(start=[(1,)], tie=[(2, 1), (3, 2), (1, 3), (4, 3)])
    assert answers("hop(X, N) <= start(X) & (N == 0)", tie,
                   "hop(X, N) <= hop(Y, N1) & (N1 < 2) & tie(X, Y) & (N == N1 + 1)") == [(1, 0), (2, 1), (3, 2)]
    # a simple path never repeats a node: round the circle, the path stops where it began
    paths = answers("p(A, T, Path) <= e(A, T) & (Path == (A, T))", circle,
                    "p(A, T, Path) <= p(A, M, Path1) & e(M, T) & T._not_in(Path1) & (Path == Path1 + (T,))")
    assert [row for row in paths if row[0] == 1] == [(1, 2, (1, 2)), (1, 3, (1, 2, 3)), (1, 4, (1, 2, 3, 4))]


def test_a_member_of_a_tuple_and_a_function_inside_a_body():
    p = program(path=[("a", ("s1", "s2")), ("b", ())], share=[("o", 1, "m1"), ("o", 1, "m2"), ("p", 1, "m3")])
    assert answers("fact(X, F) <= path(X, Fs) & F.in_(Fs)", p) == [("a", "s1"), ("a", "s2")]  # b: no member
    # an atom that binds X makes X.in_ a test, wherever it is written
    assert answers("q(X) <= X.in_((1, 2, 5)) & share(O, X, M)", p) == [(1,)]
    rule = "big(O, S) <= (total[O] == S) & share(O, P, M) & (S > 1)"
    assert answers(rule, p, "(total[O] == sum_(P, for_each=M)) <= share(O, P, M)") == [("o", 2)]  # p: 1, not > 1


#: docs/evaluators.md's table: the relations of the independence RULES that pyDatalog answers, by why.
#: Read off the rules (logic/structure.py, logic/mechanics.py): each rule's head and body shape.
#: Since issue 27 (derive27) joins.py answers every one: none is left to pyDatalog.
RECURSIVE = {"chain", "hop_within", "lab_investor", "investor_fact"}  # a rule body reads its own head
OTHER_SHAPES = {"chain_fact",  # F.in_(Fs): membership in a tuple the rule builds
                "derive", "uses"}  # F.5's (lab_revenue_share[O, Y] == Sh) read beside other literals
AGGREGATES = {"cap_decider", "floor_decider", "hop", "effective_stake", "lab_revenue_share", "publishers", "sources"}


def evaluators(facts, monkeypatch):
    """The relations strata.py gave to joins.py, and those it left to pyDatalog, deriving ``facts``."""
    joined, left = set(), set()

    def recording(rules, program, defining=None):
        join = compile_rules(rules, program, defining)
        (joined if join is not None else left).add(rules[0].head_name)
        return join

    monkeypatch.setattr(strata, "compile_rules", recording)
    monkeypatch.setattr(strata, "PYTHON_JOINS", True)
    Derivation.run(facts, as_of="2026-06-01")
    return joined, left


@pytest.mark.parametrize("path", ["facts/worlds/example", "generated"])
def test_each_relation_goes_to_the_evaluator_the_page_names(path, monkeypatch):
    from bench.generate import generate_text
    from provlog.logic.program import RULES
    from provlog.logic.syntax import Atom

    facts = load_text(generate_text(12, 5), "g.facts") if path == "generated" else load_world(ROOT / path)
    joined, left = evaluators(facts, monkeypatch)
    assert left == set()
    assert {r.head_name for r in RULES.rules if not isinstance(r.head_literal, Atom)} == AGGREGATES
    # every other relation asked is joined in Python (one known to be empty is not asked at all), so
    # the comparisons above meet both evaluators on every one of them
    heads = {r.head_name for r in RULES.rules}
    assert len(joined) > 80 and RECURSIVE | OTHER_SHAPES <= joined <= heads - AGGREGATES


#: A circle of three funds, each holding 60% of the next, and b 25% of the org o; CIRCLE_LAB adds
#: c's investment in the lab (line 10).
CIRCLE = """lab l "Lab"
entity a "Fund A" kind=fund
entity b "Fund B" kind=fund
entity c "Fund C" kind=fund
org o "O" type=private evaluated=yes
stake a b 60%
stake b c 60%
stake c a 60%
stake b o 25%
"""
CIRCLE_LAB = CIRCLE + "invest c l\n"


def test_chains_through_a_circle_are_simple_and_a_circle_with_no_lab_has_no_investor(monkeypatch):
    rows = same_both_ways(load_text(CIRCLE, "w.facts"), monkeypatch)
    f = Fraction
    # every simple chain (no node twice): from each fund one and two links round the circle, and on to o
    # through b; a -> b -> c -> a would visit a again
    assert {(r[0], r[1], r[2], r[3], r[5]) for r in rows["chain"]} == {
        ("a", "b", f(3, 5), ("a", "b"), 1), ("a", "c", f(9, 25), ("a", "b", "c"), 2),
        ("a", "o", f(3, 20), ("a", "b", "o"), 2), ("b", "c", f(3, 5), ("b", "c"), 1),
        ("b", "a", f(9, 25), ("b", "c", "a"), 2), ("b", "o", f(1, 4), ("b", "o"), 1),
        ("c", "a", f(3, 5), ("c", "a"), 1), ("c", "b", f(9, 25), ("c", "a", "b"), 2),
        ("c", "o", f(9, 100), ("c", "a", "b", "o"), 3)}
    # no member holds or invested in the lab: no lab investor, no hop but the lab's own
    assert rows.get("lab_investor", set()) == set() and rows.get("investor_fact", set()) == set()
    assert rows["hop_within"] == {("l", 0)}


def test_look_through_round_a_circle_stops_at_six_levels(monkeypatch):
    rows = same_both_ways(load_text(CIRCLE_LAB, "w.facts"), monkeypatch)
    # c invested (depth 0); b holds 60% of c (1), a 60% of b (2), c 60% of a (3), ... until depth 6;
    # the two-link stakes are 36%, under 50%: no look-through skips a member
    assert rows["lab_investor"] == {("c", 0), ("b", 1), ("a", 2), ("c", 3), ("b", 4), ("a", 5), ("c", 6)}
    # hops: the lab 0, c 1 (invested), b 2, a 3, c again 4 (the bound: no tie beyond 4)
    assert rows["hop_within"] == {("l", 0), ("c", 1), ("b", 2), ("a", 3), ("c", 4)}
    # the facts of every proof, at each depth a proof of that depth uses them: the invest from depth 0
    # on; each stake from the depth its look-through step is first taken
    inv, ab, bc, ca = "invest@w.facts:10", "stake@w.facts:6", "stake@w.facts:7", "stake@w.facts:8"
    expected = {(x, inv, n) for x, n in (("c", 0), ("b", 1), ("a", 2), ("c", 3), ("b", 4), ("a", 5), ("c", 6))}
    expected |= {(x, bc, n) for x, n in (("b", 1), ("a", 2), ("c", 3), ("b", 4), ("a", 5), ("c", 6))}
    expected |= {(x, ab, n) for x, n in (("a", 2), ("c", 3), ("b", 4), ("a", 5), ("c", 6))}
    expected |= {(x, ca, n) for x, n in (("c", 3), ("b", 4), ("a", 5), ("c", 6))}
    assert rows["investor_fact"] == expected
