"""Python joins (logic/joins.py) keep exactly the rows pyDatalog keeps.

strata.py answers plain rules and min_/len_ aggregate reads by joins over kept
tables, and leaves every other rule to pyDatalog. Here each world is derived
both ways (``strata.PYTHON_JOINS`` off, then on) and every kept relation must
hold the same rows: the fixtures, the example world and a generated world.
docs/evaluators.md says which relations each evaluator answers, and why; the
last test here pins that page's table to what strata.py does.
"""
import sys
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
    assert answers("q(X) <= t(X, Y) & q(Y)", p) is None  # recursive (q is not kept)
    assert answers("q(X) <= s(X)", p) is None  # a relation not kept as facts
    assert answers("q(X) <= r(X, L) & (f[X] == 1)", p) is None  # a function read beside other literals


#: docs/evaluators.md's table: the relations of the independence RULES that pyDatalog answers, by why.
#: Read off the rules (logic/structure.py, logic/mechanics.py): each rule's head and body shape.
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
    assert left == RECURSIVE | OTHER_SHAPES
    assert {r.head_name for r in RULES.rules if not isinstance(r.head_literal, Atom)} == AGGREGATES
    # every other relation asked is joined in Python (one known to be empty is not asked at all), so
    # the comparisons above meet both evaluators on every one of them
    heads = {r.head_name for r in RULES.rules}
    assert len(joined) > 80 and joined <= heads - RECURSIVE - OTHER_SHAPES - AGGREGATES
