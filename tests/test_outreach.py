"""Issue 41, item 2: `provlog outreach` letters, compared with golden files written by hand from the RULES.

tests/golden/outreach/world is one org (lodge) whose F is capped at 2 by F.7 (Ana Reyes, a Vela AI
employee, gave 12% of its 2026 revenue: "Above 10%: cap 2") and whose R is floored at 3 by R.1
(security-only redactions, stated); every other value is unevidenced. Its letter went out on
2026-08-20 with the world's 14-day window (reply by 2026-09-03); Ana has no letter yet, so hers asks
a reply 14 days after the as-of date (2026-09-15). The golden letters were written from those rules'
words; a letter's last line, its reference digest, is checked against its JSON instead.
"""
from __future__ import annotations

import email
import json
import shutil
import subprocess
from email import policy
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.queries.cli import main
from provlog.queries.letters import concerns, request_text
from provlog.queries.outreach import chosen

GOLDEN = Path(__file__).parent / "golden" / "outreach"
WORLD = GOLDEN / "world"


def run(*args):
    r = CliRunner().invoke(main, ["--no-store", *map(str, args)])
    return r


@pytest.fixture(scope="module")
def letters_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("letters") / "out"
    r = run("outreach", WORLD, out, "--people")
    assert r.exit_code == 0, r.output
    return out


def _body(md: str) -> str:
    lines = md.splitlines(keepends=True)
    assert lines[-1].startswith("Reference: ")
    return "".join(lines[:-1])


@pytest.mark.parametrize("subject", ["lodge", "ana"])
def test_letter_is_the_golden_one(letters_dir, subject):
    md = (letters_dir / f"{subject}.md").read_text(encoding="utf-8")
    assert _body(md) == (GOLDEN / f"{subject}.md").read_text(encoding="utf-8")
    doc = json.loads((letters_dir / f"{subject}.json").read_text(encoding="utf-8"))
    assert md.splitlines()[-1] == f"Reference: {doc['digest']}"


def test_letter_json_carries_card_evidence_requests_and_dates(letters_dir):
    doc = json.loads((letters_dir / "lodge.json").read_text(encoding="utf-8"))
    assert [(v["dim"], v["value"], v["rule"]) for v in doc["card"]["values"] if v["value"] is not None] == [
        ("F", 2, "F.7"), ("R", 3, "R.1")]
    assert doc["dates"] == {"written": "2026-09-01", "sent": "2026-08-20", "window": 14, "reply_by": "2026-09-03",
                            "status": "in-window"}
    f = next(e for e in doc["evidence"] if e["dim"] == "F")
    assert {(s["source"], s["span"]) for s in f["sources"]} == {
        ("lodge-site", "Ana Reyes: 12% of our 2026 revenue"), ("vela-team", "Ana Reyes, research engineer")}
    assert [(r["dim"], r["target"], r["clause"]) for r in doc["requests"]] == [("F", 3, "F.7"), ("F", 3, "F.7"),
                                                                             ("R", 4, "R.1")]


def test_person_letter_has_public_roles_only_and_asks_for_documents(letters_dir):
    doc = json.loads((letters_dir / "ana.json").read_text(encoding="utf-8"))
    assert set(doc) == {"subject", "kind", "name", "roles", "requests", "digest", "dates"}  # no card, no values
    assert doc["roles"] == [{"role": "employee", "at": "vela", "at_name": "Vela AI", "recusal": None,
                             "sources": ["vela-team"], "span": "Ana Reyes, research engineer"}]
    assert [r["about"] for r in doc["requests"]] == [["gift"], ["role"]]
    for r in doc["requests"]:  # section 12: a request for a document, never an unresolved suspicion
        assert r["text"].endswith("please send it, or tell us where it is published.")
        assert not any(w in r["text"].lower() for w in ("suspect", "suspicion", "motive", "appears to", "timing"))


def test_person_with_no_question_gets_roles_and_no_request(tmp_path):
    w = World.from_text((WORLD / "world.facts").read_text() + 'person bo "Bo Lind"\nrole bo advisor lodge\n')
    (bo,) = chosen(w, people=True, only=["bo"])
    assert bo["requests"] == [] and [r["role"] for r in bo["roles"]] == ["advisor"]
    # near miss: ana's gift still asks her, through lodge's letter
    (ana,) = chosen(w, people=True, only=["ana"])
    assert [r["about"] for r in ana["requests"]] == [["gift"], ["role"]]


def test_eml_parses_back_and_is_a_draft(letters_dir):
    for subject, name in (("lodge", "Lodge Evaluations"), ("ana", "Ana Reyes")):
        raw = (letters_dir / f"{subject}.eml").read_bytes()
        m = email.message_from_bytes(raw, policy=policy.default)
        assert m["To"] == f"{name}:;" and m["X-Unsent"] == "1"
        assert m["Date"] == "Tue, 01 Sep 2026 00:00:00 +0000"
        assert m["Message-ID"].endswith(f".{subject}@example.invalid>")
        assert "reply by 2026-09" in m["Subject"]
        assert m.get_content().replace("\r\n", "\n") == (letters_dir / f"{subject}.md").read_text(encoding="utf-8")


def test_same_world_same_bytes(letters_dir, tmp_path):
    again = tmp_path / "again"
    assert run("outreach", WORLD, again, "--people").exit_code == 0
    for p in sorted(letters_dir.iterdir()):
        assert (again / p.name).read_bytes() == p.read_bytes(), p.name


def test_only_and_unknown_subject(tmp_path):
    r = run("outreach", WORLD, tmp_path / "o", "--only", "lodge")
    assert r.exit_code == 0 and sorted(p.name for p in (tmp_path / "o").iterdir()) == ["lodge.eml", "lodge.json",
                                                                                      "lodge.md"]
    r = run("outreach", WORLD, tmp_path / "p", "--only", "ana")  # a person needs --people
    assert r.exit_code == 2 and "unknown subject 'ana'" in r.output
    (tmp_path / "file").write_text("x")
    r = run("outreach", WORLD, tmp_path / "file")
    assert r.exit_code == 1 and "is not a folder" in r.output


def test_since_writes_only_the_subjects_that_moved(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    shutil.copytree(WORLD, repo / "world")
    git = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True)
    git("init", "-q")
    git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "add", ".")
    git("-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "w")
    monkeypatch.chdir(repo)
    r = run("outreach", "world", tmp_path / "none", "--people", "--since", "HEAD")
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "none").exists() or not any((tmp_path / "none").iterdir())
    # a new fact on lodge's R (a second R.1 citation) moves lodge's evidence, not Ana's roles or requests
    with open(repo / "world" / "world.facts", "a") as f:
        f.write('source lodge-2 "Lodge Evaluations: redaction log" publisher=lodge status=confirmed tier=2\n'
                "cite lg-r lodge-2\n")
    r = run("outreach", "world", tmp_path / "moved", "--people", "--since", "HEAD")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in (tmp_path / "moved").iterdir()) == ["lodge.eml", "lodge.json", "lodge.md"]


def test_request_phrasing_and_concerns():
    assert request_text("M", 2, 3, None, "no rule derives m3_result(_, e, 3)") is None
    assert request_text("X", 2, 3, "X.1", "X.1: e sells to unspecified parties: unless the statement at w.facts:4 "
                                          "is corrected").startswith("X is 2 (X.1) because e sells to unspecified")
    assert concerns("stake ana vela 3%", "ana") is None  # neither a gift nor a role
