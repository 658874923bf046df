"""Issue 15: one output scheme on every command, hop paths people can read, the money matrix.

Every command takes ``--format`` with the formats that make sense for it and
``--json`` as an alias; every DOT output is one digraph; nothing is cut when
stdout is not a terminal. Expected values are read off the fixture worlds'
comments (tests/worlds/hops/paths.facts, tests/worlds/explain/*.facts).
"""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from provlog.queries.cli import main

HOPS = "tests/worlds/hops/paths.facts"
FLOOR = "tests/worlds/explain/floor4_held.facts"
EXAMPLE = "facts/worlds/example"


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    return r


def ok(*args) -> str:
    r = run(*args)
    assert r.exit_code == 0, r.output
    return r.output


def check_dot(text: str) -> None:
    """One digraph, braces balanced, every edge between declared nodes; rendered if graphviz is here."""
    assert len(re.findall(r"^digraph ", text, re.M)) == 1 and text.rstrip().endswith("}")
    body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)  # braces inside labels do not count
    assert body.count("{") == body.count("}")
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg"], input=text, text=True, check=True, capture_output=True)


# --- every command and format ------------------------------------------------------------------------

COMMANDS = [
    (("check", FLOOR), ("text", "json")),
    (("value", FLOOR, "clean-eval", "X"), ("text", "json")),
    (("card", FLOOR, "clean-eval"), ("text", "json", "csv")),
    (("why", FLOOR, "clean-eval", "X"), ("text", "json", "dot")),
    (("why-not", FLOOR, "clean-eval", "X", "4"), ("text", "json")),
    (("prove", EXAMPLE, "is_lab_investor(X)"), ("text", "json", "dot")),
    (("refute", FLOOR, "c16_ok('cx-none', 'all')"), ("text", "json")),
    (("query", FLOOR, "value(O, D, 'standard', X, S, R)"), ("text", "json", "csv")),
    (("hops", HOPS, "hp-office"), ("text", "json", "dot")),
    (("matrix", HOPS), ("text", "json", "csv")),
    (("results", FLOOR), ("text", "json")),
    (("fingerprint", FLOOR), ("text", "json")),
    (("test", HOPS), ("text", "json")),
]


@pytest.mark.parametrize("args, formats", COMMANDS, ids=[c[0][0] for c in COMMANDS])
def test_every_command_has_the_one_output_scheme(args, formats):
    for fmt in formats:
        out = ok(*args, "--format", fmt)
        if fmt == "json":
            assert json.loads(out) == json.loads(ok(*args, "--json"))  # --json is an alias
        elif fmt == "dot":
            check_dot(out)
        elif fmt == "csv":
            rows = list(csv.reader(io.StringIO(out)))
            assert rows and all(len(r) == len(rows[0]) for r in rows)
    assert run(*args, "--format", "xml").exit_code == 2  # a format the command does not have


def test_verify_json_exit_codes():
    doc = json.loads(run("verify", FLOOR, "--format", "json").output)
    assert doc["ok"] is True and doc["problems"] == []


def test_check_json_lists_load_errors(tmp_path):
    p = tmp_path / "bad.facts"
    p.write_text('lab acme "Acme"\nstake acme nobody 20%\n')
    r = run("check", p, "--format", "json")
    assert r.exit_code == 1
    (err,) = json.loads(r.output)["errors"]
    assert (err["line"], err["col"]) == (2, 12)


# --- why and prove: --depth/--from in every format; one digraph ---------------------------------------

def test_why_depth_and_from_cut_json_and_dot_as_text():
    full = json.loads(ok("why", FLOOR, "clean-eval", "X", "--format", "json"))
    cut = json.loads(ok("why", FLOOR, "clean-eval", "X", "--format", "json", "--depth", "1"))
    assert len(cut["nodes"]) < len(full["nodes"])
    kids = {b for a, b in cut["edges"] if a == cut["root"]}
    assert {n["id"] for n in cut["nodes"]} == kids | {cut["root"]}  # the root and its children only
    more = [n for n in cut["nodes"] if "more" in n]
    assert more and all(n["id"] == f"n{n['expand']}" for n in more)
    # --from N: the same handle as the text tree's, in every format.
    text = ok("why", FLOOR, "clean-eval", "X", "--from", "2")
    assert text.startswith("#2 FIRED cx-none (X.7)")
    sub = json.loads(ok("why", FLOOR, "clean-eval", "X", "--format", "json", "--from", "2"))
    assert sub["root"] == "n2" and sub["nodes"][0]["label"].startswith("FIRED cx-none (X.7)")
    dot = ok("why", FLOOR, "clean-eval", "X", "--format", "dot", "--depth", "1")
    check_dot(dot)
    assert "more: --from 2" in dot
    assert run("why", FLOOR, "clean-eval", "X", "--format", "dot", "--from", "999").exit_code == 2


def test_prove_with_several_answers_is_one_digraph():
    # Three lab investors in the example world (its structure.facts): one cluster each.
    dot = ok("prove", EXAMPLE, "is_lab_investor(X)", "--format", "dot")
    check_dot(dot)
    assert len(re.findall(r"subgraph cluster_\d+", dot)) == 3


# --- card --json carries the deciding signal ids -----------------------------------------------------

def test_card_json_has_the_deciding_signals():
    doc = json.loads(ok("card", FLOOR, "clean-eval", "--json"))
    assert doc["signals"]["X"] == "cx-none" and doc["rules"]["X"] == "X.7"  # as the text card shows
    assert "cx-none (X.7)" in ok("card", FLOOR, "clean-eval")


# --- hop paths -----------------------------------------------------------------------------------------

def test_hops_lists_every_shortest_path_with_labelled_ties():
    doc = json.loads(ok("hops", HOPS, "hp-office", "--json"))
    assert (doc["node"], doc["kind"], doc["hop"]) == ("hp-office", "entity", 2)
    assert doc["order"] == "lexicographic by node ids" and not doc["truncated"]
    paths = [[s["from"] for s in p] + [p[-1]["to"]] for p in doc["paths"]]
    assert paths == [["hp-office", "hp-fund-a", "hp-lab"], ["hp-office", "hp-fund-b", "hp-lab"]]
    (a1, a2), (b1, b2) = doc["paths"]
    assert [t["label"] for t in a1["ties"]] == ["stake 30%"]
    assert [t["label"] for t in a2["ties"]] == ["stake 2% since 2023"]
    assert [t["label"] for t in b2["ties"]] == ["invest led priced 2024"]
    assert a1["ties"][0]["loc"] == HOPS + ":19"
    # --limit keeps the first paths in the stated order and says it cut.
    doc = json.loads(ok("hops", HOPS, "hp-office", "--json", "--limit", "1"))
    assert len(doc["paths"]) == 1 and doc["truncated"] and doc["paths"][0][0]["to"] == "hp-fund-a"
    text = ok("hops", HOPS, "hp-office")
    assert "hp-office -[stake 10%]-> hp-fund-b -[invest led priced 2024]-> hp-lab" in text


def test_hops_of_an_org_shows_its_money_rows():
    doc = json.loads(ok("hops", HOPS, "hp-eval", "--json"))
    rows = {r["payer"]: r for r in doc["rows"]}
    assert rows["hp-office"]["bucket"] == "2" and rows["hp-office"]["currency"] == "EUR"
    assert rows["hp-office"]["year"] == 2025 and rows["hp-office"]["amount"] == 500000
    assert rows["hp-lab"]["bucket"] == "0" and rows["hp-lab"]["amount"] is None
    (step,) = doc["paths"][0]  # hp-eval is paid by the lab itself: one tie
    assert step["ties"][0]["label"] == "paid by: fee undisclosed 2024"


def test_hops_near_miss_and_unknown_names():
    doc = json.loads(ok("hops", HOPS, "hp-donor", "--json"))
    assert doc["hop"] is None and doc["paths"] == []  # paying a lab is no tie
    r = run("hops", HOPS, "hp-ofice")
    assert r.exit_code == 2 and "did you mean hp-office" in r.output


# --- the money matrix ------------------------------------------------------------------------------

def test_matrix_year_currency_and_undisclosed():
    cells = json.loads(ok("matrix", HOPS, "--json"))["orgs"]["hp-eval"]
    assert cells["2"] == {"count": 1, "amounts": {"EUR": 500000}, "undisclosed": 0}
    assert cells["0"] == {"count": 1, "amounts": {}, "undisclosed": 1}  # undisclosed, not 0
    only = json.loads(ok("matrix", HOPS, "--json", "--year", "2024"))
    assert only["year"] == 2024 and only["orgs"]["hp-eval"]["2"]["count"] == 0
    text = ok("matrix", HOPS)
    assert "500,000 EUR" in text and "1 / undisclosed" in text


def test_piped_tables_are_not_cut():
    # CliRunner's stdout is not a terminal: long ids and paths print whole.
    # (structure.facts:101 is the money row nimbrel -> keelstone, revenue 900k)
    text = ok("hops", EXAMPLE, "keelstone")
    assert "…" not in text and "facts/worlds/example/structure.facts:101" in text
    text = ok("matrix", EXAMPLE)
    assert "…" not in text and "veridane-redteam" in text and "1,100,000,000 USD" in text
