"""`provlog import ftm`: FollowTheMoney entities into worlds (docs/import.md).

Fixture tests/worlds/import/entities.ftm.jsonl: one entity a line, each
mapping case (and each case that is not mapped) once.
"""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("followthemoney")

from provlog.importers import ImportFailure, import_ftm  # noqa: E402
from provlog.queries.api import World  # noqa: E402
from provlog.queries.cli import main  # noqa: E402

HERE = Path(__file__).parent / "worlds" / "import"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("ftm") / "out"
    with pytest.MonkeyPatch.context() as mp:  # the report names the input as given, relative to HERE
        mp.chdir(HERE)
        report = import_ftm(["entities.ftm.jsonl"], out)
    return out, report


def _lines(out: Path, keyword: str):
    return sorted(l for f in out.glob("*.facts") for l in f.read_text().splitlines() if l.startswith(keyword + " "))


def test_ownership_directorship_employment_payment(imported):
    out, _ = imported
    assert _lines(out, "stake") == [
        # "12.5%" and "4" both read as percentages by FtM's own property
        "stake ines-varrow-da53f2 harbor-evaluation-trust-ac026a 12.5% src=ftm-own-2-caad83",
        "stake larchmere-capital-partners-f5884b veridane-systems-inc-3e8e5e 4% since=2024-03-01 src=ftm-own-1-444347",
    ]
    assert _lines(out, "role") == [
        # "Chair of the Board" -> board; an employment -> employee
        "role ines-varrow-da53f2 board harbor-evaluation-trust-ac026a since=2023-01-01 src=ftm-dir-1-5323ba",
        "role lena-ostrow-c1fe73 employee veridane-systems-inc-3e8e5e src=ftm-emp-1-ec1315",
    ]
    assert _lines(out, "money") == [
        # a grant in JPY: the flow stays, the amount (no provlog currency) does not
        "money norland-science-council-5f9db4 harbor-evaluation-trust-ac026a grant year=2025 src=ftm-pay-2-fc561b",
        "money veridane-systems-inc-3e8e5e harbor-evaluation-trust-ac026a fee amount=250000 currency=USD year=2025 src=ftm-pay-1-24288c",
    ]
    entities = (out / "entities.facts").read_text()
    # schema kinds: Company -> company, PublicBody -> public, Organization -> other
    assert 'entity veridane-systems-inc-3e8e5e "Veridane Systems Inc." kind=company' in entities
    assert 'entity norland-science-council-5f9db4 "Norland Science Council" kind=public' in entities
    assert 'entity harbor-evaluation-trust-ac026a "Harbor Evaluation Trust" kind=other' in entities
    # the publisher property names the source's publisher; the source URL rides in the title
    assert ('source ftm-own-1-444347 "FtM Ownership own-1 (entities.ftm.jsonl:7) https://register.example/own-1" '
            'publisher=norland-companies-register-967d0d status=imported') in (out / "sources.facts").read_text()


def test_what_is_not_mapped_is_counted(imported):
    _, report = imported
    assert dict(report.unmapped) == {
        "Directorship held by an entity (roles are people's)": 1,
        "FtM schema Vessel: no provlog statement for it": 1,
        "Ownership with no percentage from 0 to 100": 1,
        "Payment amount not in USD, EUR or GBP (or not a number): flow kept, amount left out": 1,
        "Payment whose payer is not in the import": 1,
        "Payment whose purpose names no money kind (grant, fee, investment, ...)": 1,
    }
    assert report.first["Payment whose payer is not in the import"] == "entities.ftm.jsonl:16"


def test_imported_world_loads_and_answers(imported):
    out, _ = imported
    w = World.load(out)
    # Larchmere holds 4% of Veridane, a company here (no lab is declared): no hop to a lab
    assert w.effective_stake("larchmere-capital-partners-f5884b", "veridane-systems-inc-3e8e5e") * 100 == 4
    assert w.hop("larchmere-capital-partners-f5884b") is None


def test_a_world_name_keeps_its_id(tmp_path, monkeypatch):
    monkeypatch.chdir(HERE)
    world = tmp_path / "w"
    world.mkdir()
    (world / "world.facts").write_text('lab veridane "Veridane Systems"\n')
    report = import_ftm(["entities.ftm.jsonl"], world / "ftm", world=world)
    assert report.matched == {"co-veridane": "veridane"}
    w = World.load(world)
    # now Veridane is a lab: Larchmere's 4% is a tie to it (hop 1), and makes Larchmere a lab investor
    assert w.hop("larchmere-capital-partners-f5884b") == 1
    assert w.is_lab_investor("larchmere-capital-partners-f5884b")
    # near miss: Lena Ostrow is Veridane's employee, and a role is not a tie
    assert w.hop("lena-ostrow-c1fe73") is None


def test_bad_entities_are_located(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "schema": "Company", "properties": {"name": ["A"]}}\n'
                   '{"id": "b", "schema": "NoSuchSchema", "properties": {}}\n')
    with pytest.raises(ImportFailure) as e:
        import_ftm([str(bad)], tmp_path / "o")
    assert e.value.errors[0].startswith(f"{bad}:2: not a FollowTheMoney entity")
    assert not (tmp_path / "o").exists()
    r = CliRunner().invoke(main, ["import", "ftm", str(bad), "--out", str(tmp_path / "o"), "--skip-bad", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["written"] == {"entity": 2, "source": 1}
