"""provlog log and provlog blame (issue 42; docs/history.md) on a repository built here, commit by commit.

The world is test_diff.py's (its PRELUDE and SIGNALS); each commit's moves are derived by hand from
the RULES there (test_diff's comments say how), under the standard policy:

  c1  signals       the world first appears: G 3 (o1-g's floor 3 from the confirmed s1, G.2)
  c2  cite to s2    o1-g cites only the unaudited s2: not admissible under standard (at least one
                    confirmed source), o1-g2's floor 1 decides: G 3 -> 1 (G.2 -> G.1); G 1 is a
                    conditional floor: band clear -> conditional (test_diff test_cite)
  c3  readme        outside the world: nothing moves
  c4  rename        w/ -> world/ (git mv): the same statements, nothing moves; the walk follows it
  c5  broken        an unterminated string: E100 there, the walk goes on (E187)
  c6  cite back     against c4 (the last commit that loads): G 1 -> 3 (G.1 -> G.2), band back to clear
  side            o1-g's floor 3 -> 2, on a branch (not on the first-parent line)
  c7  notes         outside the world
  M   merge side    against its first parent c7: G 3 -> 2 (G.2), resting on the signal (test_signal_bound)
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import threading

import pytest
from click.testing import CliRunner

from provlog.queries import history as H
from provlog.queries.cli import main
from test_diff import PRELUDE, SIGNALS

CITE = 'cite o1-g s1 "a published conflict policy"'


def _git(cwd, *args, date="2026-01-01T00:00:00"):
    got = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                         env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org",
                                  GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.org",
                                  GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date))
    return got.stdout.decode().strip()


def _commit(repo, message, day):
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", message, date=f"2026-01-{day:02}T12:00:00")
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """The repository of the module's docstring; ``ids``: its commits by name."""
    repo = tmp_path_factory.mktemp("history")
    ids = {}
    (repo / "w").mkdir()
    (repo / "w" / "a.facts").write_text(PRELUDE + SIGNALS)
    _git(repo, "init", "-q", "-b", "main")
    ids["c1"] = _commit(repo, "signals", 1)
    (repo / "w" / "a.facts").write_text(PRELUDE + SIGNALS.replace(CITE, CITE.replace("s1", "s2")))
    ids["c2"] = _commit(repo, "cite to s2", 2)
    (repo / "README").write_text("a registry\n")
    ids["c3"] = _commit(repo, "readme", 3)
    _git(repo, "mv", "w", "world")
    ids["c4"] = _commit(repo, "rename", 4)
    (repo / "world" / "a.facts").write_text(PRELUDE + SIGNALS.replace(CITE, CITE.replace("s1", "s2")) + 'org o2 "Two\n')
    ids["c5"] = _commit(repo, "broken", 5)
    (repo / "world" / "a.facts").write_text(PRELUDE + SIGNALS)
    ids["c6"] = _commit(repo, "cite back", 6)
    _git(repo, "checkout", "-q", "-b", "side")
    (repo / "world" / "a.facts").write_text(PRELUDE + SIGNALS.replace("floor 3 rule=G.2", "floor 2 rule=G.2"))
    ids["side"] = _commit(repo, "floor 2", 7)
    _git(repo, "checkout", "-q", "main")
    (repo / "NOTES").write_text("notes\n")
    ids["c7"] = _commit(repo, "notes", 8)
    _git(repo, "merge", "-q", "--no-ff", "-m", "merge side", "side", date="2026-01-09T12:00:00")
    ids["M"] = _git(repo, "rev-parse", "HEAD")
    return repo, ids


@pytest.fixture
def here(repo):
    old = os.getcwd()
    os.chdir(repo[0])
    yield repo
    os.chdir(old)


def _moves(entry):
    return [(r.label, r.old, r.new, r.old_rule, r.new_rule, tuple(f"{x.sign}{x.text.split()[0]}" for x in r.rests))
            for r in entry.rows]


def test_log_lists_the_commits_that_moved_something(here):
    repo, ids = here
    h = H.log("world", policy="standard")
    got = {e.commit.id: e for e in h.listed()}
    by_name = {v: k for k, v in ids.items()}
    assert [by_name[c] for c in got] == ["M", "c6", "c5", "c2", "c1"]  # newest first; c3, c4, c7 move nothing
    m, c6, c5, c2, c1 = got.values()
    assert _moves(m) == [("value G standard", 3, 2, "G.2", "G.2", ("~signal",))]
    assert m.parent == ids["c7"]  # a merge against its first parent
    assert _moves(c6) == [("value G standard", 1, 3, "G.1", "G.2", ("~cite",)),
                          ("band standard", "conditional", "clear", "0", "0", ())]
    assert c6.parent == ids["c4"]  # c5 does not load: the commit before it that does
    assert c5.error.startswith("@:world/a.facts:11:") and c5.error.endswith("[E100]")
    assert _moves(c2) == [("value G standard", 3, 1, "G.2", "G.1", ("~cite",)),
                          ("band standard", "clear", "conditional", "0", "0", ())]
    assert c2.commit.path == "w" and c1.created  # followed through the rename
    # each statement named at its commit: the old side's place at the parent, the new side's at the commit
    rest = c2.rows[0].rests[0]
    assert rest.loc == f"{ids['c2'][:10]}:w/a.facts:8" and rest.old_loc == f"{ids['c1'][:10]}:w/a.facts:8"


def test_every_policy_is_one_row(here):
    # o1-g cites s1 (the registry's page: confirmed, tier 1, not o1's own) with a span: every policy
    # admits its floor (section 0: leads-included all, standard a confirmed source, against-interest drops
    # only an org's own report, verified-spans a confirmed tier-1 span, primary-only tier 1), before (3)
    # and after (2); o1-g2's floor 1 is smaller. The merge moves G 3 -> 2 alike under all five: one row
    h = H.log("world")
    m = h.listed()[0]
    assert [(r.what, r.key, r.policies) for r in m.rows if r.what == "value"] == \
        [("value", {"dim": "G"}, ["leads-included", "standard", "against-interest", "verified-spans", "primary-only"])]


def test_filters_all_and_range(here):
    repo, ids = here
    h = H.log("world", org="o1", dim="G", policy="standard", rng=f"{ids['c4']}..{ids['c7']}")
    assert [e.commit.id for e in h.listed()] == [ids["c6"], ids["c5"]]
    assert [r.what for r in h.listed()[0].rows] == ["value"]  # a DIM keeps values and conflicts of it
    h = H.log("world", policy="standard", rng=f"{ids['c2']}..{ids['c4']}", every=True)
    assert [(e.commit.id, e.same, e.moved) for e in h.listed()] == [(ids["c4"], True, False), (ids["c3"], True, False)]


def test_second_log_derives_nothing(here, monkeypatch):
    H.log("world", policy="standard")
    with sqlite3.connect(os.path.join("world", ".provlog", "history.sqlite")) as con:
        assert con.execute("SELECT COUNT(*) FROM pairs").fetchone()[0] >= 4
    # the stores of the commits after c1 were written by the edit path from the one before
    stores = [f for f in os.listdir(os.path.join("world", ".provlog")) if f.startswith("log-")]
    edited = 0
    for f in stores:
        con = sqlite3.connect(os.path.join("world", ".provlog", f))
        edited += con.execute("SELECT COUNT(*) FROM _meta WHERE k = 'edit'").fetchone()[0]
        con.close()
    assert edited >= 2

    def no(*a, **k):
        raise AssertionError("the second log loaded a world")

    monkeypatch.setattr(H.World, "load", no)
    again = H.log("world", policy="standard")
    assert [e.commit.id for e in again.listed()] == [e.commit.id for e in H.History(
        "world", again.walk, again.entries).listed()] and len(again.listed()) == 5


def test_cli_text_json_markdown(here):
    repo, ids = here
    run = CliRunner().invoke
    got = run(main, ["log", "world", "o1", "G", "--policy", "standard"])
    assert got.exit_code == 1  # listed whole, but c5 does not load
    text = got.output
    assert f"commit {ids['M'][:10]}  2026-01-09  merge side" in text
    assert "value G standard: 3 -> 2   rule G.2 -> G.2" in text and "the world does not load here: " in text
    assert f"{ids['c5'][:10]}:world/a.facts:11:" in text
    got = run(main, ["log", "world", f"{ids['c6']}..HEAD", "--format", "json", "--policy", "standard"])
    data = json.loads(got.output)
    assert got.exit_code == 0 and [c["commit"] for c in data["commits"]] == [ids["M"]]
    row = data["commits"][0]["rows"][0]
    assert row["policies"] == ["standard"] and row["old"] == 3 and row["new"] == 2
    got = run(main, ["log", "world", f"{ids['c6']}..HEAD", "--format", "markdown", "--policy", "standard"])
    assert f"#### `{ids['M'][:10]}` 2026-01-09 merge side" in got.output and "| o1 | value G standard | 3 | 2 |" in got.output


def test_blame(here):
    repo, ids = here
    b = H.blame("world", "o1", "G", "standard")
    # G 2 at HEAD, given its number by the merge (3 -> 2); its proof reads o1-g (changed there, on the
    # first-parent line), its cite of s1 (added back at c6), and s1 as c1 stated it
    assert (b.value, b.rule, b.commit.commit.id, b.was) == (2, "G.2", ids["M"], 3)
    when = {f.kind + " " + (f.get("id") or f.get("signal") or ""): e.commit.id for f, e in b.statements}
    assert when["signal o1-g"] == ids["M"] and when["cite o1-g"] == ids["c6"]
    assert when["source s1"] == ids["c1"] and set(when) <= {"signal o1-g", "cite o1-g", "source s1", "entity reg", "org o1"}
    got = CliRunner().invoke(main, ["blame", "world", "o1", "G", "--format", "json"])
    data = json.loads(got.output)
    assert got.exit_code == 0 and data["commit"]["commit"] == ids["M"] and data["value"] == 2
    assert CliRunner().invoke(main, ["blame", "world", "o9", "G"]).exit_code == 2


def test_errors_are_one_line(here, tmp_path):
    repo, ids = here
    run = CliRunner().invoke
    got = run(main, ["log", "world", "HEAD..HEAD"])
    assert got.exit_code == 2 and "[E186]" in got.output and len(got.output.strip().splitlines()) == 1
    got = run(main, ["log", "world", "nosuch..HEAD"])
    assert got.exit_code == 2 and "[E186]" in got.output
    (repo / "new").mkdir()
    (repo / "new" / "a.facts").write_text(PRELUDE)
    got = run(main, ["log", "new"])
    assert got.exit_code == 2 and "[E189]" in got.output
    os.chdir(tmp_path)
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "a.facts").write_text(PRELUDE)
    got = run(main, ["log", "w"])
    assert got.exit_code == 2 and "[E185]" in got.output and "Traceback" not in got.output


def test_shallow_clone_says_so(repo, tmp_path):
    src, ids = repo
    _git(tmp_path, "clone", "-q", "--depth", "2", f"file://{src}", "clone")
    old = os.getcwd()
    os.chdir(tmp_path / "clone")
    try:
        got = CliRunner().invoke(main, ["log", "world", "--policy", "standard"])
    finally:
        os.chdir(old)
    assert got.exit_code == 1 and "[E188]" in got.output and "shallow" in got.output
    assert "merge side" in got.output and "the world first appears" not in got.output



# -- the edit path and the stores, from any folder (issue 39) ---------------------------------------
@pytest.fixture
def back_and_forth(tmp_path):
    """A repository whose world ``w/`` is, commit by commit: a SIGNALS; b o1-g's floor 3 -> 2; c back to a's
    bytes. By hand (test_diff test_signal_bound): b moves G 3 -> 2 (G.2; the largest admissible floor
    decides, o1-g2's 1 is smaller; 2 bands nothing), c moves G 2 -> 3 (G.2), under standard."""
    repo = tmp_path / "repo"
    (repo / "w").mkdir(parents=True)
    _git(repo, "init", "-q", "-b", "main")
    ids = {}
    for day, (name, text) in enumerate([("a", SIGNALS), ("b", SIGNALS.replace("floor 3 rule=G.2", "floor 2 rule=G.2")),
                                        ("c", SIGNALS)], 1):
        (repo / "w" / "a.facts").write_text(PRELUDE + text)
        ids[name] = _commit(repo, name, day)
    (tmp_path / "elsewhere").mkdir()
    return repo, ids


def _stores(world):
    """Each log store of ``world``'s .provlog/: its name -> whether the edit path wrote it."""
    out = {}
    for f in sorted(os.listdir(os.path.join(world, ".provlog"))):
        if f.startswith("log-"):
            with sqlite3.connect(os.path.join(world, ".provlog", f)) as con:
                out[f] = con.execute("SELECT COUNT(*) FROM _meta WHERE k = 'edit'").fetchone()[0] > 0
    return out


def test_log_takes_the_edit_path_from_outside_the_repository(back_and_forth, monkeypatch):
    repo, ids = back_and_forth
    monkeypatch.chdir(repo.parent / "elsewhere")  # not in any repository
    world = str(repo / "w")
    h = H.log(world, policy="standard")
    assert [(e.commit.id, _moves(e)) for e in h.listed()] == [
        (ids["c"], [("value G standard", 2, 3, "G.2", "G.2", ("~signal",))]),
        (ids["b"], [("value G standard", 3, 2, "G.2", "G.2", ("~signal",))]), (ids["a"], [])]
    # a derived whole; b written from a's store by the edit path (one changed file, its changed line);
    # c holds a's bytes at a's path: a's store (its key is the content's, not the commit's), no third
    assert sorted(_stores(world).values()) == [False, True]
    # b's store began as a link to a's (history._link) and was written beside it and renamed over it: a's
    # bytes are a's own again, each store one file
    assert all(os.stat(os.path.join(world, ".provlog", f)).st_nlink == 1 for f in _stores(world))
    got = CliRunner().invoke(main, ["log", world, "--policy", "standard"])
    assert got.exit_code == 0 and f"commit {ids['b'][:10]}" in got.output and "value G standard: 3 -> 2" in got.output


def test_one_store_per_content_whichever_folder_asks(back_and_forth, monkeypatch):
    repo, ids = back_and_forth
    monkeypatch.chdir(repo)
    first = H.log("w", policy="standard")
    stores = _stores(str(repo / "w"))
    assert len(stores) == 2  # a (= c) and b
    for f in stores:  # no folder recorded (logic/store/names.py origin: None for a revision): shown as stored anywhere
        with sqlite3.connect(os.path.join(repo, "w", ".provlog", f)) as con:
            assert con.execute("SELECT COUNT(*) FROM _meta WHERE k = 'names'").fetchone()[0] == 0

    def no(*a, **k):
        raise AssertionError("a world was loaded: a store was missed")

    monkeypatch.setattr(H.World, "load", no)
    # the same question from the world's own folder and from outside the repository: every pair read
    # from history.sqlite, each statement named at its commit as before, no store added
    for cwd, world in ((repo / "w", "."), (repo.parent / "elsewhere", str(repo / "w"))):
        monkeypatch.chdir(cwd)
        again = H.log(world, policy="standard")
        assert [(e.commit.id, _moves(e), [x.loc for r in e.rows for x in r.rests]) for e in again.listed()] == \
            [(e.commit.id, _moves(e), [x.loc for r in e.rows for x in r.rests]) for e in first.listed()]
        assert _stores(str(repo / "w")) == stores
    assert first.listed()[1].rows[0].rests[0].loc == f"{ids['b'][:10]}:w/a.facts:7"  # o1-g: PRELUDE is 6 lines


# -- the site: each org page's history, and the Atom feed ----------------------------------------------
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def site(repo, tmp_path_factory):
    pytest.importorskip("flask")
    from provlog.queries.web.export import export

    src, ids = repo
    out = tmp_path_factory.mktemp("site") / "site"
    old = os.getcwd()
    os.chdir(src)
    try:
        export("world", str(out), history="HEAD")
    finally:
        os.chdir(old)
    return out, ids


def test_the_feed_is_atom_with_one_entry_per_commit_that_moved(site):
    import xml.etree.ElementTree as ET

    out, ids = site
    feed = ET.parse(out / "feed.xml").getroot()
    assert feed.tag == ATOM + "feed"
    for tag in ("id", "title", "updated"):  # RFC 4287 4.1.1: required of a feed
        assert (feed.findtext(ATOM + tag) or "").strip(), tag
    entries = feed.findall(ATOM + "entry")
    # under standard, the commits that moved something: M, c6, c2 (c1 creates, c5 does not load)
    assert [e.findtext(ATOM + "id") for e in entries] == [f"urn:provlog:commit:{ids[n]}" for n in ("M", "c6", "c2")]
    for e in entries:  # 4.1.2: an entry's id, title, updated; an author (the feed names none)
        assert e.findtext(ATOM + "title") and e.findtext(ATOM + "updated") and e.find(ATOM + "author") is not None
    assert entries[0].findtext(ATOM + "updated") == "2026-01-09T12:00:00+00:00"
    assert "value G standard: 3 -> 2" in entries[0].findtext(ATOM + "content")
    assert "feed.xml" in (out / ".provlog-site").read_text()


def test_the_org_page_shows_its_history_in_a_browser(site):
    from test_web_browser import ARGS, CHROMIUM, _need

    _need()
    from playwright.sync_api import sync_playwright

    out, ids = site
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = b.new_page()
            page.goto((out / "org" / "o1.html").as_uri())
            rows = page.locator("#history tr.moved")
            # M: G 3 -> 2; c6: G 1 -> 3 and the band; c2: G 3 -> 1 and the band
            assert rows.count() == 5
            first = rows.nth(0).inner_text()
            assert "2026-01-09" in first and "value G standard: 3 → 2" in first and ids["M"][:10] in first
            assert "merge side" in first and "~ signal o1-g o1 G for floor 2" in first
        finally:
            b.close()


# -- the explorer: each org page's history, bounded, from the store ---------------------------------
@pytest.fixture
def explorer(repo, tmp_path):
    """``provlog serve``'s app over a fresh clone of the repository (the same commits, no .provlog/ yet),
    showing the newest 4 commits: M, c7, c6, c5 (c6 is compared with c4, where the world loads)."""
    pytest.importorskip("flask")
    from werkzeug.serving import make_server

    from provlog.queries.web import create_app

    src, ids = repo
    _git(tmp_path, "clone", "-q", f"file://{src}", "clone")
    world = str(tmp_path / "clone" / "world")
    server = make_server("127.0.0.1", 0, create_app(world, history="HEAD", history_last=4), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", world, ids
    server.shutdown()


def test_the_explorer_org_page_shows_its_history_in_a_browser(explorer, monkeypatch):
    from test_web_browser import ARGS, CHROMIUM, _need

    _need()
    from playwright.sync_api import sync_playwright

    url, world, ids = explorer
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = b.new_page()
            page.goto(url + "/org/o1")
            rows = page.locator("#history tr.moved")
            # by hand (the module's docstring), under standard in M, c7, c6, c5: M G 3 -> 2 (G.2); c6 against
            # c4 G 1 -> 3 (G.1 -> G.2) and its band conditional -> clear. The near miss: c2's G 3 -> 1 and
            # band is older than the 4 commits shown, so it is not on the page
            assert rows.count() == 3
            first = rows.nth(0).inner_text()
            assert "value G standard: 3 → 2" in first and ids["M"][:10] in first and "merge side" in first
            assert f"{ids['M'][:10]}:world/a.facts:7" in first  # the statement it rests on, at its commit
            assert "value G standard: 1 → 3" in rows.nth(1).inner_text() and ids["c6"][:10] in rows.nth(1).inner_text()
            assert ids["c2"][:10] not in page.content()
            assert "the last 4 commits of HEAD" in page.locator("#history-bound").inner_text()
            # the first request derived c4 whole and c6 and M by the edit path (c5 does not load, c7 is c6's files)
            assert sorted(_stores(world).values()) == [False, True, True]

            def no(*a, **k):
                raise AssertionError("the second request loaded a world")

            monkeypatch.setattr(H.World, "load", no)  # the served world is loaded already: only the history's would be
            page.goto(url + "/org/o1?policy=standard")
            assert page.locator("#history tr.moved").count() == 3
        finally:
            b.close()


def test_the_explorer_history_is_off_unless_asked_and_says_why_when_it_cannot_walk(repo, tmp_path):
    pytest.importorskip("flask")
    from provlog.queries.web import create_app

    src, ids = repo
    world = str(src / "world")
    assert "History of" not in create_app(world).test_client().get("/org/o1").get_data(as_text=True)
    page = create_app(world, history="nosuch..HEAD", history_last=4).test_client().get("/org/o1")
    assert page.status_code == 200 and "[E186]" in page.get_data(as_text=True)
    # the CLI: a range asked for that git cannot walk is refused, one line, exit 2; the default range of a
    # world outside git is said and left out (the explorer serves without it)
    from provlog.queries.cli.web import _history

    assert _history(world, None, 20) == "HEAD" and _history(world, "HEAD", 0) is None
    with pytest.raises(SystemExit) as e:
        _history(world, "nosuch..HEAD", 20)
    assert e.value.code == 2
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "a.facts").write_text(PRELUDE)
    assert _history(str(tmp_path / "w"), None, 20) is None
