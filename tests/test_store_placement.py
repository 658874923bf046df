"""A stored world answers from wherever it is asked, on any day (issue 39, docs/store.md).

The world reads RULES C15 as tests/test_store.py's does: a G cap 0 citing a confirmed tier-1 source
with a span stays 0 (C15 holds an unspanned one at 1); the same cap edited to 2 makes G 2. It is a
folder with a subfolder, so that a name shown from inside the subfolder (``../main.facts``) is not
the store's with a prefix dropped.
"""
import os
import shutil
import sqlite3
import json
import textwrap
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.logic import store as S
from provlog.queries.cli import main

MAIN = textwrap.dedent("""\
    org acme "Acme" type=nonprofit evaluated=yes
    signal acme-g acme G against cap 0 rule=G.6
    cite acme-g s1 "a lab investor holds 30% of the voting shares"
    assessment acme G value=0
    """)
MORE = textwrap.dedent("""\
    entity reg "Registry" kind=public
    source s1 "https://r.example/1" publisher=reg status=confirmed tier=1
    """)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """``repo/w`` (main.facts, sub/more.facts) and a folder ``away`` outside the repository; the stores
    in a folder of this test's own."""
    monkeypatch.setenv("PROVLOG_STORE", str(tmp_path / "stores"))
    (tmp_path / "stores").mkdir()
    w = tmp_path / "repo" / "w"
    (w / "sub").mkdir(parents=True)
    (w / "main.facts").write_text(MAIN)
    (w / "sub" / "more.facts").write_text(MORE)
    (tmp_path / "away").mkdir()
    return tmp_path


def places(base: Path):
    """(working directory, the world as typed there): the repository's top, the world's folder, its
    subfolder, and a folder outside by the world's absolute path."""
    w = base / "repo" / "w"
    return [(base / "repo", "w"), (w, "."), (w / "sub", ".."), (base / "away", str(w))]


def run(monkeypatch, cwd: Path, args, store: bool = True):
    monkeypatch.chdir(cwd)
    r = CliRunner().invoke(main, args if store else ["--no-store", *args])
    return r.exit_code, r.stdout


def store_of(base: Path, world: Path) -> Path:
    return base / "stores" / S.default_path(world).name


def stamp(path: Path):
    st = path.stat()
    return st.st_ino, st.st_mtime_ns, st.st_size


COMMANDS = [["check", "{w}"], ["card", "{w}", "acme"], ["why", "{w}", "acme", "G"], ["verify", "{w}"],
            ["fingerprint", "{w}"], ["why", "{w}", "acme", "G", "--format", "json"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: "-".join(c[::2]))
def test_every_place_answers_from_one_store_as_a_no_store_run_there(repo, monkeypatch, command):
    """Stored by a card from the repository's top; then the command from each place answers from that
    store (the file is not written again: no derivation ran) with the bytes of a --no-store run there."""
    target = store_of(repo, repo / "repo" / "w")
    assert run(monkeypatch, repo / "repo", ["card", "w", "acme"])[0] == 0 and target.exists()
    seen = stamp(target)
    for cwd, typed in places(repo):
        args = [a.format(w=typed) for a in command]
        got = run(monkeypatch, cwd, args)
        assert stamp(target) == seen, f"from {cwd}: the store was written again (a derivation ran)"
        assert got == run(monkeypatch, cwd, args, store=False), f"{args} from {cwd}"
        assert got[0] == 0


def test_names_are_shown_from_where_the_user_stands(repo, monkeypatch):
    """The proof of acme's G shows the signal where it is written (main.facts line 2, by hand) and the
    source (sub/more.facts line 2), named from each place."""
    w = repo / "repo" / "w"
    want = {"w": "w/", ".": "", "..": "../", str(w): os.path.relpath(w, repo / "away") + "/"}
    assert run(monkeypatch, repo / "repo", ["card", "w", "acme"])[0] == 0
    for cwd, typed in places(repo):
        code, out = run(monkeypatch, cwd, ["why", typed, "acme", "G"])
        source = "@more.facts:2" if typed == ".." else f"@{want[typed]}sub/more.facts:2"
        assert code == 0 and f"@{want[typed]}main.facts:2" in out and source in out, (typed, out)


def test_the_world_api_reads_the_store_from_three_places(repo, monkeypatch):
    """World.load from three working directories in turn: only the first derives (the store's own
    answer: a Stored model no edit rewrote, and the file not written again)."""
    world = repo / "repo" / "w"
    hits = []
    for cwd, typed in places(repo)[:3]:
        monkeypatch.chdir(cwd)
        w = World.load(typed, store=store_of(repo, world))
        assert w.card("acme").values["G"] == 0
        w.derivation
        hits.append(isinstance(w._store, S.Stored) and w.edited is None)
    assert hits == [False, True, True]


def _note(store: Path):
    con = sqlite3.connect(store)
    try:
        got = con.execute("SELECT v FROM _meta WHERE k = 'edit'").fetchone()
    finally:
        con.close()
    return json.loads(got[0]) if got else None


@pytest.mark.parametrize("how", ["absolute", "dotdot", "symlink", "file"])
def test_an_edit_from_outside_the_world_takes_the_edit_path(repo, monkeypatch, how):
    """The world stored from the repository's top, then edited (G cap 0 -> cap 2: G = 2, by hand) and
    asked from outside it: re-read by lines (the store's edit note names the file and lines re-read)."""
    world = repo / "repo" / "w"
    if how == "file":  # a single-file world: main.facts alone, with the source it cites
        (world / "main.facts").write_text(MORE + MAIN)
        (world / "sub" / "more.facts").unlink()
        first, later = "w/main.facts", str(world / "main.facts")
        target = store_of(repo, world / "main.facts")
    else:
        first, target = "w", store_of(repo, world)
        later = {"absolute": str(world), "dotdot": "../repo/w", "symlink": str(repo / "away" / "link")}[how]
    if how == "symlink":
        os.symlink(world, repo / "away" / "link", target_is_directory=True)
    assert run(monkeypatch, repo / "repo", ["card", first, "acme"])[0] == 0
    assert _note(target) is None  # derived whole
    main_file = world / "main.facts"
    main_file.write_text(main_file.read_text().replace("G against cap 0", "G against cap 2"))
    monkeypatch.chdir(repo / "away")
    w = World.load(later, store=target)
    assert w.edited is not None and w.card("acme").values["G"] == 2
    read = _note(target)["read"]
    assert read["lines"][0] <= (4 if how == "file" else 2) and read["statements"] >= 1
    assert run(monkeypatch, repo / "away", ["card", later, "acme"]) == \
        run(monkeypatch, repo / "away", ["card", later, "acme"], store=False)


class _Day(date):
    today_is = date(2026, 12, 7)

    @classmethod
    def today(cls):
        return cls.today_is


@pytest.mark.parametrize("stated, derivations", [(True, 1), (False, 2)])
def test_a_world_that_states_its_date_is_derived_once_whatever_the_day(repo, monkeypatch, stated, derivations):
    """Asked on two days (today injected where provlog reads it: the store's key and the EDB's date):
    with an ``as-of`` statement the second day answers from the store; without one (read at today's
    date, every age moves) it derives again."""
    world = repo / "repo" / "w"
    if stated:
        (world / "main.facts").write_text("as-of 2026-06-01\n" + MAIN)
    monkeypatch.setattr("provlog.logic.store.key.date", _Day)
    monkeypatch.setattr("provlog.logic.edb.date", _Day)
    monkeypatch.chdir(repo / "repo")
    derived = 0
    for day in (date(2026, 12, 7), date(2026, 12, 8)):
        _Day.today_is = day
        w = World.load("w", store=store_of(repo, world))
        assert w.card("acme").values["G"] == 0
        w.derivation
        derived += not isinstance(w._store, S.Stored)
    assert derived == derivations


def test_a_store_of_the_older_schema_is_a_clean_miss(repo, monkeypatch):
    world = repo / "repo" / "w"
    target = store_of(repo, world)
    monkeypatch.chdir(repo / "repo")
    World.load("w", store=target).derivation
    con = sqlite3.connect(target)
    con.execute("UPDATE _meta SET v = ? WHERE k = 'schema'", (str(S.SCHEMA - 1),))
    con.commit()
    con.close()
    w = World.load("w", store=target)
    assert not isinstance(w._store, S.Stored) and w.card("acme").values["G"] == 0
    w.derivation
    assert isinstance(World.load("w", store=target)._store, S.Stored)  # written again, of this schema


def test_the_key_names_files_inside_the_world_and_not_the_working_directory(repo, monkeypatch):
    world = repo / "repo" / "w"
    keys = []
    for cwd, typed in places(repo):
        monkeypatch.chdir(cwd)
        inp = S.inputs(typed, False, None)
        assert sorted(inp["files"]) == ["main.facts", "sub/more.facts"] and "cwd" not in inp and "world" not in inp
        keys.append(S.key_of(inp))
    assert len(set(keys)) == 1
    shutil.copytree(world, repo / "away" / "w")  # the same bytes elsewhere: the key is the content's
    monkeypatch.chdir(repo / "away")
    assert S.key_of(S.inputs("w", False, None)) == keys[0]
    (repo / "away" / "w" / "main.facts").write_text(MAIN + "\n")  # near miss: one byte more
    assert S.key_of(S.inputs("w", False, None)) != keys[0]


def test_a_diff_from_every_place_is_a_no_store_diff_there(repo, monkeypatch):
    """``diff`` of the world against a copy with G's cap edited (0 -> 2: G moves 0 -> 2, by hand), both
    stored from the repository's top, asked from each place."""
    w, w2 = repo / "repo" / "w", repo / "repo" / "w2"
    shutil.copytree(w, w2)
    (w2 / "main.facts").write_text(MAIN.replace("G against cap 0", "G against cap 2"))
    assert run(monkeypatch, repo / "repo", ["diff", "w", "w2"])[0] == 0
    seen = [stamp(store_of(repo, p)) for p in (w, w2)]
    other = {"w": "w2", ".": "../w2", "..": "../../w2", str(w): str(w2)}
    for cwd, typed in places(repo):
        args = ["diff", typed, other[typed]]
        got = run(monkeypatch, cwd, args)
        assert [stamp(store_of(repo, p)) for p in (w, w2)] == seen
        assert got == run(monkeypatch, cwd, args, store=False), f"{args} from {cwd}"
        assert "G" in got[1] and "main.facts:2" in got[1]
