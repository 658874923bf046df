"""Datalog hops agree with networkx shortest paths on every entity (SEMANTICS "Money matrix").

Random worlds include cycles (cross-holdings, A pays B pays A, self-principals),
which must terminate and agree.
"""
import random
from pathlib import Path

import pytest

from provlog import World
from provlog.queries.money import networkx_hops, shortest_tie_path, tie_graph

STRUCTURE = Path(__file__).parent / "worlds" / "structure"


def random_world(seed: int, n: int = 14) -> str:
    rnd = random.Random(seed)
    lines = ['lab l0 "Lab Zero"', 'lab l1 "Lab One"', 'entity reg "Registry" kind=public',
             'source s "registry filing" publisher=reg status=confirmed tier=1']
    nodes = ["l0", "l1"]
    for i in range(n):
        kind = rnd.choice(["org", "entity", "person"])
        nid = f"n{i}"
        if kind == "org":
            lines.append(f'org {nid} "Org {i}" type={rnd.choice(["nonprofit", "vc", "private"])}')
        elif kind == "entity":
            lines.append(f'entity {nid} "Entity {i}" kind={rnd.choice(["fund", "pooled-fund", "company"])}')
        else:
            lines.append(f'person {nid} "Person {i}"')
        nodes.append(nid)
    stakes = set()
    for _ in range(n):
        a, b = rnd.sample(nodes, 2)
        if (a, b) not in stakes:
            stakes.add((a, b))
            lines.append(f"stake {a} {b} {rnd.choice([5, 20, 50, 60])}% src=s")
    for _ in range(n):
        a, b = rnd.sample(nodes, 2)
        kind = rnd.choice(["grant", "fee", "in-kind", "compute"])
        op = " operating" if rnd.random() < 0.5 else ""
        lines.append(f"money {a} {b} {kind}{op} src=s")
    for _ in range(n // 3):
        a, b = rnd.sample(nodes, 2)
        lines.append(f"invest {a} {b} led priced src=s")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(8))
def test_random_worlds_hops_agree(seed):
    w = World.from_text(random_world(seed), name=f"random{seed}.facts")
    assert networkx_hops(w) == {n: h for n, h in w.derivation.hops.items()}


@pytest.mark.parametrize("name", ["hops.facts", "cycles.facts", "f6_pooled.facts"])
def test_fixture_worlds_hops_agree(name):
    w = World.load(STRUCTURE / name)
    assert networkx_hops(w) == w.derivation.hops


def test_path_is_a_shortest_tie_path():
    w = World.from_text(random_world(3), name="r.facts")
    g = tie_graph(w)
    dist = {n: h for n, h in networkx_hops(w).items()}
    for node, hop in dist.items():
        path = shortest_tie_path(g, node, dist)
        assert len(path) == hop + 1 and path[0] == node
        assert w.facts.nodes[path[-1]].kind == "lab"
        assert all(g.has_edge(a, b) for a, b in zip(path, path[1:]))


def test_in_kind_without_operating_is_no_tie_and_goes_to_the_ledger():
    w = World.from_text(
        'lab l "L"\norg o "O" type=nonprofit\norg p "P" type=nonprofit\n'
        "money l o compute\nmoney l p compute operating\n", name="k.facts")
    assert w.hop("o") is None  # non-operating in-kind is no tie
    assert w.hop("p") == 1
    (row,) = w.hops("o")
    assert row.bucket == "in-kind" and row.hop is None
    (row,) = w.hops("p")
    assert row.bucket == "0" and row.path == ("l",)  # the payer is the lab itself


def test_matrix_counts_rows_by_bucket():
    w = World.from_text(
        'lab l "L"\nentity f "F" kind=fund\norg o "O" type=nonprofit\n'
        "stake f l 1%\nmoney l o fee amount=2M\nmoney f o grant amount=1.5M\nmoney l o credits amount=1k\n",
        name="m.facts")
    m = w.matrix()["o"]
    assert m["0"] == {"count": 1, "amounts": {"unstated": 2_000_000}, "undisclosed": 0}
    assert m["1"] == {"count": 1, "amounts": {"unstated": 1_500_000}, "undisclosed": 0}
    assert m["in-kind"] == {"count": 1, "amounts": {"unstated": 1000}, "undisclosed": 0}
    assert m["none"]["count"] == 0


def test_no_relation_shares_a_name_with_a_fact_predicate():
    # The strata planner (logic/strata.py) orders relations by name; a rule head that
    # reused an EDB name at another arity would be planned as if it were the EDB.
    from provlog.logic import RULES
    from provlog.logic.edb import PREDICATES

    assert {r.head_name for r in RULES.rules} & set(PREDICATES) == set()
