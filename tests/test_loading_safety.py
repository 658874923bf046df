"""A loaded world is all its files or an error (issue 12, item 2).

Line endings: LF, CRLF and a lone CR each end a line, so a leading ``#``
comment never swallows a CR-only file, and every error names the same line
whatever the file's endings. Folder worlds: every entry under the folder is
read or reported (symlinks inside the world followed, outside refused;
dangling or looping symlinks, unreadable files and subfolders, FIFOs, a folder
named ``x.facts``). An empty world is an error. Numbers longer than
``values.MAX_NUMBER`` characters are a located error wherever the fact
language takes one (never Python's 4,300-digit int limit as a traceback).
"""
from __future__ import annotations

import errno
import os
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provlog.facts import LoadError, load_text, load_world
from provlog.facts import files, loader
from provlog.facts.values import MAX_NUMBER
from provlog.grammar.query import MAX_DIGITS
from provlog.queries.cli import main
from test_fuzz import text_of, worlds

WORLD = ['# a small world', 'lab acme "Acme AI"', 'org evalco "Eval Co" type=nonprofit', "stake acme evalco 20%"]
ENDINGS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}


def codes(world, root):
    with pytest.raises(LoadError) as e:
        load_world(world, root=root)
    return [(d.file, d.code) for d in e.value.diagnostics], e.value.diagnostics


# -- line endings ----------------------------------------------------------------------------------

@pytest.mark.parametrize("end", ENDINGS.values(), ids=ENDINGS.keys())
def test_every_line_ending_ends_a_line(end):
    """The issue's case: a CR-only file that starts with a comment held 0 statements."""
    w = load_text(end.join(WORLD) + end, "w.facts")
    assert sorted((f.kind, f.loc.line) for f in w) == [("lab", 2), ("org", 3), ("stake", 4)]


@pytest.mark.parametrize("end", ENDINGS.values(), ids=ENDINGS.keys())
def test_errors_name_the_same_line_and_column_whatever_the_endings(end, tmp_path):
    lines = WORLD[:3] + ["stake acme evalco 120%", 'lab beta "B\u00e9ta" colour=red']
    (tmp_path / "w.facts").write_bytes((end.join(lines) + end).encode("utf-8"))
    _, diags = codes(tmp_path / "w.facts", tmp_path)
    assert [(d.line, d.col, d.code) for d in diags] == [(4, 19, "E120"), (5, 17, "E102")]
    assert diags[0].source_line == "stake acme evalco 120%"  # the caret line holds no CR


@pytest.mark.parametrize("end", ENDINGS.values(), ids=ENDINGS.keys())
def test_bytes_that_are_not_utf8_are_located_whatever_the_endings(end, tmp_path):
    (tmp_path / "w.facts").write_bytes(end.join(['lab a "A"', 'lab b "Caf\xe9"']).encode("latin-1") + b"\n")
    _, diags = codes(tmp_path / "w.facts", tmp_path)
    assert [(d.line, d.col, d.code, d.source_line) for d in diags] == [(2, 11, "E152", 'lab b "Caf\ufffd"')]


def test_check_counts_every_statement_of_a_cr_only_file(tmp_path):
    (tmp_path / "w.facts").write_bytes("\r".join(WORLD).encode())
    r = CliRunner().invoke(main, ["check", str(tmp_path / "w.facts")])
    assert r.exit_code == 0 and r.output.startswith("ok: 3 statements"), r.output


@settings(max_examples=30, deadline=timedelta(seconds=5), derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.lists(st.sampled_from(list(ENDINGS.values())), min_size=1, max_size=3))
def test_the_same_world_in_any_line_endings_is_the_same_world(world, mix):
    """LF, CRLF, CR, or a mix of them line by line: the same canonical facts (so the same
    fingerprint) at the same lines."""
    lf = text_of(world)
    lines = lf.split("\n")
    ends = [mix[i % len(mix)] for i in range(len(lines) - 1)] + [""]
    for i in range(1, len(lines)):  # CR, then an empty line's LF, would be one CRLF: one line end, not two
        if ends[i - 1] == "\r" and lines[i] == "" and ends[i] == "\n":
            ends[i] = "\r"
    mixed = "".join(line + end for line, end in zip(lines, ends))

    def seen(text):
        w = load_text(text, "w.facts")
        return sorted((f.canon(), f.loc.line, f.loc.col) for f in w)

    assert seen(mixed) == seen(lf)


# -- folder entries --------------------------------------------------------------------------------

def _folder(tmp_path: Path) -> Path:
    w = tmp_path / "w"
    (w / "sub").mkdir(parents=True)
    (w / "a.facts").write_text('lab acme "Acme"\n')
    (w / "sub" / "b.facts").write_text('org evalco "Eval" type=nonprofit\n')
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "c.facts").write_text('lab beta "Beta"\n')
    return w


def test_symlinks_inside_the_world_are_followed_and_read_once(tmp_path):
    w = _folder(tmp_path)
    (w / "again.facts").symlink_to("a.facts")
    (w / "linked").symlink_to("sub")
    (w / "self").symlink_to(".")  # a loop back to the world folder: listed once
    world = load_world(w, root=tmp_path)
    assert sorted(f.kind for f in world) == ["lab", "org"]
    assert world.files == ["w/a.facts", "w/sub/b.facts"]


@pytest.mark.parametrize("name, target", [("c.facts", "../outside/c.facts"), ("more", "../outside")])
def test_symlinks_leading_out_of_the_world_are_refused(name, target, tmp_path):
    w = _folder(tmp_path)
    (w / name).symlink_to(target)
    found, diags = codes(w, tmp_path)
    assert found == [(f"w/{name}", "E154")]
    assert "outside the world folder" in diags[0].message and "outside" in diags[0].message


def test_a_symlink_out_of_the_world_that_is_no_facts_file_is_not_the_worlds(tmp_path):
    w = _folder(tmp_path)
    (tmp_path / "README").write_text("notes\n")
    (w / "README").symlink_to("../README")
    assert len(load_world(w, root=tmp_path)) == 2


@pytest.mark.parametrize("make, fragment", [
    (lambda w: (w / "gone.facts").symlink_to("nowhere.facts"), "dangling"),
    (lambda w: (w / "gone").symlink_to("nowhere"), "dangling"),  # may have been a folder of facts
    (lambda w: (w / "loop.facts").symlink_to("loop.facts"), "loops"),
    (lambda w: os.mkfifo(w / "pipe.facts"), "not a regular file"),
    (lambda w: (w / "dir.facts").mkdir(), "a folder, not a file"),
])
def test_entries_that_cannot_be_read_are_errors_naming_them(make, fragment, tmp_path):
    w = _folder(tmp_path)
    make(w)
    found, diags = codes(w, tmp_path)
    assert [c for _, c in found] == ["E150"] and found[0][0].startswith("w/")
    assert fragment in diags[0].message and (diags[0].line, diags[0].col) == (1, 1)


def test_an_unreadable_file_and_an_unreadable_subfolder_are_errors(tmp_path, monkeypatch):
    """chmod 000 does not stop root, so the refusals are simulated where the loader reads."""
    w = _folder(tmp_path)
    real_open, real_scandir = open, os.scandir

    def no_read(path, *a, **k):
        if Path(path).name == "a.facts":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, *a, **k)

    def no_list(path):
        if Path(path).name == "sub":
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(files, "open", no_read, raising=False)  # facts/files.py reads for the loader
    monkeypatch.setattr(files.os, "scandir", no_list)
    found, diags = codes(w, tmp_path)
    assert found == [("w/a.facts", "E150"), ("w/sub", "E150")]
    assert all("Permission denied" in d.message for d in diags)


@pytest.mark.parametrize("files", [{}, {"a.facts": "# nothing yet\n"}, {"a.facts": "\n", "b.facts": "  # x\r"}])
def test_an_empty_world_is_an_error(files, tmp_path):
    w = tmp_path / "w"
    w.mkdir()
    (w / "notes.txt").write_text("not facts\n")
    for name, text in files.items():
        (w / name).write_text(text)
    found, diags = codes(w, tmp_path)
    assert found == [("w", "E155")] and "empty world" in diags[0].message


def test_an_empty_text_or_file_is_an_error(tmp_path):
    for text in ("", "# only a comment\r\n"):
        with pytest.raises(LoadError) as e:
            load_text(text, "w.facts")
        assert [d.code for d in e.value.diagnostics] == ["E155"]
    (tmp_path / "w.facts").write_text("")
    assert codes(tmp_path / "w.facts", tmp_path)[0] == [("w.facts", "E155")]


# -- numbers ---------------------------------------------------------------------------------------

HUGE = "7" * 5000  # past Python's 4,300-digit limit for int()
PRELUDE = ('lab acme "A"\norg evalco "E" type=vc\nentity p "P" kind=public\n'
           'source s0 "x" publisher=p status=confirmed\n')
WEIGHTS = " ".join(f"{d}=1" for d in "GPASRMX")


@pytest.mark.parametrize("stmt", [
    "signal s1 evalco F against cap {n} rule=F.1",          # a bound
    "resolution evalco F value={n} rule=F.1",                # value=
    "assessment evalco F value={n}",
    "stake acme evalco {n}%", "stake acme evalco 0.{n}%", "stake acme evalco 1-{n}%", "stake acme evalco >={n}%",
    "money acme evalco grant amount={n}", "money acme evalco grant amount=1.{n}M",  # amounts
    "money acme evalco grant year={n}",                      # a year
    "policy evalco recusal amended={n}", "policy evalco recusal value={n}%",
    'preset p1 "x" F={n} ' + WEIGHTS, 'preset p1 "x" F=0.{n} ' + WEIGHTS,
    "result r1 evalco humaneval@1 lane=rejected percentile={n}",
    "result r1 evalco humaneval@1 lane=rejected score=0.{n} unit=fraction",
    "expect evalco F = {n}", "expect hop acme = {n}",       # expect lines
    'expect holds "lab({n})"', "expect fails \"value('evalco', 'F', 'standard', X, S, R) & (X < {n})\"",
])
def test_a_huge_number_is_a_located_error(stmt):
    text = PRELUDE + stmt.format(n=HUGE) + "\n"
    with pytest.raises(LoadError) as e:
        load_text(text, "w.facts")
    (d,) = e.value.diagnostics
    assert d.line == 5 and d.code in ("E104", "E120", "E121"), str(d)
    assert text.split("\n")[4][d.col - 1:].lstrip("\"'(>=01.-").startswith("777") or d.code != "E104", str(d)
    assert len(str(d)) < 300


def test_numbers_up_to_the_limit_load_and_one_more_character_does_not():
    """30 characters in a fact; a goal's numbers have the goal grammar's own limit (20 digits)."""
    ok, goal_ok = "1" * MAX_NUMBER, "1" * MAX_DIGITS
    w = load_text(PRELUDE + f"money acme evalco grant amount={ok}\n" + f'expect fails "lab(X) & (X == {goal_ok})"\n',
                  "w.facts")
    assert [f["amount"] for f in w.of("money")] == [int(ok)]
    for stmt, says in ((f"money acme evalco grant amount={ok}1", f"at most {MAX_NUMBER} characters"),
                       (f'expect fails "lab(X) & (X == {goal_ok}1)"', f"at most {MAX_DIGITS}")):
        with pytest.raises(LoadError) as e:
            load_text(PRELUDE + stmt + "\n", "w.facts")
        assert [d.code for d in e.value.diagnostics] == ["E104"]
        assert says in e.value.diagnostics[0].message, str(e.value.diagnostics[0])


def test_digits_inside_a_quoted_goal_constant_are_text_not_a_number():
    load_text(PRELUDE + f"expect fails \"lab('{HUGE}')\"\n", "w.facts")


def test_an_include_may_not_leave_the_world_folder(tmp_path):
    """A hostile world could include any readable file and have its lines quoted in a CI log (E154)."""
    (tmp_path / "secret.txt").write_text("password = hunter2\n")
    world = tmp_path / "w"
    world.mkdir()
    (world / "world.facts").write_text('lab a "A"\ninclude "../secret.txt"\n')
    with pytest.raises(LoadError) as e:
        load_world(world / "world.facts")
    text = e.value.render()
    assert "E154" in text and "include leads outside the world folder" in text and "hunter2" not in text
    (world / "world.facts").write_text('lab a "A"\ninclude "/dev/null"\n')  # a device outside it too
    with pytest.raises(LoadError, match="E154"):
        load_world(world / "world.facts")
    # near miss: an include into a subfolder of the world stays inside it
    (world / "sub").mkdir()
    (world / "sub" / "more.facts").write_text('lab b "B"\n')
    (world / "world.facts").write_text('lab a "A"\ninclude "sub/more.facts"\n')
    assert {f["id"] for f in load_world(world / "world.facts")} == {"a", "b"}
