"""`provlog import bods`: BODS 0.4 registers into worlds (docs/import.md).

Fixtures: tests/worlds/import/roundtrip (a world, a register that joins it, and
expectations derived by hand from RULES), edges.json (each edge case of the
mapping, one relationship each). The mapping is asserted on the written
statements; the meaning on `expect` lines run by provlog's own test command.
"""
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("libcovebods")

from provlog.importers import ImportFailure, import_bods  # noqa: E402
from provlog.queries.api import World  # noqa: E402
from provlog.queries.cli import main  # noqa: E402

HERE = Path(__file__).parent / "worlds" / "import"


def _statements(folder: Path, keyword: str):
    return sorted(line for f in sorted(folder.glob("*.facts")) for line in f.read_text().splitlines()
                  if line.startswith(keyword + " "))


@pytest.fixture
def joined(tmp_path, monkeypatch):
    """The round-trip world with its register imported into world/register."""
    monkeypatch.chdir(HERE)  # source titles name the register as given: roundtrip/register.json
    world = tmp_path / "world"
    world.mkdir()
    shutil.copy(HERE / "roundtrip" / "world.facts", world)
    report = import_bods(["roundtrip/register.json"], world / "register", world=world)
    return world, report


def test_round_trip_expectations_hold(joined):
    world, report = joined
    assert set(report.matched.values()) == {"veridane", "quorvell", "larchmere-capital"}
    shutil.copy(HERE / "roundtrip" / "expect.facts.txt", world / "expect.facts")
    results = World.load(world).check_expects()
    failed = [f"{r.loc}: {r.text}: got {r.got}" for r in results if not r.ok]
    assert len(results) == 16 and not failed, failed


def test_why_ends_at_the_registers_record(joined):
    world, _ = joined
    text = str(World.load(world).why("quorvell", "F", policy="leads-included"))
    # the stake of 25-50% came from relationship nr-r2, at line 167 of the register
    assert "bods-nr-r2-" in text
    sources = (world / "register" / "sources.facts").read_text()
    assert "record nr-r2 (roundtrip/register.json:167)" in sources


def test_shares_and_votes_in_one_relationship_make_one_voting_stake(joined):
    world, _ = joined
    stakes = _statements(world / "register", "stake")
    assert any(s.startswith("stake ternhollow-family-office-ltd-1fc2a5 larchmere-capital 60% voting ") for s in stakes)
    # near miss: a shareholding alone carries no `voting`
    assert any(s.startswith("stake larchmere-capital veridane 4% since=") for s in stakes)


def test_output_is_deterministic_and_a_reimport_changes_only_what_changed(tmp_path, monkeypatch):
    monkeypatch.chdir(HERE)
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    import_bods(["edges.json"], a)
    import_bods(["edges.json"], b)
    for f in sorted(a.iterdir()):
        assert f.read_bytes() == (b / f.name).read_bytes()
    # the register publishes one update: Birch's share of Alder 35% -> 40%, a new statement
    data = json.loads((HERE / "edges.json").read_text())
    upd = json.loads(json.dumps(next(s for s in data if s["recordId"] == "r-birch" and s["recordStatus"] == "updated")))
    upd.update(statementId="provlog-edge-statement-99999999-0000-0000-00", statementDate="2025-12-01")
    upd["recordDetails"]["interests"][0]["share"] = {"exact": 40}
    reg = tmp_path / "edges2.json"
    reg.write_text(json.dumps(data + [upd], indent=2))
    import_bods([str(reg)], c)
    old = {l for f in a.glob("*.facts") for l in f.read_text().splitlines() if l and not l.startswith("#")}
    new = {l for f in c.glob("*.facts") for l in f.read_text().splitlines() if l and not l.startswith("#")}
    # other sources name the register file, which moved: compare statements without their source titles
    strip = lambda ls: {l for l in ls if not l.startswith("source ")}
    assert sorted(strip(old) - strip(new)) == [
        "stake birch-capital-ltd-94cd56 alder-holdings-ltd-a18970 35% src=bods-r-birch-207af8"]
    added = sorted(strip(new) - strip(old))
    assert len(added) == 1 and added[0].startswith("stake birch-capital-ltd-94cd56 alder-holdings-ltd-a18970 40% src=bods-r-birch-")


@pytest.fixture(scope="module")
def edges(tmp_path_factory):
    out = tmp_path_factory.mktemp("edges") / "out"
    with pytest.MonkeyPatch.context() as mp:  # the report names the input as given, relative to HERE
        mp.chdir(HERE)
        report = import_bods(["edges.json"], out)
    return out, report


def test_edges_each_mapped_as_docs_import_says(edges):
    out, report = edges
    stakes = _statements(out, "stake")
    roles = _statements(out, "role")
    want = {
        # anonymous person: a placeholder person holding its stake
        "stake anonymous-person-subjectexemptfromdisclo-fcac39 alder-holdings-ltd-a18970 30% src=bods-r-anon-4ddf0c",
        # updated: the latest statement's share (35%, not 10%); renamed: the latest name's id
        "stake birch-capital-ltd-94cd56 alder-holdings-ltd-a18970 35% src=bods-r-birch-207af8",
        # circular ownership kept both ways
        "stake alder-holdings-ltd-a18970 birch-capital-ltd-94cd56 5% src=bods-r-loop-dc0a4c",
        # a component of an indirect relationship is a direct stake
        "stake cedar-trust-f347ff birch-capital-ltd-94cd56 20% src=bods-r-c2-f13741",
        # indirect without components or a chain: stated as held; a minimum only is >=
        "stake alder-holdings-ltd-a18970 cedar-trust-f347ff >=25% src=bods-r-ind2-9b520e",
        # closed: the last live statement, ended on the closing date; votes make it `voting`
        "stake dana-quill-04e1e9 alder-holdings-ltd-a18970 5-10% voting until=2025-09-30 src=bods-r-dana-f9ff1a",
        # an unspecified interested party: a placeholder entity; an exclusive minimum is >
        "stake unspecified-interestedpartyexemptfromdis-6e62ae cedar-trust-f347ff >50% src=bods-r-unspec-d9b4f7",
    }
    assert set(stakes) == want
    assert roles == ["role dana-quill-04e1e9 board alder-holdings-ltd-a18970 until=2025-09-30 src=bods-r-dana-f9ff1a"]
    assert 'entity birch-capital-ltd-94cd56 "Birch Capital Ltd" kind=company' in (out / "entities.facts").read_text()
    assert 'entity republic-of-norland-cdf914 "Republic of Norland" kind=public' in (out / "entities.facts").read_text()


def test_edges_report_what_is_not_mapped(edges):
    _, report = edges
    assert report.read == {"entity": 5, "person": 2, "relationship": 14}
    assert dict(report.unmapped) == {
        "indirect relationship with component records: derived from its components": 1,
        "indirect shareholding with no components: stated as held": 1,
        "interest trustee: no provlog statement for it": 1,
        "relationship closed in its first statement: nothing to state": 1,
        "relationship with no interests stated": 1,
        "unspecified interested party (interestedPartyExemptFromDisclosure): written as a placeholder entity": 1,
        "votingRights without a shareholding: control, not equity (F.1 counts equity)": 1,
    }
    assert report.first["relationship with no interests stated"] == "edges.json:553"


def test_a_circular_register_derives(edges):
    out, _ = edges
    w = World.load(out)
    # Alder -> Birch -> Alder: no lab anywhere, so no hop; the derivation ends
    assert w.hop("alder-holdings-ltd-a18970") is None
    assert w.effective_stake("birch-capital-ltd-94cd56", "alder-holdings-ltd-a18970") == Fraction(35, 100)


def _bad_register(tmp_path):
    data = json.loads((HERE / "edges.json").read_text())
    data[1]["recordDetails"]["entityType"] = {"type": "corporation"}  # not in the entityType codelist
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, indent=2))
    return bad


def test_a_bad_record_stops_the_import_and_writes_nothing(tmp_path):
    bad = _bad_register(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.facts").write_text("lab keep \"Kept\"\n")
    with pytest.raises(ImportFailure) as e:
        import_bods([str(bad)], out)
    assert e.value.errors[0].startswith(f"{bad}:24: statement provlog-edge-statement-00000002")
    assert "recordDetails/entityType/type" in e.value.errors[0]
    assert [p.name for p in out.iterdir()] == ["keep.facts"]  # untouched


def test_skip_bad_leaves_the_record_out_and_says_so(tmp_path):
    bad = _bad_register(tmp_path)
    report = import_bods([str(bad)], tmp_path / "out", skip_bad=True)
    assert len(report.skipped) == 1 and ":24:" in report.skipped[0]
    assert report.read["entity"] == 4


def test_cli_exit_codes_and_no_traceback(tmp_path):
    bad = _bad_register(tmp_path)
    r = CliRunner().invoke(main, ["import", "bods", str(bad), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{bad}:24:" in r.output
    not_json = tmp_path / "x.json"
    not_json.write_text("[{\"a\": 1},\n oops]")
    r = CliRunner().invoke(main, ["import", "bods", str(not_json), "--out", str(tmp_path / "o")])
    assert r.exit_code == 1 and f"{not_json}:2:2: not JSON" in r.output
    r = CliRunner().invoke(main, ["import", "bods", str(HERE / "edges.json"), "--out", str(tmp_path / "o"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["written"]["stake"] == 7


def test_within_keeps_what_is_in_reach_of_the_world(tmp_path):
    pytest.importorskip("duckdb")
    world = tmp_path / "world"
    world.mkdir()
    (world / "world.facts").write_text('org alder "Alder Holdings" type=private\n')
    data = json.loads((HERE / "edges.json").read_text())
    reg = tmp_path / "edges.jsonl"
    reg.write_text("".join(json.dumps(s) + "\n" for s in data))
    one = import_bods([str(reg)], world / "register", world=world, within=1)
    # one link from Alder: Birch (both ways), Dana, the anonymous holder, Cedar (Alder's indirect stake),
    # the state (the empty relationship); Alder itself matched; not the unspecified holder of Cedar (two links)
    assert one.matched == {"e-alder": "alder"}
    assert one.kept[1] == len(data)
    stakes = _statements(world / "register", "stake")
    assert all("unspecified" not in s for s in stakes)
    assert any(s.startswith("stake birch-capital-ltd-94cd56 alder 35%") for s in stakes)
    # each kept record still names its own line of the JSON Lines file
    assert "(" + str(reg) + ":11)" in (world / "register" / "sources.facts").read_text()
    two = import_bods([str(reg)], world / "register", world=world, within=2)
    assert two.kept[0] > one.kept[0]
    assert any("unspecified" in s for s in _statements(world / "register", "stake"))


def test_within_needs_a_world(tmp_path):
    with pytest.raises(ImportFailure, match="--within needs --world"):
        import_bods([str(HERE / "edges.json")], tmp_path / "o", within=1)


def _published_examples():
    """BODS's own examples (openownership/data-standard, examples/*.json), where a checkout is named by
    $BODS_EXAMPLES; they are not copied into this repository."""
    import os

    folder = os.environ.get("BODS_EXAMPLES")
    return sorted(Path(folder).glob("*.json")) if folder else []


@pytest.mark.skipif(not _published_examples(), reason="set BODS_EXAMPLES to a checkout's examples/ folder")
@pytest.mark.parametrize("example", _published_examples(), ids=lambda p: p.name)
def test_published_examples_import_and_load(example, tmp_path):
    try:
        report = import_bods([str(example)], tmp_path / "out", skip_bad=True)
    except ImportFailure as e:  # an example may be a fragment the schema refuses as a whole
        pytest.skip(f"{example.name}: {e}")
    assert sum(report.read.values()) > 0
    World.load(tmp_path / "out")  # what was written loads and derives
