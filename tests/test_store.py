"""The stored model (logic/store/, docs/store.md): same answers as a derivation, never a stale one.

The small world below reads RULES C15 (as tests/worlds/core/bands.facts does): a G cap 0 citing a
confirmed tier-1 source with a span stays 0; without the span C15 holds it at 1.
"""
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from provlog import World
from provlog.facts import DIMS
from provlog.logic import store as S

EXAMPLE = Path(__file__).resolve().parent.parent / "facts" / "worlds" / "example"
POLICIES = ("leads-included", "standard", "against-interest", "verified-spans", "primary-only")

MAIN = textwrap.dedent("""\
    include "more.facts"
    org acme "Acme" type=nonprofit evaluated=yes
    signal acme-g acme G against cap 0 rule=G.6
    cite acme-g s1 "a lab investor holds 30% of the voting shares"
    """)
MORE = textwrap.dedent("""\
    entity reg "Registry" kind=public
    source s1 "https://r.example/1" publisher=reg status=confirmed tier=1
    """)


@pytest.fixture
def world(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "main.facts").write_text(MAIN)
    (tmp_path / "w" / "more.facts").write_text(MORE)
    return tmp_path / "w" / "main.facts"


def stored(path, **kw):
    """Load with the default store; whether the answer came from the store as it was (not one an edit
    rewrote: tests/test_edit.py)."""
    w = World.load(path, store=True, **kw)
    w.derivation  # a miss derives, and writes the store
    return w, isinstance(w._store, S.Stored) and w.edited is None


def test_second_load_reads_the_store_and_answers_the_same(world):
    w1, hit1 = stored(world)
    w2, hit2 = stored(world)
    assert (hit1, hit2) == (False, True)
    assert w1.value("acme", "G").value == w2.value("acme", "G").value == 0  # C15 does not hold: spanned


def test_stored_example_world_answers_as_its_derivation(tmp_path):
    live = World.load(EXAMPLE)
    World.load(EXAMPLE, store=tmp_path / "ex.sqlite").derivation
    st = World.load(EXAMPLE, store=tmp_path / "ex.sqlite")
    assert isinstance(st._store, S.Stored)
    assert set(live.facts) == set(st.facts.facts) and live.facts.files == st.facts.files
    assert live.signals() == st.signals() and live.fingerprint() == st.fingerprint()
    for org in live.orgs:
        assert live.hops(org) == st.hops(org)
        for pol in POLICIES:
            assert live.card(org, pol) == st.card(org, pol)
            for dim in DIMS:
                assert live.why(org, dim, pol, fmt="json") == st.why(org, dim, pol, fmt="json")
                assert live.why_not(org, dim, 4, pol) == st.why_not(org, dim, 4, pol)
    assert live.matrix() == st.matrix() and live.verify() == st.verify() and live.results() == st.results()
    assert [(r.ok, r.got) for r in live.check_expects()] == [(r.ok, r.got) for r in st.check_expects()]
    assert live.query("lab_owner(X, L)") == st.query("lab_owner(X, L)")  # a goal: the store derives once


@pytest.mark.parametrize("change", ["edit", "edit include", "add", "remove", "rename", "strict", "as_of",
                                    "version", "rules", "another user"])
def test_any_input_change_misses(world, monkeypatch, change):
    folder = world.parent
    stored(folder)
    kw = {}
    if change == "edit":
        world.write_text(MAIN.replace(' "a lab investor holds 30% of the voting shares"', ""))
    elif change == "edit include":
        (folder / "more.facts").write_text(MORE.replace("tier=1", "tier=2"))
    elif change == "add":
        (folder / "extra.facts").write_text('org beta "Beta" type=nonprofit evaluated=yes\n')
    elif change == "remove":
        (folder / "main.facts").write_text(MAIN.replace('include "more.facts"\n', "") + MORE)
        (folder / "more.facts").unlink()
    elif change == "rename":
        (folder / "more.facts").rename(folder / "more2.facts")
        world.write_text(MAIN.replace("more.facts", "more2.facts"))
    elif change == "strict":
        kw["strict"] = True
    elif change == "as_of":
        kw["as_of"] = "2001-01-01"
    elif change == "version":
        monkeypatch.setattr(S.key, "_version", lambda: "999")
    elif change == "rules":
        monkeypatch.setattr(S.key, "_code_hash", lambda: "other rules")
    elif change == "another user":  # or a store shipped beside the world: made with another secret
        monkeypatch.setenv("XDG_CACHE_HOME", str(folder.parent / "other-cache"))
    w, hit = stored(folder, **kw)
    assert not hit
    if change == "edit":
        assert w.value("acme", "G").value == 1  # no span: C15 holds the cap 0 at 1
    if change == "add":
        assert "beta" in w.orgs


def test_a_file_world_misses_when_its_include_changes(world):
    stored(world)
    (world.parent / "more.facts").write_text(MORE + "# a comment changes the bytes\n")
    assert not stored(world)[1]
    assert stored(world)[1]


@pytest.mark.parametrize("damage", ["truncate", "garbage", "empty", "pages"])
def test_a_damaged_store_is_reported_ignored_and_rebuilt(world, capfd, damage):
    stored(world)
    target = S.default_path(world)
    data = target.read_bytes()
    if damage == "truncate":
        target.write_bytes(data[: len(data) // 2])
    elif damage == "garbage":
        target.write_bytes(b"not a database" * 100)
    elif damage == "empty":
        target.write_bytes(b"")
    else:  # the header intact, every page after the first overwritten
        target.write_bytes(data[:4096] + b"\xff" * (len(data) - 4096))
    capfd.readouterr()
    w = World.load(world, store=True)
    assert w.value("acme", "G").value == 0
    err = capfd.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "store" in err
    assert stored(world)[1]  # rebuilt whole by the derivation above


def test_an_unknown_tag_is_refused_not_run():
    with pytest.raises(S.StoreError):
        S.decode('{"__reduce__": ["os.system", "true"]}')
    assert S.decode(S.encode({"a": (1, None)})) == {"a": (1, None)}


def test_no_pickle_or_eval_in_the_store():
    for module in Path(S.__file__).parent.glob("*.py"):
        text = module.read_text()
        for word in ("import pickle", "import marshal", "eval(", "exec("):
            assert word not in text, module


def _run(code: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=300)


def test_a_stored_card_never_imports_pydatalog(world):
    code = ("import sys; from provlog import World; w = World.load('w/main.facts', store=True); "
            "print(w.card('acme').values['G'], w.edited is not None, 'pyDatalog' in sys.modules)")
    # the first derives whole: joins.py answers every relation, so pyDatalog is not imported either
    assert _run(code, world.parent.parent).stdout.split() == ["0", "False", "False"]
    assert _run(code, world.parent.parent).stdout.split() == ["0", "False", "False"]
    # an edit (G cap 0 -> cap 2, still confirmed with a span: G = 2) is derived by the edit path, and the
    # small program of the edited org asks pyDatalog nothing either
    world.write_text(MAIN.replace("G against cap 0", "G against cap 2"))
    assert _run(code, world.parent.parent).stdout.split() == ["2", "True", "False"]


def test_a_cold_card_imports_neither_pydatalog_nor_networkx(world):
    code = ("import sys; from provlog.queries.cli import main; sys.argv = ['provlog', '--no-store', 'card', "
            "'w/main.facts', 'acme']\ntry: main()\nexcept SystemExit as e: print(e.code)\n"
            "print('pyDatalog' in sys.modules, 'networkx' in sys.modules)")
    out = _run(code, world.parent.parent)
    assert out.stdout.splitlines()[-2:] == ["0", "False False"], out.stderr


def test_a_goal_after_a_derivation_still_asks_pydatalog(world):
    """The rules reach pyDatalog when something asks it (here a goal over a relation that needs an
    argument bound is not in the store): the same answers as before the lazy load."""
    w = World.load(world)
    assert w.value("acme", "G").value == 0
    assert w.derivation.program.ask("b0(S, K, B)") == [("acme-g", "cap", 0)]


def test_check_and_fingerprint_do_not_derive(world):
    code = ("import sys; from provlog.queries.cli import main; sys.argv = ['provlog', '--no-store', '{}', "
            "'w/main.facts']\ntry: main()\nexcept SystemExit: pass\nprint('pyDatalog' in sys.modules)")
    for cmd in ("check", "fingerprint"):
        out = _run(code.format(cmd), world.parent.parent)
        assert out.stdout.splitlines()[-1] == "False", out.stderr


def test_two_processes_deriving_at_once_leave_one_whole_store(world):
    code = "from provlog import World; print(World.load('w/main.facts', store=True).value('acme', 'G').value)"
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=world.parent.parent, stdout=subprocess.PIPE,
                              text=True) for _ in range(2)]
    assert [p.communicate(timeout=300)[0].strip() for p in procs] == ["0", "0"]
    files = sorted(p.name for p in S.default_path(world).parent.iterdir())
    assert files == [S.default_path(world).name]  # no temporary file left
    con = sqlite3.connect(S.default_path(world))
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert stored(Path("w/main.facts"))[1]  # the path as the two processes gave it


def test_piped_commands_print_no_progress(world):
    out = subprocess.run([sys.executable, "-m", "provlog", "card", "w/main.facts", "acme"], capture_output=True,
                         text=True, cwd=world.parent.parent, timeout=300)
    assert out.returncode == 0 and out.stderr == ""


def test_progress_on_a_terminal_draws_by_stratum():
    import io

    from provlog.queries.progress import stratum_progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert stratum_progress(io.StringIO()) is None
    screen = Tty()
    report = stratum_progress(screen, after=0)
    report(0, 2, ["a"])
    report(1, 2, ["b"])
    report(2, 2, [])
    assert "deriving" in screen.getvalue()


def test_export_writes_a_store_an_analyst_can_read(world, tmp_path):
    from click.testing import CliRunner

    from provlog.queries.cli import main

    out = tmp_path / "acme.sqlite"
    r = CliRunner().invoke(main, ["--no-store", "export", str(world), str(out)])
    assert r.exit_code == 0, r.output
    con = sqlite3.connect(out)
    assert con.execute("SELECT value, rule FROM value WHERE org = 'acme' AND dim = 'G' AND policy = 'standard'").fetchall() == [(0, "G.6")]
    assert [c for (_, c, *_) in con.execute("PRAGMA table_info(signal)")] == ["signal", "org", "dim", "direction",
                                                                             "_facts"]


def test_check_from_the_store_says_what_check_without_it_says(world, tmp_path):
    from click.testing import CliRunner

    from provlog.queries.cli import main

    # W100 (docs/errors.md): a signal that cites no source is a warning, and check still exits 0
    world.write_text(MAIN + "signal acme-p acme P against cap 1 rule=P.2\n")
    store = str(tmp_path / "s.sqlite")
    r = CliRunner()
    assert r.invoke(main, ["--store", store, "card", str(world), "acme"]).exit_code == 0
    plain = r.invoke(main, ["--no-store", "check", str(world)])
    stored_ = r.invoke(main, ["--store", store, "check", str(world)])
    assert "W100" in plain.output and stored_.output == plain.output and stored_.exit_code == plain.exit_code == 0


def test_a_store_damaged_inside_its_facts_ends_the_command_in_one_line_and_is_removed(world, tmp_path,
                                                                                     monkeypatch):
    from click.testing import CliRunner

    from provlog.queries.cli import main

    store = tmp_path / "s.sqlite"
    r = CliRunner()
    assert r.invoke(main, ["--store", str(store), "card", str(world), "acme"]).exit_code == 0

    def torn(self, where, params=()):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(S.StoredFacts, "_facts", torn)  # as a torn page of _facts reads
    got = r.invoke(main, ["--store", str(store), "card", str(world), "acme"])
    assert got.exit_code == 1 and "damaged" in got.output and "Traceback" not in got.output
    assert not store.exists()


def test_the_first_card_is_printed_before_its_store_is_written(world, tmp_path, monkeypatch):
    """Issue 27: what is stored after the answer must not delay it. The first `card` on a new world
    prints the card, then writes the store; the next one answers from that store, the same card."""
    from click.testing import CliRunner

    from provlog.queries.cli import main

    printed = []  # what the command had printed when the store was written
    write = S.write

    def writing(*a, **kw):
        sys.stdout.flush()
        printed.append(sys.stdout.buffer.getvalue().decode())
        return write(*a, **kw)

    monkeypatch.setattr(S, "write", writing)
    store = tmp_path / "s.sqlite"
    first = CliRunner().invoke(main, ["--store", str(store), "card", str(world), "acme"])
    assert first.exit_code == 0 and "acme" in first.output and store.exists()
    assert printed == [first.output]  # written once, the whole card printed before
    again = CliRunner().invoke(main, ["--store", str(store), "card", str(world), "acme"])
    assert again.output == first.output and len(printed) == 1  # answered from the store
