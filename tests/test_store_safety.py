"""What the stored model promises (docs/security.md, "What the store promises"; issue 31): never an answer
for other inputs, never a forged or damaged store read as fact, never a user's file replaced, never a
hang or a traceback from a store.

The world is tests/test_store.py's: RULES C15 keeps acme's G cap 0 (it cites a confirmed tier-1 source
with a span), so acme's card reads "G ... 0 ... acme-g (G.6)" whatever the store holds.
"""
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.facts import files as F
from provlog.logic import store as S
from provlog.logic.store import layout, pages, reading
from provlog.queries.cli import main
from test_store import MAIN, MORE  # the same two-file world (pytest puts tests/ on the path)


@pytest.fixture
def world(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # this test's own secret
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "main.facts").write_text(MAIN)
    (tmp_path / "w" / "more.facts").write_text(MORE)
    return tmp_path / "w" / "main.facts"


def card(world, store, *more):
    return CliRunner().invoke(main, ["--store", str(store), *more, "card", str(world), "acme"])


def hit(world) -> bool:
    w = World.load(world, store=True)
    w.derivation
    return isinstance(w._store, S.Stored)


# -- 1. every file read is part of the key ------------------------------------------------------------
def test_an_include_edited_while_the_world_derives_is_never_answered_stale(world, monkeypatch):
    more = world.parent / "more.facts"
    read = F.Disk.read

    def edited_just_after_it_is_read(self, path, limit):
        data = read(self, path, limit)
        if Path(path).name == "more.facts" and b"reg2" not in more.read_bytes():
            more.write_text(MORE + 'entity reg2 "Second registry" kind=public\n')
        return data

    monkeypatch.setattr(F.Disk, "read", edited_just_after_it_is_read)
    first = World.load(world, store=True)
    assert "reg2" not in first.facts.nodes  # derived from the bytes it read
    first.derivation  # and stored
    monkeypatch.setattr(F.Disk, "read", read)
    again = World.load(world, store=True)
    assert "reg2" in again.facts.nodes
    assert again.fingerprint() == World.load(world).fingerprint()
    again.derivation  # stored, under the new bytes' key
    assert hit(world)


def test_an_unchanged_include_still_hits(world):
    assert not hit(world)
    assert hit(world)


# -- 2. checksums: damage SQLite does not see is caught -----------------------------------------------
def test_a_name_changed_inside_a_stored_row_is_caught_and_the_store_rebuilt(world, tmp_path):
    store = tmp_path / "s.sqlite"
    assert card(world, store).exit_code == 0
    data = store.read_bytes()
    assert b'"Acme"' in data
    store.write_bytes(data.replace(b'"Acme"', b'"Evil"'))
    con = sqlite3.connect(store)
    assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)  # SQLite's own check passes it
    con.close()
    got = card(world, store)
    assert got.exit_code == 0 and "Acme (acme)" in got.stdout and "Evil" not in got.stdout
    assert len(got.stderr.strip().splitlines()) == 1 and "checksum" in got.stderr
    assert "Evil" not in card(world, store).stdout and b'"Evil"' not in store.read_bytes()  # rebuilt


def test_a_changed_row_in_a_relation_read_later_is_caught_and_the_card_still_right(world, tmp_path):
    store = tmp_path / "s.sqlite"
    plain = CliRunner().invoke(main, ["--no-store", "card", str(world), "acme"]).stdout
    assert "acme-g (G.6)" in plain
    assert card(world, store).exit_code == 0
    con = sqlite3.connect(store)
    assert con.execute("UPDATE value SET rule = 'G.9' WHERE rule = 'G.6'").rowcount == 5  # one per policy
    con.commit()
    con.close()
    got = card(world, store)
    assert got.exit_code == 0 and got.stdout == plain and "Traceback" not in got.output
    assert len(got.stderr.strip().splitlines()) == 1 and "checksum" in got.stderr
    assert not store.exists()  # dropped: the next command derives and stores again
    assert card(world, store).stdout == plain and store.exists()


def test_a_store_made_with_another_secret_does_not_match_its_checksums(world, tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    assert card(world, store).exit_code == 0
    opened = S.open_store(store, None)
    sums = dict(opened.seals.sums)
    monkeypatch.setattr(S.seal, "secret", lambda: b"another user's secret, 32 bytes!")
    with pytest.raises(S.StoreDamaged):
        S.seal.Seals(opened.seals.fd, opened.seals.page_size, opened.seals.key, sums).check("_facts")


def _carried(old: bytes, new: Path):
    """The tables an edit kept as they were: the same pages, byte for byte, in the old file and the new."""
    con = sqlite3.connect(new)
    sums, size = con.execute("SELECT unit, pages FROM _sums").fetchall(), con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = new.read_bytes()
    for unit, pages in sums:
        spans = [(size * (a - 1), size * b) for a, b in S.seal._spans(pages)] if pages else []
        if spans and all(old[a:b] == data[a:b] for a, b in spans):
            yield unit, spans


def test_a_table_an_edit_kept_keeps_a_seal_that_still_catches_damage(world, tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    hashed, sha, sealing = [], S.seal._sha, S.writing.seal

    def counted(path, *more):  # the bytes the edit's seal hashes (the old store's check aside)
        monkeypatch.setattr(S.seal, "_sha", lambda data: hashed.append(len(data)) or sha(data))
        try:
            sealing(path, *more)
        finally:
            monkeypatch.setattr(S.seal, "_sha", sha)

    monkeypatch.setattr(S.writing, "seal", counted)
    assert card(world, store).exit_code == 0
    assert sum(hashed) > store.stat().st_size / 2  # the first seal hashes every table's pages
    before, hashed[:] = store.read_bytes(), []
    # a signal edit (acme's G cap 0 -> cap 2, still confirmed with a span: G = 2): the edit path
    world.write_text(MAIN.replace("G against cap 0", "G against cap 2"))
    edited = card(world, store)
    assert edited.exit_code == 0 and not edited.stderr and "acme-g (G.6)" in edited.stdout
    con = sqlite3.connect(store)
    assert con.execute("SELECT v FROM _meta WHERE k = 'edit'").fetchone()  # written by the edit path
    con.close()
    assert S.open_store(store, None, every=True) is not None  # every table of the edited store matches its seal (near miss)
    # one org's rows rewritten: the blocks they fill are hashed again, not the whole file
    assert 0 < sum(hashed) < store.stat().st_size / 2
    con = sqlite3.connect(store)  # and each table's pages as SQLite lists them, kept ones too (store/pages.py)
    listed = {t: pages.runs(sorted(ps)) for t, ps in pages.listed(con, 0).items()}
    assert dict(con.execute("SELECT unit, pages FROM _sums WHERE unit != '@schema'")) == listed
    con.close()
    carried = dict(_carried(before, store))
    data = store.read_bytes()
    unit, spans = next((u, sp) for u, sp in carried.items() if any(b"Registry" in data[a:b] for a, b in sp))
    assert unit not in ("_facts", "_meta")  # a table the edit did not write (the registry's entity row)
    a, b = next(sp for sp in spans if b"Registry" in data[sp[0]:sp[1]])
    store.write_bytes(data[:a] + data[a:b].replace(b"Registry", b"Regxstry") + data[b:])
    assert S.open_store(store, None, quiet=True, every=True) is None and not store.exists()  # caught, and dropped


def _damage(store: Path, unit: str, word: bytes) -> None:
    """``word`` changed inside table ``unit``'s pages, SQLite none the wiser."""
    con = sqlite3.connect(store)
    runs, size = con.execute("SELECT pages FROM _sums WHERE unit = ?", (unit,)).fetchone()[0], \
        con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = store.read_bytes()
    lo, hi = next((size * (a - 1), size * b) for a, b in S.seal._spans(runs) if word in data[size * (a - 1):size * b])
    store.write_bytes(data[:lo] + data[lo:hi].replace(word, word[:3] + b"x" + word[4:]) + data[hi:])


def test_damage_an_edit_carries_from_the_old_store_is_caught_when_the_new_one_is_read(world, tmp_path):
    store = tmp_path / "s.sqlite"
    plain = CliRunner().invoke(main, ["--no-store", "card", str(world), "acme"]).stdout
    assert card(world, store).stdout == plain
    # the registry's entity row, in a table a signal edit neither writes nor reads: its seal is carried by
    # its digest, its pages unread
    _damage(store, "entity", b"public")
    world.write_text(MAIN.replace("G against cap 0", "G against cap 2"))
    edited = card(world, store)
    assert edited.exit_code == 0 and "acme-g (G.6)" in edited.stdout
    con = sqlite3.connect(store)
    assert con.execute("SELECT v FROM _meta WHERE k = 'edit'").fetchone()  # the edit path wrote it
    con.close()
    # the copy holds the damaged bytes, and its seal (the old digest, bound to the new key) still catches them
    assert S.open_store(store, None, quiet=True, every=True) is None and not store.exists()


def test_an_edit_leaves_the_tables_whose_rows_it_did_not_change_as_they_were(world, tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    assert card(world, store).exit_code == 0
    touched, sealing = [], S.writing.seal
    monkeypatch.setattr(S.writing, "seal", lambda path, old, written: touched.append(written) or sealing(path, old, written))
    world.write_text(MAIN.replace("G against cap 0", "G against cap 2"))
    assert card(world, store).exit_code == 0
    # acme-g's bound moved: its stated bound and acme's values are written again; its signal row (id,
    # org, dimension, direction) and its citation are the same rows: those tables are neither written nor
    # read through the copy, so their seals are carried (a comparison's read is not noted, store/pages.py)
    assert {"stated", "value"} <= touched[0] and not {"signal", "cites"} & touched[0]


def test_damage_in_a_table_an_edit_writes_is_found_before_the_edit_seals_it(world, tmp_path):
    store = tmp_path / "s.sqlite"
    assert card(world, store).exit_code == 0
    # in acme's values, which the edit changes (G 0 -> 2): written again, its old bytes checked first
    _damage(store, "value", b"acme-g")
    world.write_text(MAIN.replace("G against cap 0", "G against cap 2"))
    edited = card(world, store)
    assert edited.exit_code == 0 and "acme-g (G.6)" in edited.stdout
    con = sqlite3.connect(store)
    assert not con.execute("SELECT v FROM _meta WHERE k = 'edit'").fetchone()  # refused: derived whole
    con.close()
    assert S.open_store(store, None, quiet=True, every=True) is not None  # and nothing damaged was sealed


def _tables(path, rows):
    con = sqlite3.connect(path)
    for table in ("a", "b"):
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} (x)")
        con.executemany(f"INSERT INTO {table} VALUES (?)", [(table * 900,)] * rows)
    con.commit()
    return con


def test_a_table_that_grew_unnoted_has_its_pages_listed_again(tmp_path):
    path = tmp_path / "x.sqlite"
    con = _tables(path, 40)
    kept = {t: pages.runs(sorted(ps)) for t, ps in pages.listed(con, 0).items()}
    con.executemany("INSERT INTO b VALUES (?)", [("b" * 900,)] * 40)  # b grows: new pages
    con.commit()
    whole = {t: sorted(ps) for t, ps in pages.listed(con, 0).items()}
    fd = os.open(path, os.O_RDONLY)
    try:
        # b written but not noted: its old pages leave some unaccounted for, so every table is listed
        assert pages._relisted(con, fd, kept, set()) is None
        assert {t: sorted(ps) for t, ps in pages.listed(con, fd, kept, set()).items()} == whole
        # near miss: b noted, a kept as it was
        assert {t: sorted(ps) for t, ps in pages._relisted(con, fd, kept, {"b"}).items()} == whole
    finally:
        os.close(fd)
        con.close()


# -- 3. the secret --------------------------------------------------------------------------------------
@pytest.mark.parametrize("left", [b"", b"short"])
def test_an_empty_or_short_secret_is_made_again_owner_only(world, left):
    assert not hit(world)
    secret = Path(os.environ["XDG_CACHE_HOME"]) / "provlog" / "salt"
    secret.write_bytes(left)  # a crash between create and write
    assert not hit(world)  # no store is trusted under the old key
    got = secret.read_bytes()
    assert len(got) >= 32 and got != left
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert hit(world)


def test_a_whole_secret_is_kept(world):
    hit(world)
    secret = Path(os.environ["XDG_CACHE_HOME"]) / "provlog" / "salt"
    before = secret.read_bytes()
    assert hit(world) and secret.read_bytes() == before


# -- 5. a path that is not a store ---------------------------------------------------------------------
@pytest.mark.parametrize("what", ["text", "empty", "another database"])
def test_store_option_on_a_file_that_is_not_a_store_is_refused_and_kept(world, tmp_path, what):
    notes = tmp_path / "notes.txt"
    if what == "text":
        notes.write_text("my notes\n")
    elif what == "empty":
        notes.write_bytes(b"")
    else:
        con = sqlite3.connect(notes)
        con.execute("CREATE TABLE people (name TEXT)")
        con.commit()
        con.close()
    before = notes.read_bytes()
    got = card(world, notes)
    assert got.exit_code == 2 and "not a provlog store" in got.stderr and "Traceback" not in got.output
    assert notes.read_bytes() == before


def test_export_onto_a_file_that_is_not_a_store_is_refused_and_kept(world, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    got = CliRunner().invoke(main, ["--no-store", "export", str(world), str(notes)])
    assert got.exit_code == 2 and "not a provlog store" in got.stderr and notes.read_text() == "my notes\n"
    fresh = tmp_path / "out.sqlite"  # the near miss: a new file, then provlog's own store, are written
    for _ in range(2):
        assert CliRunner().invoke(main, ["--no-store", "export", str(world), str(fresh)]).exit_code == 0


def test_store_option_on_provlogs_own_store_or_a_new_path_is_used(world, tmp_path):
    store = tmp_path / "new.sqlite"
    assert card(world, store).exit_code == 0 and store.exists()
    assert card(world, store).exit_code == 0


# -- 6. a planted store: nothing read before its layout is checked, every read bounded ---------------------
def _plant_recursive_meta(target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(target)
    con.execute("CREATE VIEW _meta AS WITH RECURSIVE r(k, v) AS (SELECT 'a', 'b' UNION ALL SELECT k, v FROM r) "
                "SELECT k, v FROM r")
    con.commit()
    con.close()


def test_a_planted_recursive_view_neither_hangs_nor_is_read(world):
    _plant_recursive_meta(S.default_path(world))
    code = "import sys; from provlog.queries.cli import main; sys.argv = ['provlog', '--store', sys.argv[1], " \
           "'card', 'w/main.facts', 'acme']; main()"
    # a hang is the failure: the bound is far above a card's seconds, and is not a timing claim
    got = subprocess.run([sys.executable, "-c", code, str(S.default_path(world))], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "PROVLOG_STORE": ""})
    assert got.returncode == 0 and "Acme (acme)" in got.stdout
    assert len(got.stderr.strip().splitlines()) == 1 and "view" in got.stderr


@pytest.mark.parametrize("sql", [
    "CREATE VIEW v AS SELECT 1",
    "CREATE TRIGGER t AFTER INSERT ON _meta BEGIN SELECT 1; END",
    "CREATE VIRTUAL TABLE x USING fts4(a)",
    'CREATE TABLE "value" ("org" TEXT AS (randomblob(1000000000)))',
    'CREATE INDEX i ON _facts (kind) WHERE kind = \'org\'',
])
def test_a_layout_no_store_has_is_refused(sql):
    entries = [("table", n, n, ddl) for n, ddl in layout.FIXED.items()]
    kind = sql.split()[1].lower()
    kind = "table" if kind == "virtual" else kind
    layout.check_schema(entries)  # the near miss: a store's own
    with pytest.raises(S.StoreError):
        layout.check_schema(entries + [(kind, "x", "x", sql)])


def test_every_read_of_a_store_is_bounded_in_time(world, tmp_path, monkeypatch):
    store = tmp_path / "s.sqlite"
    assert card(world, store).exit_code == 0
    opened = S.open_store(store, None)
    monkeypatch.setattr(reading, "READ_SECONDS", 0.0)
    with pytest.raises(sqlite3.OperationalError, match="interrupt"):
        opened.query("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 100000000) "
                     "SELECT count(*) FROM r")


# -- 7. a damaged cell: one line, the store dropped, the command answers ------------------------------------
def test_a_damaged_cell_ends_in_one_line_and_an_answer_then_a_fresh_store(world, tmp_path):
    store = tmp_path / "s.sqlite"
    plain = CliRunner().invoke(main, ["--no-store", "card", str(world), "acme"]).stdout
    assert card(world, store).exit_code == 0
    con = sqlite3.connect(store)
    con.execute("UPDATE _facts SET vals = '{not json' WHERE kind = 'org'")
    con.commit()
    con.close()
    for _ in range(2):  # the damaged store is dropped, then a whole one written and read
        got = card(world, store)
        assert got.exit_code == 0 and got.stdout == plain and "Traceback" not in got.output
    assert hit_at(store, world)


def hit_at(store: Path, world) -> bool:
    w = World.load(world, store=store)
    return isinstance(w._store, S.Stored)


# -- the store is written after the answer: its failure never changes the answer ----------------------
def test_a_store_that_cannot_be_written_leaves_the_answer_and_exit_code(world, tmp_path, monkeypatch):
    """A full disk while the store is written (after the card is printed): one warning line, exit 0,
    nothing removed. Near miss: the same card with the store written is the same card."""
    def full(*a, **k):
        raise sqlite3.OperationalError("database or disk is full")

    good = card(world, tmp_path / "ok.sqlite")
    assert good.exit_code == 0 and (tmp_path / "ok.sqlite").exists()
    monkeypatch.setattr(S, "write", full)
    r = card(world, tmp_path / "s.sqlite")
    assert r.exit_code == 0, r.output
    assert "store not written" in r.output and "database or disk is full" in r.output
    assert "damaged" not in r.output and (tmp_path / "ok.sqlite").exists()
    assert r.output.splitlines()[:12] == good.output.splitlines()[:12]  # the card, line for line


def test_a_store_warning_shows_a_folder_name_with_controls_escaped(tmp_path):
    """The store's path names the world's folder, whatever it holds (docs/security.md, Terminals)."""
    import contextlib
    import io

    w = tmp_path / "w\x1b]0;pwned\x07"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        S.warn(f"store not written to {w / '.provlog' / 'x.sqlite'} (disk full)")
    assert "\x1b" not in err.getvalue() and "\x07" not in err.getvalue()
    assert "w\\u001b]0;pwned\\u0007" in err.getvalue()


def test_a_library_derivation_is_stored_once(world, monkeypatch):
    """World.load(store=True) stores its first derivation; store_now (the diff's) does not store it again."""
    calls = []
    real = S.write
    monkeypatch.setattr(S, "write", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    w = World.load(world, store=True)
    w.derivation
    w.store_now()
    assert len(calls) == 1
