"""`provlog import bods` as a user reads it (issue 26): a refusal is said once, in words that read.

Found by an audit: a one-error refusal (an empty file, `--within` without `--world`) printed its
message twice (once as the error, once as the summary); a subject that is a person was refused with
"a BODS subject is entity"; one bad record was "1 bad records"; a `[]` file beside a real one was
"an empty file".
"""
import json

from click.testing import CliRunner

from provlog.queries.cli import main

PUB = {"publicationDate": "2026-04-17", "bodsVersion": "0.4", "publisher": {"name": "Test Register"}}


def _st(n: str, rid: str, rtype: str, details) -> dict:
    return {"statementId": f"stmt-0000-0000-{n}-00000000000000000000", "declarationSubject": rid,
            "statementDate": "2026-04-17", "publicationDetails": PUB, "recordId": rid, "recordStatus": "new",
            "recordType": rtype, "recordDetails": details}


ENTITY = _st("e1", "e1", "entity", {"isComponent": False, "entityType": {"type": "registeredEntity"}, "name": "Acme Ltd"})
PERSON = _st("p1", "p1", "person", {"isComponent": False, "personType": "knownPerson",
                                    "names": [{"type": "legal", "fullName": "Jo Bloggs"}]})


def _rel(subject: str, party: str) -> dict:
    return _st("r1", "r1", "relationship", {
        "isComponent": False, "subject": subject, "interestedParty": party,
        "interests": [{"type": "shareholding", "directOrIndirect": "direct", "beneficialOwnershipOrControl": True,
                       "share": {"exact": 30}}]})


def _run(tmp_path, *args):
    return CliRunner().invoke(main, ["import", "bods", *map(str, args), "--out", str(tmp_path / "out")])


def test_a_one_error_refusal_is_said_once(tmp_path):
    empty = tmp_path / "zero.json"
    empty.write_text("")
    got = _run(tmp_path, empty)
    assert got.exit_code == 1
    assert got.output.count("the file is empty") == 1, got.output
    got = _run(tmp_path, empty, "--within", "1")
    assert got.exit_code != 0 and got.output.count("--within needs --world") == 1, got.output
    assert not (tmp_path / "out").exists()


def test_a_person_subject_is_refused_in_words_that_read(tmp_path):
    reg = tmp_path / "reg.json"
    reg.write_text(json.dumps([ENTITY, PERSON, _rel("p1", "e1")], indent=1))
    got = _run(tmp_path, reg)
    assert got.exit_code == 1
    assert "its subject p1 is a person record" in got.output and "a BODS subject is an entity" in got.output
    assert "1 bad record;" in got.output, got.output
    # near miss: the same file with the parties the right way round imports
    reg.write_text(json.dumps([ENTITY, PERSON, _rel("e1", "p1")], indent=1))
    assert _run(tmp_path, reg).exit_code == 0


def test_an_empty_array_beside_a_register_is_named_as_one(tmp_path):
    reg, empty = tmp_path / "reg.json", tmp_path / "empty.json"
    reg.write_text(json.dumps([ENTITY, PERSON, _rel("e1", "p1")], indent=1))
    empty.write_text("[]")
    got = _run(tmp_path, empty, reg)
    assert got.exit_code == 0
    assert f"{empty}: no statement in it (an empty file or array)" in got.output, got.output
