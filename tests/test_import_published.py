"""`provlog import bods` on public BODS 0.4 fixtures: the `bods-v04-fixtures` package (test extra).

No installable package ships the standard's own examples (openownership/data-standard); this one
ships a small conformance pack, each case with a spec of what a consumer must do with it
(`<case>.expected.md`). Every case imports, loads and says what it did with every record; the
three cases it has today are checked against their specs, by hand.
"""
from importlib.resources import files
from pathlib import Path

import pytest

import bods_fixtures  # the test extra installs it and libcovebods: a missing package fails, never skips
import libcovebods  # noqa: F401

from provlog.importers import import_bods  # noqa: E402
from provlog.queries.api import World  # noqa: E402
from test_import_bods import node_id, statements_of  # noqa: E402

CASES = bods_fixtures.list_cases()


def _path(case: str) -> Path:
    return Path(str(files("bods_fixtures") / "data" / f"{case}.json"))


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = {}
    for case in CASES:
        folder = tmp_path_factory.mktemp("published") / "out"
        out[case] = (folder, import_bods([str(_path(case))], folder))
    return out


def test_the_pack_is_there():
    assert {"core/01-direct-ownership", "edge-cases/10-circular-ownership", "edge-cases/11-anonymous-person"} <= set(CASES)


@pytest.mark.parametrize("case", CASES)
def test_every_case_imports_loads_and_accounts_for_each_record(imported, case):
    folder, report = imported[case]
    fixture = bods_fixtures.load(case)
    assert sum(report.read.values()) == len(fixture.statements)
    assert sum(report.records.values()) == len(set(fixture.record_ids))
    World.load(folder)  # what was written loads and derives
    # each relationship record either became a statement citing it or is named in the report
    written = "\n".join(statements_of(folder, "stake") + statements_of(folder, "role"))
    reported = {rid for r in report.unmapped.values() for rid in r.records}
    for s in fixture.by_record_type("relationship"):
        assert f"bods-{s['recordId']}-" in written or s["recordId"] in reported, s["recordId"]


def test_direct_ownership_is_one_voting_stake(imported):
    folder, report = imported["core/01-direct-ownership"]
    jane, acme = node_id("jane-smith", "rec-jane-smith-1975"), node_id("acme-holdings-ltd", "rec-acme-holdings-ltd")
    # 75% shareholding and 75% votes in one relationship: the stake carries `voting`; shares are the shareholding's
    assert [s.split(" src=")[0] for s in statements_of(folder, "stake")] == [f"stake {jane} {acme} 75% voting since=2010-01-01"]
    assert World.load(folder).effective_stake(jane, acme) * 100 == 75
    assert not report.unmapped


def test_circular_ownership_keeps_both_edges_and_ends(imported):
    folder, report = imported["edge-cases/10-circular-ownership"]
    alpha, beta = node_id("alpha-corp-ltd", "rec-alpha-corp"), node_id("beta-corp-ltd", "rec-beta-corp")
    assert [s.split(" src=")[0] for s in statements_of(folder, "stake")] == sorted(
        [f"stake {alpha} {beta} 100%", f"stake {beta} {alpha} 100%"])
    w = World.load(folder)
    # a cycle ends a chain: Alpha's effective stake in Beta is its direct 100%, not 200%
    assert w.effective_stake(alpha, beta) * 100 == 100
    assert statements_of(folder, "person") == []


def test_a_declared_unknown_owner_keeps_its_reason_and_makes_no_person(imported):
    folder, report = imported["edge-cases/11-anonymous-person"]
    reason = ("interested party unspecified (subjectUnableToConfirmOrIdentifyBeneficialOwner): the owner is not "
              "known, nothing written (docs/import.md, 'Unknown owners')")
    assert report.unmapped[reason].records == ["rec-rel-opaque-no-ubo"]
    assert statements_of(folder, "person") == [] and statements_of(folder, "stake") == []
    # the company itself is declared (its owner is what is unknown)
    assert any('"Opaque Holdings SA"' in e for e in statements_of(folder, "entity"))
