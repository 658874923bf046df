"""What-ifs are the edited file (issue 38): ``--set`` takes one value and refuses, located, what would not
read back as it; a rename still cited is the loader's E110; a rename nothing cites is reported; and,
as a property, ``diff WORLD --without/--set ...`` reports exactly what writing that edit into the
file and diffing the two folders reports.

The world (RULES, as docs/semantics.md reads them): o1's G signals cite s1, a confirmed tier-1 source:
G.2's floor 3 is admissible under standard, so G is 3; s2 is an unaudited tier-3 source nothing cites.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provlog import World
from provlog.facts import LoadError, load_world
from provlog.facts.whatif import WhatIfError, checked_set
from provlog.queries.cli import main
from provlog.queries.diff import compare, what_if

WORLD = """\
lab acme "Acme AI"
entity reg "Registry" kind=public
entity press "Press" kind=company
source s1 "https://registry.example/1" publisher=reg status=confirmed tier=1 date=2026-01-02
source s2 "https://press.example/2" publisher=press status=unaudited tier=3
org o1 "One Evals" type=nonprofit evaluated=yes
signal o1-g o1 G for floor 3 rule=G.2
cite o1-g s1 "a published conflict policy"
signal o1-g2 o1 G for floor 1 rule=G.1
cite o1-g2 s1
stake acme o1 6% src=s1,s2
"""


@pytest.fixture
def w(tmp_path, monkeypatch):
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "a.facts").write_text(WORLD)
    monkeypatch.chdir(tmp_path)
    return World.load("w")


def run(*args):
    return CliRunner().invoke(main, ["--no-store", *args])


# -- a --set value is one value -------------------------------------------------------------------------
@pytest.mark.parametrize("assignment, col, says", [
    ("status=unaudited\nsource evil \"x\"", 17, "line end"),  # the issue's: a second statement smuggled in
    ("status=unaudited\rsource evil", 17, "line end"),
    ("status=unaudited#x", 17, "comment"),  # the value would be cut at the #
    ("status=unaudited tier=9", 17, "ends it here"),  # tier= and date= would be lost or overridden
    ('name="unclosed', 6, "does not read back"),
    ("status=a=b", 8, "another attribute"),  # a=b reads as a key a= and a value b
    ("src=s1,", 7, "comma needs a value"),
    ("src=,s1", 5, "comma needs a value"),
    ("status=", 8, "needs a value"),
    ("=x", 1, "ID KEY=VALUE"),
    ("no equals", 1, "ID KEY=VALUE"),
])
def test_a_set_value_that_would_not_read_back_is_refused_where_it_breaks(w, assignment, col, says):
    with pytest.raises(WhatIfError) as e:
        what_if(w, sets=[("s2", "tier=2"), ("s1", assignment)])
    d, = e.value.diagnostics
    assert (d.file, d.line, d.col, d.code) == ("--set", 2, col, "E104") and says in d.message
    got = run("diff", "w", "--set", "s1", assignment)
    assert got.exit_code == 1 and "--set:1:" in got.output and "Traceback" not in got.output
    assert "nothing was compared" in got.output and "value G" not in got.output


def test_one_value_in_every_form_the_language_writes():
    assert checked_set(1, 'name="A \\"quoted\\" name, with # and = inside"') == \
        ("name", '"A \\"quoted\\" name, with # and = inside"')
    assert checked_set(1, "src=s1,s2") == ("src", "s1,s2")
    assert checked_set(1, "bound=>=3") == ("bound", ">=3")


def test_a_set_keeps_every_other_value_of_the_statement(w):
    # the issue: a value with a newline lost tier= and date=; a valid one changes status alone
    r = compare(w, what_if(w, sets=[("s1", "status=unaudited")]), "standard")
    (a, b), = r.changed
    assert (str(a["tier"]), str(b["tier"]), str(a["date"]), str(b["date"])) == ("1", "1", "2026-01-02", "2026-01-02")
    assert (a["status"], b["status"]) == ("confirmed", "unaudited")


# -- a what-if gives the errors the edited file gives ----------------------------------------------------
def test_a_signal_renamed_while_cited_is_the_loader_s_e110(w, tmp_path):
    with pytest.raises(WhatIfError) as e:
        what_if(w, sets=[("o1-g", "id=o1-new")])
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "a.facts").write_text(WORLD.replace("signal o1-g o1", "signal o1-new o1"))
    with pytest.raises(LoadError) as written:
        load_world("e")
    where = lambda ds: sorted((d.code, d.line, d.col) for d in ds)  # noqa: E731
    assert where(e.value.diagnostics) == where(written.value.diagnostics) == [("E110", 8, 6)]
    got = run("diff", "w", "--set", "o1-g", "id=o1-new")
    assert got.exit_code == 1 and "w/a.facts:8:6" in got.output and "E110" in got.output


def test_a_source_renamed_that_nothing_cites_is_reported_renamed(w):
    # s2 is cited by no cite, only by the stake's src=: renamed there too it is one statement changed,
    # and nothing moves (s2 is unaudited tier 3: the stake's F.4 cap rests on s1, confirmed tier 1)
    with pytest.raises(WhatIfError) as e:  # the stake still names s2: as in the file, E110
        what_if(w, sets=[("s2", "id=s2-new")])
    assert [(d.code, d.line) for d in e.value.diagnostics] == [("E110", 11)]
    r = compare(w, what_if(w, sets=[("s2", "id=s2-new"), ("stake@w/a.facts:11", "src=s1,s2-new")]), "standard")
    assert sorted((a.fid, b.fid) for a, b in r.changed) == [("source:s2", "source:s2-new"),
                                                            ("stake@w/a.facts:11", "stake@w/a.facts:11")]
    assert r.removed == [] and r.added == [] and r.moves == []
    got = run("diff", "w", "--set", "s2", "id=s2-new", "--set", "stake@w/a.facts:11", "src=s1,s2-new")
    assert got.exit_code == 0 and "2 changed, 0 removed, 0 added" in got.output and "-> source s2-new" in got.output


def test_without_takes_the_id_out_of_src_lists_and_an_emptied_list_goes(w, tmp_path):
    r = compare(w, what_if(w, without=["s2"]), "standard")
    (a, b), = r.changed
    assert (a.src, b.src) == (("s1", "s2"), ("s1",))
    r = compare(w, what_if(w, without=["s1", "s2"]), "standard")
    stake = [b for a, b in r.changed if a.kind == "stake"][0]
    assert stake.src == ()


def test_what_names_nothing_is_said_at_its_flag(w):
    with pytest.raises(WhatIfError) as e:
        what_if(w, without=["s2", "nope"], sets=[("o1-g2", "bound=0")])
    assert [(d.file, d.line, d.code) for d in e.value.diagnostics] == [("--without", 2, "E110")]
    with pytest.raises(WhatIfError) as e:  # a statement taken away is not there to be set
        what_if(w, without=["o1-g2"], sets=[("o1-g2", "bound=0")])
    assert [(d.file, d.line, d.code) for d in e.value.diagnostics] == [("--set", 1, "E110")]


# -- the property: a what-if is the edited file -----------------------------------------------------------
IDS = ["s1", "s2", "o1-g", "o1-g2", "o1", "stake@w/a.facts:11"]
SETS = [("s1", "status", "unaudited"), ("s2", "tier", "1"), ("s2", "status", "confirmed"),
        ("o1-g", "bound", "2"), ("o1-g", "bound", "4"), ("o1-g", "id", "o1-gx"), ("s2", "id", "s2x"),
        ("s2", "date", "2026-03-04"), ("o1", "type", "vc"), ("o1-g2", "rule", "G.2"), ("s1", "tier", "9"),
        ("stake@w/a.facts:11", "pct", "20%"), ("stake@w/a.facts:11", "src", "s2")]
DECLARES = ("lab", "entity", "source", "org", "signal")


def _written(without, sets) -> str:
    """WORLD with the what-if written into it by hand, line by line (a line taken away left blank)."""
    lines = WORLD.splitlines()
    fid = lambda i, line: line.split()[1] if line.split()[0] in DECLARES else f"{line.split()[0]}@w/a.facts:{i}"  # noqa: E731
    gone = set()
    for x in without:
        for i, line in enumerate(lines, 1):
            words = line.split()
            if words and (fid(i, line) == x or (words[0] == "cite" and x in words[1:3])):
                gone.add(i)
    for i, line in enumerate(lines, 1):
        m = re.search(r" src=(\S+)", line)
        if m:
            kept = [s for s in m.group(1).split(",") if s not in without]
            lines[i - 1] = line.replace(m.group(0), f" src={','.join(kept)}" if kept else "")
    for x, key, value in sets:
        for i, line in enumerate(lines, 1):
            if i in gone or not line or fid(i, WORLD.splitlines()[i - 1]) != x:
                continue
            words = line.split(" ")
            if re.search(rf" {key}=", line):
                line = re.sub(rf" {key}=\S+", f" {key}={value}", line)
            elif key == "id":
                words[1] = value
                line = " ".join(words)
            elif key == "bound":
                words[words.index("floor") + 1] = value
                line = " ".join(words)
            elif key == "pct":
                words[3] = value
                line = " ".join(words)
            else:
                line += f" {key}={value}"
            lines[i - 1] = line
    return "\n".join("" if i in gone else line for i, line in enumerate(lines, 1)) + "\n"


def _report(r):
    """A report as both sides' folders would compare: statements by text and line, moves in full."""
    j = r.to_json()
    strip = lambda s: (s["text"], s["loc"].split("/", 1)[1])  # noqa: E731
    stm = j["statements"]
    return ([(strip(c["old"]), strip(c["new"])) for c in stm["changed"]], [strip(s) for s in stm["removed"]],
            [strip(s) for s in stm["added"]],
            {org: [(m["what"], m["key"], m["old"], m["new"], m["old_rule"], m["new_rule"]) for m in ms]
             for org, ms in j["orgs"].items()})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(IDS), max_size=2, unique=True), st.lists(st.sampled_from(SETS), max_size=2))
def test_a_what_if_is_the_edited_file(w, tmp_path, without, sets):
    edited = tmp_path / "e"
    edited.mkdir(exist_ok=True)
    (edited / "a.facts").write_text(_written(without, sets))
    asked = dict(without=without, sets=[(x, f"{k}={v}") for x, k, v in sets])
    set_ids = {x for x, _, _ in sets}
    try:
        written = World.load("e")
    except LoadError as e:
        with pytest.raises(WhatIfError) as got:
            what_if(w, **asked)
        if set_ids & set(without):  # setting what is taken away: said at the --set, before the load's errors
            assert {d.code for d in got.value.diagnostics} == {"E110"}
            return
        where = lambda ds: sorted((d.code, d.line, d.col, d.message.replace("e/", "w/")) for d in ds)  # noqa: E731
        assert where(got.value.diagnostics) == where(e.diagnostics)
        return
    if set_ids & set(without):
        with pytest.raises(WhatIfError):
            what_if(w, **asked)
        return
    assert _report(compare(w, what_if(w, **asked))) == _report(compare(w, written))
