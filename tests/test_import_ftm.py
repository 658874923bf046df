"""`provlog import ftm`: FollowTheMoney entities into worlds (docs/import.md).

Fixture tests/worlds/import/entities.ftm.jsonl: one entity a line, each
mapping case (and each case that is not mapped) once.
"""
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("followthemoney")

from provlog.importers import ImportFailure, import_ftm  # noqa: E402
from provlog.queries.api import World  # noqa: E402
from provlog.queries.cli import main  # noqa: E402

HERE = Path(__file__).parent / "worlds" / "import"


def _hash(entity: str) -> str:
    """docs/import.md: the first 12 hex of sha256("ftm" NUL entity id)."""
    return hashlib.sha256(("ftm\0" + entity).encode()).hexdigest()[:12]


def ftm_id(name_slug: str, entity: str) -> str:
    return f"{name_slug}-{_hash(entity)}"


def src(entity: str) -> str:
    return f"ftm-{entity}-{_hash(entity)}"


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
    ines, harbor = ftm_id("ines-varrow", "p-ines"), ftm_id("harbor-evaluation-trust", "org-harbor")
    larch, veri = ftm_id("larchmere-capital-partners", "co-larchmere"), ftm_id("veridane-systems-inc", "co-veridane")
    lena, council = ftm_id("lena-ostrow", "p-lena"), ftm_id("norland-science-council", "pb-council")
    assert _lines(out, "stake") == sorted([
        # "12.5%" and "4" both read as percentages by FtM's own number type
        f"stake {ines} {harbor} 12.5% src={src('own-2')}",
        f"stake {larch} {veri} 4% since=2024-03-01 src={src('own-1')}",
    ])
    assert _lines(out, "role") == sorted([
        # "Chair of the Board" -> board; an employment -> employee
        f"role {ines} board {harbor} since=2023-01-01 src={src('dir-1')}",
        f"role {lena} employee {veri} src={src('emp-1')}",
    ])
    assert _lines(out, "money") == sorted([
        # a grant in JPY: the flow stays, the amount (no provlog currency) does not
        f"money {council} {harbor} grant year=2025 src={src('pay-2')}",
        f"money {veri} {harbor} fee amount=250000 currency=USD year=2025 src={src('pay-1')}",
    ])
    entities = (out / "entities.facts").read_text()
    # schema kinds: Company -> company, PublicBody -> public, Organization -> other
    assert f'entity {veri} "Veridane Systems Inc." kind=company' in entities
    assert f'entity {council} "Norland Science Council" kind=public' in entities
    assert f'entity {harbor} "Harbor Evaluation Trust" kind=other' in entities
    # the publisher property names the source's publisher; the source URL rides in the title
    publisher = "norland-companies-register-" + hashlib.sha256("publisher\0Norland Companies Register".encode()).hexdigest()[:12]
    assert (f'source {src("own-1")} "FtM Ownership own-1 (entities.ftm.jsonl:7) https://register.example/own-1" '
            f'publisher={publisher} status=imported') in (out / "sources.facts").read_text()


def test_what_is_not_mapped_is_counted(imported):
    _, report = imported
    assert {k: r.records for k, r in report.unmapped.items()} == {
        "Directorship held by an entity (roles are people's)": ["dir-2"],
        "FtM schema Vessel: no provlog statement for it": ["vessel-1"],
        "Ownership with no percentage from 0 to 100": ["own-3"],  # 140
        "Payment amount negative, or not in USD, EUR or GBP: flow kept, amount left out": ["pay-2"],
        "Payment whose payer is not in the import (import the file that holds it too)": ["pay-4"],
        "Payment whose purpose names no money kind (grant, fee, investment, ...)": ["pay-3"],
    }
    assert report.unmapped["Payment whose payer is not in the import (import the file that holds it too)"].first == \
        "entities.ftm.jsonl:16"


def test_imported_world_loads_and_answers(imported):
    out, _ = imported
    w = World.load(out)
    larch, veri = ftm_id("larchmere-capital-partners", "co-larchmere"), ftm_id("veridane-systems-inc", "co-veridane")
    # Larchmere holds 4% of Veridane, a company here (no lab is declared): no hop to a lab
    assert w.effective_stake(larch, veri) * 100 == 4
    assert w.hop(larch) is None


def test_a_world_name_keeps_its_id(tmp_path, monkeypatch):
    monkeypatch.chdir(HERE)
    world = tmp_path / "w"
    world.mkdir()
    (world / "world.facts").write_text('lab veridane "Veridane Systems"\n')
    report = import_ftm(["entities.ftm.jsonl"], world / "ftm", world=world)
    assert report.matched == {"co-veridane": "veridane"}
    w = World.load(world)
    larch = ftm_id("larchmere-capital-partners", "co-larchmere")
    # now Veridane is a lab: Larchmere's 4% is a tie to it (hop 1), and makes Larchmere a lab investor
    assert w.hop(larch) == 1
    assert w.is_lab_investor(larch)
    # near miss: Lena Ostrow is Veridane's employee, and a role is not a tie
    assert w.hop(ftm_id("lena-ostrow", "p-lena")) is None


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
    assert json.loads(r.output)["skipped"][0]["where"] == f"{bad}:2"


def _entities(path: Path, *entities) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in entities))
    return path


PAYER = {"id": "co-a", "schema": "Company", "properties": {"name": ["Alder Ltd"]}}
PAYEE = {"id": "org-b", "schema": "Organization", "properties": {"name": ["Birch Institute"]}}


@pytest.mark.parametrize("amount", ["NaN", "sNaN", "1E+100000000", "Infinity", "a lot"])
def test_an_amount_that_is_not_a_number_is_a_located_error(tmp_path, amount):
    pay = {"id": "pay-1", "schema": "Payment", "properties": {"payer": ["co-a"], "beneficiary": ["org-b"],
                                                              "amount": [amount], "currency": ["USD"], "purpose": ["grant"]}}
    reg = _entities(tmp_path / "p.jsonl", PAYER, PAYEE, pay)
    r = CliRunner().invoke(main, ["import", "ftm", str(reg), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f'{reg}:3: Payment pay-1: amount "{amount}" is not a number' in r.output
    assert not (tmp_path / "o").exists()
    # --skip-bad leaves the payment out, and says so
    report = import_ftm([str(reg)], tmp_path / "o", skip_bad=True)
    assert [s.record for s in report.skipped] == ["pay-1"] and "money" not in report.written


def test_an_amount_past_the_fact_languages_digits_keeps_the_flow(tmp_path):
    # FtM reads a number in 40 digits; the fact language writes at most 30: the flow stays, the amount does not
    pay = {"id": "pay-1", "schema": "Payment", "properties": {"payer": ["co-a"], "beneficiary": ["org-b"],
                                                              "amount": ["1" * 40], "currency": ["USD"], "purpose": ["grant"]}}
    report = import_ftm([str(_entities(tmp_path / "p.jsonl", PAYER, PAYEE, pay))], tmp_path / "o")
    assert _lines(tmp_path / "o", "money") == [
        f"money {ftm_id('alder-ltd', 'co-a')} {ftm_id('birch-institute', 'org-b')} grant src={src('pay-1')}"]
    assert [r.records for k, r in report.unmapped.items() if "cannot write" in k] == [["pay-1"]]


def test_a_5000_digit_json_number_is_a_located_error(tmp_path):
    reg = tmp_path / "p.jsonl"
    reg.write_text(json.dumps(PAYER) + "\n" + '{"id": "x", "schema": "Company", "n": ' + "9" * 5000 + "}\n")
    r = CliRunner().invoke(main, ["import", "ftm", str(reg), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{reg}:2: a number of 5,000 characters" in r.output


def test_two_people_of_one_name_stay_two(tmp_path):
    a = {"id": "p-1", "schema": "Person", "properties": {"name": ["Jane Smith"]}}
    b = {"id": "p-2", "schema": "Person", "properties": {"name": ["Jane Smith"]}}
    world = tmp_path / "w"
    world.mkdir()
    (world / "w.facts").write_text('person jane "Jane Smith"\n')
    report = import_ftm([str(_entities(tmp_path / "p.jsonl", a, b))], world / "ftm", world=world)
    assert report.matched == {}
    assert [l.split()[1] for l in _lines(world / "ftm", "person")] == sorted(
        [ftm_id("jane-smith", "p-1"), ftm_id("jane-smith", "p-2")])
