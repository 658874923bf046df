"""`provlog import bods`: BODS 0.4 registers into worlds (docs/import.md).

Fixtures: tests/worlds/import/roundtrip (a world, a register that joins it, and
expectations derived by hand from RULES), edges.json (each edge case of the
mapping, one relationship each), and small registers each test writes with
:func:`statement` (one fault and its near miss each). The mapping is asserted
on the written statements; the meaning on `expect` lines run by provlog's own
test command. Ids are computed here from docs/import.md's rule, not read back.
"""
import hashlib
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
PUB = {"publicationDate": "2026-02-01", "bodsVersion": "0.4", "publisher": {"name": "Norland Companies Register"}}


def rid_hash(kind: str, key: str) -> str:
    """docs/import.md: the first 12 hex of sha256(kind NUL key)."""
    return hashlib.sha256(f"{kind}\0{key}".encode()).hexdigest()[:12]


def node_id(name_slug: str, record: str) -> str:
    return f"{name_slug}-{rid_hash('bods', record)}"


def source_id(record_slug: str, statement_id: str) -> str:
    return f"bods-{record_slug}-{rid_hash('statement', statement_id)}"


def statement(n: int, record: str, rtype: str, details: dict, status: str = "new", date: str = "2025-01-01") -> dict:
    """One BODS 0.4 statement, shaped like the standard's published examples."""
    return {"statementId": f"provlog-test-statement-{n:08d}-0000-0000-0000", "declarationSubject": record,
            "statementDate": date, "publicationDetails": PUB, "recordId": record, "recordStatus": status,
            "recordType": rtype, "recordDetails": dict(details, isComponent=details.get("isComponent", False))}


def company(n, record, name):
    return statement(n, record, "entity", {"entityType": {"type": "registeredEntity"}, "name": name})


def person(n, record, *names):
    return statement(n, record, "person", {"personType": "knownPerson",
                                           "names": [{"type": t, "fullName": f} for t, f in names]})


def holding(n, record, subject, party, pct, **interest):
    return statement(n, record, "relationship", {"subject": subject, "interestedParty": party, "interests": [
        dict({"type": "shareholding", "directOrIndirect": "direct", "share": {"exact": pct}}, **interest)]})


def write(path: Path, statements) -> Path:
    """A register file: a JSON array (.json) or one statement a line (.jsonl)."""
    if path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(s) + "\n" for s in statements), encoding="utf-8")
    else:
        path.write_text(json.dumps(statements, indent=1), encoding="utf-8")
    return path


def statements_of(folder: Path, keyword: str):
    return sorted(line for f in sorted(folder.glob("*.facts")) for line in f.read_text().splitlines()
                  if line.startswith(keyword + " "))


def line_of(reg: Path, n: int) -> int:
    """The line the n-th :func:`statement` of a .json register starts on (the `{` above its statementId)."""
    lines = reg.read_text().splitlines()
    return next(i for i, l in enumerate(lines, 1) if f"provlog-test-statement-{n:08d}-" in l) - 1


def cli(*args):
    return CliRunner().invoke(main, ["import", "bods", *map(str, args)])


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
    stakes = statements_of(world / "register", "stake")
    tern = node_id("ternhollow-family-office-ltd", "nr-ternhollow")
    assert any(s.startswith(f"stake {tern} larchmere-capital 60% voting ") for s in stakes)
    # near miss: a shareholding alone carries no `voting`
    assert any(s.startswith("stake larchmere-capital veridane 4% since=") for s in stakes)


def test_output_is_deterministic_and_a_reimport_changes_only_what_changed(tmp_path, monkeypatch):
    monkeypatch.chdir(HERE)
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    import_bods(["edges.json"], a)
    import_bods(["edges.json"], b)
    assert sorted(p.name for p in a.iterdir()) == [".provlog-import", "entities.facts", "sources.facts", "structure.facts"]
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
    birch, alder = node_id("birch-capital-ltd", "e-birch"), node_id("alder-holdings-ltd", "e-alder")
    assert sorted(strip(old) - strip(new)) == [
        f"stake {birch} {alder} 35% src={source_id('r-birch', 'provlog-edge-statement-00000010-0000-0000-00')}"]
    assert sorted(strip(new) - strip(old)) == [
        f"stake {birch} {alder} 40% src={source_id('r-birch', 'provlog-edge-statement-99999999-0000-0000-00')}"]


@pytest.fixture(scope="module")
def edges(tmp_path_factory):
    out = tmp_path_factory.mktemp("edges") / "out"
    with pytest.MonkeyPatch.context() as mp:  # the report names the input as given, relative to HERE
        mp.chdir(HERE)
        report = import_bods(["edges.json"], out)
    return out, report


def test_edges_each_mapped_as_docs_import_says(edges):
    out, report = edges
    alder, birch = node_id("alder-holdings-ltd", "e-alder"), node_id("birch-capital-ltd", "e-birch")
    cedar, dana = node_id("cedar-trust", "e-cedar"), node_id("dana-quill", "p-dana")
    anon = node_id("anonymous-person-subjectexemptfromdisclo", "p-anon")
    # each record's last statement in the file (its latest; r-dana's last closes it, so its live one is named)
    src = {s["recordId"]: source_id(s["recordId"], s["statementId"]) for s in json.loads((HERE / "edges.json").read_text())}
    assert set(statements_of(out, "stake")) == {
        # an anonymous person's record: a person (its identity withheld) holding its stake
        f"stake {anon} {alder} 30% src={src['r-anon']}",
        # updated: the latest statement's share (35%, not 10%); renamed: the latest name's slug
        f"stake {birch} {alder} 35% src={src['r-birch']}",
        # circular ownership kept both ways
        f"stake {alder} {birch} 5% src={src['r-loop']}",
        # a component of an indirect relationship is a direct stake
        f"stake {cedar} {birch} 20% src={src['r-c2']}",
        # indirect, components given, but none of them a chain of shareholdings from Dana (a trustee of Cedar):
        # stated as held
        f"stake {dana} {birch} 20% src={src['r-ind']}",
        # indirect without components or a chain: stated as held; a minimum only is >=
        f"stake {alder} {cedar} >=25% src={src['r-ind2']}",
        # closed: the last live statement, ended on the closing date; votes make it `voting`
        f"stake {dana} {alder} 5-10% voting until=2025-09-30 src={source_id('r-dana', 'provlog-edge-statement-00000011-0000-0000-00')}",
    }
    # the unspecified interested party of Cedar: no node, no stake (the owner is not known)
    assert "nspecified" not in (out / "entities.facts").read_text()
    assert statements_of(out, "role") == [
        f"role {dana} board {alder} until=2025-09-30 src={source_id('r-dana', 'provlog-edge-statement-00000011-0000-0000-00')}"]
    entities = (out / "entities.facts").read_text()
    assert f'entity {birch} "Birch Capital Ltd" kind=company' in entities
    assert f'entity {node_id("republic-of-norland", "e-state")} "Republic of Norland" kind=public' in entities


def test_every_written_statement_cites_a_source_of_its_own_record(edges):
    out, _ = edges
    titles = {line.split()[1]: line for line in statements_of(out, "source")}
    for line in statements_of(out, "entity") + statements_of(out, "person") + statements_of(out, "stake"):
        if "src=" not in line:
            assert line.startswith("entity norland-companies-register-")  # the publisher names no record
            continue
        cited = line.split("src=")[1].split()[0]
        record = cited[len("bods-"):-13]  # bods-<record slug>-<12 hex>
        assert f", record {record} (" in titles[cited], line
    # every source is cited: none was declared for a statement that was not written
    body = "\n".join(line for k in ("entity", "person", "stake", "role") for line in statements_of(out, k))
    assert all(f"src={sid}" in body for sid in titles)


def test_edges_report_what_is_not_mapped(edges):
    _, report = edges
    assert report.read == {"entity": 5, "person": 2, "relationship": 14}
    assert report.records == {"entity": 4, "person": 2, "relationship": 12}
    assert {k: r.records for k, r in report.unmapped.items()} == {
        "indirect shareholding that no direct ones among its components chain: stated as held": ["r-ind"],
        "indirect shareholding that no direct ones chain: stated as held": ["r-ind2"],
        "interest trustee: no provlog statement for it": ["r-c1"],
        "relationship closed in its first statement: nothing to state": ["r-gone"],
        "relationship with no interests stated": ["r-empty"],
        "interested party unspecified (interestedPartyExemptFromDisclosure): the owner is not known, nothing "
        "written (docs/import.md, 'Unknown owners')": ["r-unspec"],
        "votingRights without a shareholding: control, not equity (F.1 counts equity)": ["r-state"],
    }
    assert report.unmapped["relationship with no interests stated"].first == "edges.json:553"


def test_a_circular_register_derives(edges):
    out, _ = edges
    w = World.load(out)
    birch, alder = node_id("birch-capital-ltd", "e-birch"), node_id("alder-holdings-ltd", "e-alder")
    # Alder -> Birch -> Alder: no lab anywhere, so no hop; the derivation ends
    assert w.hop(alder) is None
    assert w.effective_stake(birch, alder) == Fraction(35, 100)


# -- identity: a record is one node, a statement one source (issue 26.1-26.3) ----------------------------

def test_two_people_of_one_name_stay_two_nodes_each_with_its_stake(tmp_path):
    reg = write(tmp_path / "same.json", [
        company(1, "e1", "Acme Ltd"), person(2, "p1", ("legal", "Jane Smith")), person(3, "p2", ("legal", "Jane Smith")),
        holding(4, "r1", "e1", "p1", 30), holding(5, "r2", "e1", "p2", 25)])
    report = import_bods([str(reg)], tmp_path / "out")
    acme, j1, j2 = node_id("acme-ltd", "e1"), node_id("jane-smith", "p1"), node_id("jane-smith", "p2")
    assert statements_of(tmp_path / "out", "person")[0].startswith(f'person {j1} "Jane Smith"')
    assert [s.split(" src=")[0] for s in statements_of(tmp_path / "out", "stake")] == sorted(
        [f"stake {j1} {acme} 30%", f"stake {j2} {acme} 25%"])
    assert not report.unmapped
    # joining a world with one Jane Smith: neither record takes her id (which of them she is, no name says)
    world = tmp_path / "world"
    world.mkdir()
    (world / "w.facts").write_text('person jane "Jane Smith"\norg acme "Acme" type=private\n')
    report = import_bods([str(reg)], world / "register", world=world)
    assert report.matched == {"e1": "acme"}
    assert report.unmapped[next(k for k in report.unmapped if "have the name of the world's jane" in k)].records == ["p1", "p2"]
    assert [s.split(" src=")[0] for s in statements_of(world / "register", "stake")] == sorted(
        [f"stake {j1} acme 30%", f"stake {j2} acme 25%"])
    # near miss: one Jane Smith in the register is the world's Jane
    one = write(tmp_path / "one.json", [company(1, "e1", "Acme Ltd"), person(2, "p1", ("legal", "Jane Smith")),
                                        holding(4, "r1", "e1", "p1", 30)])
    assert import_bods([str(one)], world / "register", world=world).matched == {"e1": "acme", "p1": "jane"}
    assert [s.split(" src=")[0] for s in statements_of(world / "register", "stake")] == ["stake jane acme 30%"]


def test_a_person_joins_only_a_person(tmp_path):
    world = tmp_path / "world"
    world.mkdir()
    (world / "w.facts").write_text('lab veridane "Veridane"\n')
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd"), person(2, "p1", ("legal", "Veridane")),
                                      holding(3, "r1", "e1", "p1", 30)])
    report = import_bods([str(reg)], world / "register", world=world)
    assert report.matched == {}
    assert statements_of(world / "register", "person")[0].startswith(f'person {node_id("veridane", "p1")} "Veridane"')


def test_ids_of_records_sharing_a_long_prefix_and_name_are_their_own(tmp_path):
    long = "GB-COH-REGISTER-2026-" + "0" * 40
    name = "Northwind Shipping and Logistics Holdings International Limited"  # slug cut at 40
    reg = write(tmp_path / "r.json", [company(1, long + "1", name), company(2, long + "2", name),
                                      holding(3, "r1", long + "1", long + "2", 10)])
    import_bods([str(reg)], tmp_path / "out")
    ents = [e for e in statements_of(tmp_path / "out", "entity") if "Northwind" in e]
    slug = "northwind-shipping-and-logistics-holding"
    assert [e.split()[1] for e in ents] == sorted([node_id(slug, long + "1"), node_id(slug, long + "2")])
    # each cites the source of its own statement
    for e, n in zip(sorted(ents, key=lambda e: e.split()[1] != node_id(slug, long + "1")), (1, 2)):
        assert e.endswith(f"src={source_id('gb-coh-register-2026-000', f'provlog-test-statement-{n:08d}-0000-0000-0000')}")
    assert len(statements_of(tmp_path / "out", "source")) == 3


def test_an_id_collision_is_refused_naming_both_records(tmp_path, monkeypatch):
    from provlog.importers import world

    monkeypatch.setattr(world, "digest", lambda kind, key: "000000000000")  # every hash alike: a forced collision
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd"), company(2, "e2", "Acme Ltd")])
    with pytest.raises(ImportFailure, match=r"under one id, acme-ltd-000000000000: record e1 \(.*r.json:2\) and "
                                            r"record e2 \(.*r.json:\d+\)"):
        import_bods([str(reg)], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_one_record_id_for_an_entity_and_a_person_is_refused_naming_both(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "x1", "Acme Ltd"), person(2, "x1", ("legal", "Jane Smith")),
                                      company(3, "e2", "Birch Ltd"), holding(4, "r1", "e2", "x1", 30)])
    with pytest.raises(ImportFailure) as e:
        import_bods([str(reg)], tmp_path / "out")
    msg = e.value.errors[0]
    assert "record x1 is a person in statement provlog-test-statement-00000002" in msg
    assert "and an entity in statement provlog-test-statement-00000001" in msg and f"({reg}:2)" in msg
    # --skip-bad: the record is left out whole; the stake that named it has no party
    report = import_bods([str(reg)], tmp_path / "out", skip_bad=True)
    assert [s.record for s in report.skipped] == ["x1"]
    assert report.records == {"entity": 1, "relationship": 1}
    assert list(report.unmapped) == ["interested party not in the import (import the file that declares it too): "
                                     "nothing written"]


def test_a_statement_id_given_twice_with_other_content_is_refused(tmp_path):
    a, b = company(1, "e1", "Acme Ltd"), company(1, "e1", "Acme Holdings Ltd")
    with pytest.raises(ImportFailure) as e:
        import_bods([str(write(tmp_path / "r.json", [a, b]))], tmp_path / "out")
    reg = tmp_path / "r.json"
    second = [i for i, l in enumerate(reg.read_text().splitlines(), 1) if "provlog-test-statement-00000001-" in l][1] - 1
    assert e.value.errors == [f"{reg}:{second}: statement provlog-test-statement-00000001-0000-0000-0000 is "
                              f"also at {reg}:2, with other content: a statementId names one statement"]
    # near miss: the same statement twice (a register and its update both carry it) is read once
    report = import_bods([str(write(tmp_path / "r.json", [a, a]))], tmp_path / "out")
    assert report.read == {"entity": 1}
    assert report.unmapped["a statement given twice (same statementId, same content): read once"].records == ["e1"]


# -- names, subjects, unknown owners (issue 26.4-26.6) ------------------------------------------------

def test_a_person_is_written_under_the_legal_name_the_others_kept_beside_it(tmp_path):
    reg = write(tmp_path / "r.json", [
        person(1, "p1", ("former", "Dana Vole"), ("alternative", "DQ"), ("legal", "Dana Quill")),
        person(2, "p2", (None, "Ines Varrow"), ("transliteration", "Inès Varrow")),
        person(3, "p3", ("birth", "Lena Marsh"), ("alternative", "Lena Ostrow"))])
    data = json.loads(reg.read_text())
    for s in data:  # a name with no type is written without the key, as BODS does
        for n in s["recordDetails"]["names"]:
            if n["type"] is None:
                del n["type"]
    reg.write_text(json.dumps(data))
    import_bods([str(reg)], tmp_path / "out")
    people = statements_of(tmp_path / "out", "person")
    # the legal name, though listed last; the former and alternative names as a comment on the line
    assert people[0].startswith(f'person {node_id("dana-quill", "p1")} "Dana Quill" src=')
    assert people[0].endswith('# also: "DQ" (alternative), "Dana Vole" (former)')
    # no legal name: an untyped one before a transliteration
    assert people[1].startswith(f'person {node_id("ines-varrow", "p2")} "Ines Varrow"')
    # neither: the name the person is known by now before the birth name
    assert people[2].startswith(f'person {node_id("lena-ostrow", "p3")} "Lena Ostrow"')
    World.load(tmp_path / "out")  # the comments load


def test_a_relationship_whose_subject_is_a_person_is_refused_naming_it(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd"), person(2, "p1", ("legal", "Jane Smith")),
                                      holding(3, "r1", "p1", "e1", 30), holding(4, "r2", "e1", "p1", 20)])
    with pytest.raises(ImportFailure) as e:
        import_bods([str(reg)], tmp_path / "out")
    assert e.value.errors == [f"{reg}:{line_of(reg, 3)}: relationship r1 (statement provlog-test-statement-00000003-"
                              f"0000-0000-0000): its subject p1 is a person record ({reg}:{line_of(reg, 2)}); a BODS "
                              "subject is an entity"]
    report = import_bods([str(reg)], tmp_path / "out", skip_bad=True)
    # near miss: r2, Jane's stake in Acme, is written
    assert [s.split(" src=")[0] for s in statements_of(tmp_path / "out", "stake")] == [
        f"stake {node_id('jane-smith', 'p1')} {node_id('acme-ltd', 'e1')} 20%"]
    assert [s.record for s in report.skipped] == ["r1"]


def test_an_unspecified_owner_is_reported_with_its_reason_never_an_orphan_node(tmp_path):
    unspecified = statement(2, "r1", "relationship", {"subject": "e1", "interestedParty": {
        "reason": "subjectUnableToConfirmOrIdentifyBeneficialOwner", "description": "not confirmed"},
        "interests": [{"type": "shareholding", "directOrIndirect": "unknown", "share": {"exact": 100}}]})
    reg = write(tmp_path / "r.json", [company(1, "e1", "Opaque Holdings SA"), unspecified,
                                      statement(3, "p-x", "person", {"personType": "unknownPerson",
                                                                     "unspecifiedPersonDetails": {"reason": "unknown"}}),
                                      holding(4, "r2", "e1", "p-x", 10)])
    report = import_bods([str(reg)], tmp_path / "out")
    reason = ("interested party unspecified (subjectUnableToConfirmOrIdentifyBeneficialOwner): the owner is not "
              "known, nothing written (docs/import.md, 'Unknown owners')")
    assert report.unmapped[reason].records == ["r1"]
    entities = statements_of(tmp_path / "out", "entity") + statements_of(tmp_path / "out", "person")
    # the company, the register, and (near miss) the unknown person's own record: a node, with its 10%
    assert len(entities) == 3
    unknown = node_id("unknown-person-unknown-bods-record-p-x", "p-x")
    assert any(e.startswith(f'person {unknown} "Unknown person (unknown, BODS record p-x)"') for e in entities)
    assert [s.split(" src=")[0] for s in statements_of(tmp_path / "out", "stake")] == [
        f"stake {unknown} {node_id('opaque-holdings-sa', 'e1')} 10%"]


def test_control_characters_in_a_name_are_dropped(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme\x1b]0;owned\x07 Ltd\nGroup")])
    import_bods([str(reg)], tmp_path / "out")
    assert statements_of(tmp_path / "out", "entity")[0].startswith(f'entity {node_id("acme-0-owned-ltd-group", "e1")} '
                                                                    '"Acme]0;owned Ltd Group"')


# -- edge files (issue 26.7) -----------------------------------------------------------------------------

@pytest.mark.parametrize("name,text", [("empty.json", "[]\n"), ("empty.jsonl", ""), ("blank.jsonl", "\n \n")])
def test_an_empty_register_is_refused_naming_the_file(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    r = cli(tmp_path / name, "--out", tmp_path / "out")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{tmp_path / name}: no statement in it (an empty file or array)" in r.output
    assert f"provlog: nothing to write from {tmp_path / name}; nothing was written" in r.output
    assert not (tmp_path / "out").exists()


def test_an_empty_json_file_is_not_a_json_array(tmp_path):
    (tmp_path / "zero.json").write_text("")
    r = cli(tmp_path / "zero.json", "--out", tmp_path / "out")
    assert r.exit_code == 1 and f"{tmp_path / 'zero.json'}: the file is empty" in r.output


def test_relationships_whose_parties_are_in_another_file(tmp_path):
    parties = write(tmp_path / "parties.json", [company(1, "e1", "Acme Ltd"), person(2, "p1", ("legal", "Jane Smith"))])
    rels = write(tmp_path / "rels.json", [holding(3, "r1", "e1", "p1", 30)])
    r = cli(rels, "--out", tmp_path / "out")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"provlog: nothing to write from {rels}; nothing was written" in r.output
    assert "subject not in the import (import the file that declares it too): nothing written: r1" in r.output
    # near miss: both files at once
    report = import_bods([str(rels), str(parties)], tmp_path / "out")
    assert report.written["stake"] == 1 and report.files == {str(rels): 1, str(parties): 2}


@pytest.mark.parametrize("name", ["bom.json", "bom.jsonl"])
def test_a_byte_order_mark_is_read_through(tmp_path, name):
    reg = write(tmp_path / name, [company(1, "e1", "Acme Ltd")])
    reg.write_bytes(b"\xef\xbb\xbf" + reg.read_bytes())
    report = import_bods([str(reg)], tmp_path / "out")
    assert report.read == {"entity": 1}
    # the record's line is still its line
    assert f"record e1 ({reg}:{2 if name.endswith('.json') else 1})" in (tmp_path / "out" / "sources.facts").read_text()


# -- JSON that provlog does not read (issue 31.8) ---------------------------------------------------------

@pytest.mark.parametrize("name", ["r.json", "r.jsonl"])
@pytest.mark.parametrize("value,message", [
    ("1" * 5000, "a number of 5,000 characters: provlog reads JSON numbers of at most 100"),
    ("NaN", "not JSON: NaN (JSON has no NaN or Infinity)"),
    ("[" * 100_000 + "]" * 100_000, "JSON nested deeper than"),
])
def test_json_past_provlogs_bounds_is_a_located_error(tmp_path, name, value, message):
    good = json.dumps(company(1, "e1", "Acme Ltd"))
    bad = json.dumps(company(2, "e2", "Birch Ltd"))[:-1] + f', "x": {value}}}'
    reg = tmp_path / name
    reg.write_text(f"{good}\n{bad}\n" if name.endswith(".jsonl") else f"[\n{good},\n{bad}\n]\n")
    r = cli(reg, "--out", tmp_path / "out")
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert f"{reg}:{2 if name.endswith('.jsonl') else 3}: {message}" in r.output
    assert not (tmp_path / "out").exists()


# -- the output folder (issues 26.8, 31.4, 31.14) --------------------------------------------------------

@pytest.mark.parametrize("umask,mode", [(0o022, 0o755), (0o077, 0o700), (0o002, 0o775)])
def test_the_output_folder_honours_the_umask(tmp_path, umask, mode):
    import os

    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd")])
    old = os.umask(umask)
    try:
        import_bods([str(reg)], tmp_path / "out")
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == mode
    assert (tmp_path / "out" / "entities.facts").stat().st_mode & 0o777 == mode & 0o666


def _folder(path: Path) -> dict:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_out_never_replaces_what_provlog_did_not_write(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd")])
    curated = tmp_path / "world"
    curated.mkdir()
    (curated / "world.facts").write_text('lab acme "Acme"\n')
    (curated / "notes.md").write_text("my notes")
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    for target in (curated, a_file):
        before = _folder(tmp_path)
        r = cli(reg, "--out", target)
        assert r.exit_code == 1 and "Traceback" not in r.output
        assert f"--out {target} is a" in r.output and "provlog did not write" in r.output or "a file" in r.output
        assert _folder(tmp_path) == before  # untouched, and nothing new beside it
        assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "r.json", "world"]


def test_a_symlinked_out_is_refused_and_its_target_untouched(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd")])
    elsewhere = tmp_path / "elsewhere"
    import_bods([str(reg)], elsewhere)  # even a folder provlog wrote, when reached through a link
    (tmp_path / "link").symlink_to(elsewhere)
    before = _folder(elsewhere)
    with pytest.raises(ImportFailure, match="is a symbolic link"):
        import_bods([str(reg)], tmp_path / "link")
    assert _folder(elsewhere) == before and (tmp_path / "link").is_symlink()


def test_out_dot_is_refused_and_leaves_nothing_behind(tmp_path, monkeypatch):
    here = tmp_path / "here"
    here.mkdir()
    reg = write(here / "r.json", [company(1, "e1", "Acme Ltd")])
    monkeypatch.chdir(here)
    for out in (".", "..", str(here)):
        r = cli("r.json", "--out", out)
        assert r.exit_code == 1 and "the folder you are working in" in r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here"] and [p.name for p in here.iterdir()] == ["r.json"]
    assert reg.exists()


def test_a_folder_provlog_wrote_is_replaced_whole_unless_it_holds_other_files(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd")])
    out = tmp_path / "out"
    import_bods([str(reg)], out)
    write(reg, [company(1, "e1", "Acme Ltd"), company(2, "e2", "Birch Ltd")])
    import_bods([str(reg)], out)  # provlog's own folder: replaced
    assert len(statements_of(out, "entity")) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "r.json"]  # nothing aside
    # a curator's note inside it stops the next import, named
    (out / "notes.md").write_text("checked by hand")
    with pytest.raises(ImportFailure) as e:
        import_bods([str(reg)], out)
    assert "notes.md in it are not what it wrote" in e.value.render()
    assert (out / "notes.md").read_text() == "checked by hand"
    # provlog's own store of the world (docs/store.md) is not the curator's
    (out / "notes.md").unlink()
    (out / ".provlog").mkdir()
    (out / ".provlog" / "out-0123.sqlite").write_bytes(b"")
    import_bods([str(reg)], out)
    assert not (out / ".provlog").exists()


def test_a_planted_marker_does_not_make_a_folder_provlogs(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd")])
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.md").write_text("mine")
    (theirs / ".provlog-import").write_text("notes.md\n")  # claims a file no import writes
    with pytest.raises(ImportFailure, match="notes.md in it are not what it wrote"):
        import_bods([str(reg)], theirs)
    assert (theirs / "notes.md").read_text() == "mine"


def test_force_moves_the_old_target_aside_and_deletes_nothing(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd")])
    curated = tmp_path / "register"
    curated.mkdir()
    (curated / "notes.md").write_text("my notes")
    r = cli(reg, "--out", curated, "--force", "--json")
    assert r.exit_code == 0, r.output
    aside = Path(json.loads(r.stdout)["moved_aside"])
    assert aside.parent == tmp_path and aside.name.startswith("register.replaced-")
    assert (aside / "notes.md").read_text() == "my notes"
    assert statements_of(curated, "entity")


def test_a_failed_import_leaves_no_stray_folder(tmp_path):
    reg = write(tmp_path / "r.json", [company(1, "e1", "Acme Ltd")])
    world = tmp_path / "world"
    world.mkdir()
    # the world already declares an id the import writes: the check fails, nothing is written
    (world / "w.facts").write_text(f'entity {node_id("acme-ltd", "e1")} "Other"\n')
    with pytest.raises(ImportFailure) as e:
        import_bods([str(reg)], world / "new" / "register", world=world)
    assert "does not load" in e.value.render()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "world"]
    assert sorted(p.name for p in world.iterdir()) == ["w.facts"]


# -- records that fail validation -------------------------------------------------------------------------

def _bad_register(tmp_path):
    data = json.loads((HERE / "edges.json").read_text())
    data[1]["recordDetails"]["entityType"] = {"type": "corporation"}  # not in the entityType codelist
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, indent=2))
    return bad


def test_a_bad_record_stops_the_import_and_writes_nothing(tmp_path):
    bad = _bad_register(tmp_path)
    out = tmp_path / "out"
    import_bods([str(HERE / "edges.json")], out)
    before = _folder(out)
    with pytest.raises(ImportFailure) as e:
        import_bods([str(bad)], out)
    assert e.value.errors[0].startswith(f"{bad}:24: statement provlog-edge-statement-00000002")
    assert "recordDetails/entityType/type" in e.value.errors[0]
    assert _folder(out) == before  # untouched


def test_skip_bad_leaves_the_record_out_and_says_so(tmp_path):
    bad = _bad_register(tmp_path)
    report = import_bods([str(bad)], tmp_path / "out", skip_bad=True)
    assert len(report.skipped) == 1 and report.skipped[0].where == f"{bad}:24" and report.skipped[0].record == "e-birch"
    # e-birch's other statement stands alone: the record, renamed, still reads as Birch Capital
    assert report.records["entity"] == 4 and report.read["entity"] == 4


def test_cli_exit_codes_and_no_traceback(tmp_path):
    bad = _bad_register(tmp_path)
    r = cli(bad, "--out", tmp_path / "o")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"{bad}:24:" in r.output
    not_json = tmp_path / "x.json"
    not_json.write_text("[{\"a\": 1},\n oops]")
    r = cli(not_json, "--out", tmp_path / "o")
    assert r.exit_code == 1 and f"{not_json}:2:2: not JSON" in r.output
    r = cli(not_json, "--out", tmp_path / "o", "--json")
    assert r.exit_code == 1 and json.loads(r.stdout) == {
        "ok": False, "error": f"{not_json}:2:2: not JSON: Expecting value", "errors": [f"{not_json}:2:2: not JSON: Expecting value"]}
    r = cli(HERE / "edges.json", "--out", tmp_path / "o", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["written"]["stake"] == 7


def test_the_json_report_has_the_keys_docs_json_md_shows(tmp_path, monkeypatch):
    import re

    from test_json_shapes import PAGE, differences

    monkeypatch.chdir(HERE)
    block = re.search(r"## import\n\n<!-- import: .*? -->\n```json\n(.*?)\n```", PAGE.read_text(encoding="utf-8"), re.S)
    doc = json.loads(block.group(1))
    # an import that joins a world and leaves a bad record out: every list and map has entries
    bad = _bad_register(tmp_path)
    world = tmp_path / "w"
    world.mkdir()
    (world / "w.facts").write_text('org alder "Alder Holdings" type=private\n')
    real = json.loads(cli(bad, "--out", world / "register", "--world", world, "--skip-bad", "--json").stdout)
    assert real["skipped"] and real["matched"] == {"e-alder": "alder"}
    assert not differences(doc, real), "\n".join(differences(doc, real))
    failed = json.loads(cli(bad, "--out", tmp_path / "o2", "--json").stdout)
    assert set(failed) == {"ok", "error", "errors"} and failed["ok"] is False


# -- --within ---------------------------------------------------------------------------------------------

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
    # the state (the empty relationship); Alder itself matched
    assert one.matched == {"e-alder": "alder"}
    assert one.kept[1] == len(data) and one.files == {str(reg): len(data)}
    birch = node_id("birch-capital-ltd", "e-birch")
    assert any(s.startswith(f"stake {birch} alder 35%") for s in statements_of(world / "register", "stake"))
    # Cedar is in reach: its unspecified owner is reported (nothing is written for it); r-c1, Dana's
    # trusteeship of Cedar, is too (Dana is one link from Alder)
    assert any("r-unspec" in r.records for r in one.unmapped.values())
    # each kept record still names its own line of the JSON Lines file
    assert "(" + str(reg) + ":11)" in (world / "register" / "sources.facts").read_text()
    # zero links keep Alder alone, which is the world's: nothing to write, and nothing is written
    with pytest.raises(ImportFailure, match="nothing to write"):
        import_bods([str(reg)], world / "register", world=world, within=0)
    assert len(statements_of(world / "register", "source")) == one.written["source"]  # the last import's, as it was


def test_within_seeds_on_a_persons_legal_name_listed_second(tmp_path):
    pytest.importorskip("duckdb")
    world = tmp_path / "world"
    world.mkdir()
    (world / "world.facts").write_text('person dana "Dana Quill"\norg acme "Acme" type=private\n')
    reg = write(tmp_path / "r.jsonl", [company(1, "e9", "Faraway Ltd"),
                                       person(2, "p1", ("former", "Dana Vole"), ("legal", "Dana Quill")),
                                       holding(3, "r1", "e9", "p1", 40)])
    report = import_bods([str(reg)], world / "register", world=world, within=1)
    assert report.matched == {"p1": "dana"} and report.kept == (3, 3)


def test_within_reads_through_a_byte_order_mark_and_locates_bad_json(tmp_path):
    pytest.importorskip("duckdb")
    world = tmp_path / "world"
    world.mkdir()
    (world / "world.facts").write_text('org acme "Acme" type=private\n')
    reg = write(tmp_path / "r.jsonl", [company(1, "e1", "Acme Ltd"), person(2, "p1", ("legal", "Jane Smith")),
                                       holding(3, "r1", "e1", "p1", 40)])
    reg.write_bytes(b"\xef\xbb\xbf" + reg.read_bytes())
    assert import_bods([str(reg)], world / "register", world=world, within=1).matched == {"e1": "acme"}
    reg.write_text(reg.read_text(encoding="utf-8-sig") + '{"recordId": oops}\n')
    with pytest.raises(ImportFailure) as e:
        import_bods([str(reg)], world / "register", world=world, within=1)
    assert e.value.render().startswith(f"{reg}:4: not JSON (DuckDB")


def test_within_needs_a_world(tmp_path):
    with pytest.raises(ImportFailure, match="--within needs --world"):
        import_bods([str(HERE / "edges.json")], tmp_path / "o", within=1)
