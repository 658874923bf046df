"""The reference lives in the repo (issue 15): the generated pages are fresh, every clause a rule or a
shipped world names has provlog's statement of it, `provlog rules` and `provlog relations` answer,
and no page links outside the repository."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog.facts import load_world
from provlog.logic import RULEBOOKS, RULES
from provlog.queries.cli import main
from provlog.queries.reference import clauses, relations

ROOT = Path(__file__).resolve().parent.parent
BOOKS = [(n, b.rules) for n, b in RULEBOOKS.items()]


def _gen():
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "docs" / "gen_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_generated_pages_are_fresh():
    gen = _gen()
    for name, make in gen.PAGES.items():
        assert (ROOT / "docs" / name).read_text(encoding="utf-8") == make(), \
            f"docs/{name} is stale: run python docs/gen_reference.py --write"


@pytest.mark.parametrize("name,book", BOOKS, ids=[n for n, _ in BOOKS])
def test_every_clause_a_rule_names_has_a_statement(name, book):
    missing = sorted({r.clause for r in book.rules} - {c for c, s in book.statements.items() if s.strip()})
    assert not missing, f"rulebook {name}: clauses with no statement in CLAUSES: {missing}"


def test_every_rule_id_the_shipped_worlds_write_has_a_statement():
    """A recorded signal's rule=, a resolution's rule= and an expect's rule= are looked up in docs/clauses.md."""
    world = load_world(ROOT / "facts" / "worlds" / "example")
    named = {f["rule"] for kw in ("signal", "resolution", "expect") for f in world.of(kw) if f["rule"]}
    assert named, "the example world names rules"
    assert not sorted(named - set(RULES.statements))


def test_held_clauses_have_statements():
    """The clauses a held clamp names (mechanics.py held(S, V, 'C14') ...) are looked up the same way."""
    held = {m for r in RULES.rules if r.head_name == "held" for m in re.findall(r"'([^']+)'\)", r.head)}
    assert held >= {"C14", "C15", "9"} and held <= set(RULES.statements)


def test_rules_prints_a_clause_with_its_rules():
    out = CliRunner().invoke(main, ["rules", "F.4b"])
    assert out.exit_code == 0, out.output
    first, *rest = out.output.splitlines()
    assert first.startswith("F.4b: ") and "20%" in first and "cap 1" in first
    text = "\n".join(rest)
    assert "lab_owner(X, L) <= stake_total(X, L, E) & (E >= Fraction(1, 5)) & lab(L)" in text
    assert "derive('F.4b', O, 'F', 'against', 'cap', 1, M)" in text


def test_rules_of_a_clause_no_rule_derives():
    out = CliRunner().invoke(main, ["rules", "G.2"])
    assert out.exit_code == 0 and "no rule derives it" in out.output


def test_rules_lists_every_clause_of_a_rulebook():
    out = CliRunner().invoke(main, ["rules", "--rulebook", "pilot"])
    ids = [line.split(":")[0] for line in out.output.splitlines()]
    assert out.exit_code == 0 and {"4.final", "6.pass", "7.repro", "5.3"} <= set(ids)
    assert len(ids) == len(clauses("pilot"))


def test_unknown_clause_and_rulebook_exit_2():
    out = CliRunner().invoke(main, ["rules", "F.44"])
    assert out.exit_code == 2 and "did you mean F.4" in out.output
    out = CliRunner().invoke(main, ["rules", "PR.1"])
    assert out.exit_code == 2 and "clause 'PR.1' is in rulebook advice: add --rulebook advice" in out.output
    out = CliRunner().invoke(main, ["relations", "--rulebook", "advise"])
    assert out.exit_code == 2 and "unknown rulebook 'advise'" in out.output


def test_relations_names_derive_and_its_meaning():
    out = CliRunner().invoke(main, ["relations"])
    assert out.exit_code == 0
    line = next(l for l in out.output.splitlines() if l.strip().startswith("derive/7"))
    assert "derive(Rule, O, D, Dir, K, N, Key)" in line and "derived signal" in line
    assert any(l.strip().startswith("stake/4 ") for l in out.output.split("derived:")[0].splitlines())


def test_relations_of_a_rulebook():
    found = {r.name: r for r in relations("advice")}
    assert found["finding"].signature == "finding(R, A, C, K)" and found["finding"].derived
    assert not found["reply"].derived
    assert all(r.meaning for r in found.values())


OUTSIDE = re.compile(r"\.\./shared|\.\./|\bseeds/|\bspec/(LANGUAGE|SEMANTICS)")


def test_no_link_leaves_the_repo():
    """A fresh clone has no ../shared (seeds/, spec/): README.md and docs/ never point there."""
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    bad = [f"{p.relative_to(ROOT)}:{i}" for p in pages
           for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert not bad, f"links outside the repository: {bad}"


def test_every_docs_path_the_pages_name_exists():
    """docs/x.md, facts/..., logic/... named in README.md and docs/ are files of the repository."""
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    named = {m for p in pages for m in re.findall(r"\b(?:docs|facts|logic|queries|explain|grammar|bench|tests)/"
                                                  r"[\w./-]*\.(?:md|py|lark|facts)\b", p.read_text(encoding="utf-8"))}
    assert named and not sorted(n for n in named if not (ROOT / n).exists())
