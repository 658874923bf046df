"""The editors' files (issue 43, docs/editors.md): the TextMate grammar is JSON whose patterns compile,
and colours the example world's text as provlog's own scanner reads it: every statement's keyword
(and only a keyword of the fact language), every attribute name, string and comment."""
from __future__ import annotations

import json
import re
from pathlib import Path

from provlog.facts.language import LANGUAGE
from provlog.grammar.parser import tokens

ROOT = Path(__file__).resolve().parents[1]
GRAMMAR = json.loads((ROOT / "editors" / "vscode" / "syntaxes" / "provlog.tmLanguage.json").read_text())
REPO = GRAMMAR["repository"]


def _re(name: str) -> re.Pattern:
    rule = REPO[name]
    return re.compile(rule.get("match") or rule["begin"])


def test_the_grammar_is_valid_and_names_its_scope():
    assert GRAMMAR["scopeName"] == "source.provlog" and GRAMMAR["fileTypes"] == ["facts"]
    for name in REPO:
        _re(name)
    pkg = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text())
    assert pkg["contributes"]["grammars"][0]["path"] == "./syntaxes/provlog.tmLanguage.json"


def test_every_keyword_of_the_language_is_coloured_at_a_statements_start_only():
    # any word at column 1 stands where a keyword stands (an unknown one is the server's E101)
    kw = _re("keyword")
    for k in LANGUAGE.decls:
        assert kw.match(k + " x").group(0) == k, k
    assert not kw.match("  org x") and not kw.match('"org" x') and not kw.match("# org x")


def test_the_example_worlds_tokens_are_coloured_as_provlog_reads_them():
    kw, attr, string, comment = _re("keyword"), _re("attribute"), _re("string"), _re("comment")
    seen = set()
    for path in sorted((ROOT / "facts" / "worlds" / "example").glob("*.facts")):
        for line in path.read_text().split("\n"):
            for kind, start, tok in tokens(line):
                if kind == "WORD" and start == 0:
                    assert kw.match(line).group(0) == tok, line
                elif kind == "KEY":
                    m = attr.match(line, start)
                    assert m and m.group(1) + "=" == tok, line
                elif kind == "STRING":
                    assert string.match(line, start), line
                elif kind == "COMMENT":
                    assert comment.match(line, start).group(0) == tok
                seen.add(kind)
    assert {"WORD", "KEY", "STRING", "COMMENT"} <= seen
