"""Smoke test of the benchmarks (bench/, issue 5): a small generated world loads,
derives and yields a card; the generator is deterministic; and, when clingo is
importable, the independent ASP evaluation agrees with provlog on every value."""
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # bench/ is run from the repository root, never installed
    sys.path.insert(0, str(ROOT))

from bench.generate import generate, generate_text  # noqa: E402
from provlog.facts import DIMS, load_text  # noqa: E402
from provlog.queries.api import World  # noqa: E402

ORGS, SEED = 5, 7


@pytest.fixture(scope="module")
def world():
    facts = load_text(generate_text(ORGS, SEED), "bench-smoke.facts")
    return World(facts, name="bench-smoke")


def test_generator_is_deterministic():
    assert generate(ORGS, SEED) == generate(ORGS, SEED)
    assert generate_text(ORGS, SEED) != generate_text(ORGS, SEED + 1)


def test_world_loads_and_derives_a_card(world):
    facts = world.facts
    assert len(facts.orgs) == ORGS
    assert len(facts.of("signal")) >= 20 * ORGS
    for kind in ("lab", "entity", "person", "source", "cite", "stake", "invest", "money", "role"):
        assert facts.of(kind), kind
    card = world.card(world.orgs[0])
    assert set(card.values) == set(DIMS)
    assert card.band in ("disqualifying", "conditional", "clear")
    assert world.derivation.derived  # the structural rules fired somewhere


def test_a_generated_world_states_only_bounds_its_clauses_give():
    # bench/clauses.py: every recorded signal names a clause that gives its bound (no W120), and every
    # floor that needs a policy agrees with its org's policies and legal form (no W121); an org that
    # says revenue=labs-only has no other base (no W122); diversified is only on an org's own lab holding
    # (no W123). 60 orgs draw each reading a few times.
    import doctest

    from bench import clauses
    from provlog.logic import bounds
    from provlog.queries.lint import idle_diversified, other_bases

    facts = load_text(generate_text(60, 3), "bench-60.facts")
    assert bounds.warnings(facts) == [] and other_bases(facts) == [] and idle_diversified(facts) == []
    orgs = facts.of("org")
    assert [f["revenue"] for f in orgs].count("labs-only") >= 1 and any(f["clients"] for f in orgs)
    assert any(p["policy"] == "permits-lab-employee-donations" for p in facts.of("policy"))
    assert doctest.testmod(clauses).failed == 0


def test_clingo_agrees(world):
    if os.environ.get("CI"):
        import clingo  # noqa: F401  (CI installs the test extra: the cross-check must run there, not skip)
    pytest.importorskip("clingo")
    from bench import clingo_check

    res = clingo_check.evaluate(world.facts)
    assert len(res.values) > 0
    assert clingo_check.compare(world, res) == []


@pytest.mark.parametrize("name", ["floor4_c16", "floor4_f12", "floor4_x7", "many_cites", "floor4_f8", "floor4_f9",
                                  "floor4_g7_p8", "informational"])
def test_clingo_agrees_on_fixture_worlds(name):
    # the second-source tests (C16, F.12, X.7) are written as counts in both engines, F.8's dates on a
    # calendar index of clingo's own: same answers, and the worlds' hand-derived expects hold under clingo
    if os.environ.get("CI"):
        import clingo  # noqa: F401
    pytest.importorskip("clingo")
    from bench import clingo_check
    from provlog.facts import load_world

    w = World(load_world(ROOT / "tests" / "worlds" / "core" / f"{name}.facts"))
    res = clingo_check.evaluate(w.facts)
    assert len(res.values) > 0
    assert clingo_check.compare(w, res) == []
    assert clingo_check.check_expects(w.facts, res) == []
