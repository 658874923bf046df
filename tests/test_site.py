"""`provlog site`: the static export's files, links, bytes and the folder it may write (no browser)."""
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("flask")

from provlog.queries.cli import main  # noqa: E402
from provlog.queries.web.export import MARKER, export  # noqa: E402
from provlog.queries.web.links import fname  # noqa: E402

EXAMPLE = str(Path(__file__).parent.parent / "facts" / "worlds" / "example")
HOSTILE = str(Path(__file__).parent / "worlds" / "web" / "hostile-site.facts")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("s") / "site"
    export(EXAMPLE, str(out))
    return out


def _files(root: Path):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_every_page_has_its_json_and_every_link_resolves(site):
    files = _files(site)
    for org in ("quorvell", "plumbrook", "veridane-redteam"):
        assert f"org/{org}.html" in files and f"org/{org}.json" in files
        assert all(f"why/{org}/{d}.html" in files for d in "FGPASRMX")
    assert "person/kofi-brandel.html" in files and "money/ternhollow-office.html" in files
    card = json.loads(files["org/quorvell.json"])["card"]
    assert card["policy"] == "standard" and card["values"]["F"] == 3  # F.3 (as test_web reads it)
    for name, body in files.items():
        if not name.endswith(".html"):
            continue
        for href in re.findall(rb'(?:href|src)="([^"#?]+)', body):
            href = href.decode()
            assert not href.startswith(("/", "http:", "https:")), (name, href)  # relative, offline
            if href.startswith("data:"):
                continue
            target = (site / name).parent / href
            assert target.resolve().is_file(), (name, href)


def test_same_world_same_bytes(site, tmp_path):
    again = tmp_path / "again"
    export(EXAMPLE, str(again))
    assert _files(again) == _files(site)
    # the hostile world too: its odd ids, bidi and control characters written the same way each time
    one, two = tmp_path / "h1", tmp_path / "h2"
    export(HOSTILE, str(one))
    export(HOSTILE, str(two))
    assert _files(one) == _files(two) and len(_files(one)) > 10


def test_proofs_searched_by_worker_processes_give_the_same_bytes(site, tmp_path):
    """prove.py: two processes searching the proofs write the site one process writes."""
    from provlog.queries.web.prove import jobs

    two = tmp_path / "two"
    export(EXAMPLE, str(two), jobs=2)
    assert _files(two) == _files(site)
    # the workers write the org and proof pages: the hostile world's odd ids and text come out the same
    one, both = tmp_path / "h1", tmp_path / "h2"
    export(HOSTILE, str(one), jobs=1)
    export(HOSTILE, str(both), jobs=2)
    assert _files(one) == _files(both) and any(n.startswith("why/") for n in _files(both))
    assert jobs(None, orgs=3) == 1 and jobs(1, orgs=1000) == 1  # a small world, or one asked for


def test_a_stored_world_exported_by_workers_gives_the_same_bytes(site, tmp_path):
    """A world answered from its store (docs/store.md), its proofs and pages written by two worker
    processes: the site the loaded world gives in one process."""
    from provlog import World
    from provlog.logic import store as S

    db = tmp_path / "ex.sqlite"
    World.load(EXAMPLE, store=db).derivation  # derived and stored
    stored = World.load(EXAMPLE, store=db)
    assert isinstance(stored._store, S.Stored)
    export(EXAMPLE, str(tmp_path / "two"), loaded=stored, jobs=2)
    assert _files(tmp_path / "two") == _files(site)


def test_a_forked_worker_reads_the_store_through_its_own_connection(tmp_path):
    """A SQLite connection must not be used across a fork: a worker forked from a process that read a
    store opens its own to the same file, and the parent's still answers after it."""
    import multiprocessing

    from provlog import World

    db = tmp_path / "ex.sqlite"
    World.load(EXAMPLE, store=db).derivation
    w = World.load(EXAMPLE, store=db)
    parents = w._store.con  # the connection this process opened
    w.value("quorvell", "F")  # read through it before forking
    ours, theirs = multiprocessing.get_context("fork").Pipe()

    def child():  # forked: sees the parent's objects as they were, the connection among them
        theirs.send((w._store.con is not parents, w.value("plumbrook", "R").value))

    p = multiprocessing.get_context("fork").Process(target=child)
    p.start()
    own, value = ours.recv()
    p.join()
    assert own and p.exitcode == 0
    assert value == w.value("plumbrook", "R").value  # the same answer from the child's own connection
    assert w._store.con is parents and w.value("quorvell", "F").value == 3  # the parent's, untouched (F.3)


def test_progress_bars_on_a_terminal(tmp_path, monkeypatch):
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self):
            return True

    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    export(EXAMPLE, str(tmp_path / "s"), jobs=2)
    assert "proving" in err.getvalue() and "writing the site" in err.getvalue()


@pytest.mark.parametrize("org,dim", [("quorvell", "R"), ("tallyweir", "R"), ("bastrel", "M")])
def test_a_proof_json_is_the_proof_provlog_why_gives(site, org, dim):
    """quorvell R: clamps (held by) and a signal not admissible; tallyweir R: no bound fired; bastrel M:
    unevidenced. The page's JSON holds the same steps, text and edges as `provlog why --json`."""
    r = CliRunner().invoke(main, ["why", EXAMPLE, org, dim, "--json"])
    assert r.exit_code == 0, r.output
    cli = json.loads(r.output)
    page = json.loads((site / "why" / org / f"{dim}.json").read_bytes())
    assert page["graph"]["root"] == cli["root"] and page["graph"]["edges"] == cli["edges"]
    assert [(n["id"], n["label"], n["loc"]) for n in page["graph"]["nodes"]] == \
        [(n["id"], n["label"], n["loc"]) for n in cli["nodes"]]
    assert "tree" not in page  # the page draws its tree from the graph: the proof is written once


def test_a_proof_page_carries_its_proof_once(site):
    """The static proof page holds the graph for its script, not the HTML tree beside it as well."""
    html = (site / "why" / "quorvell" / "R.html").read_text()
    assert 'id="proof-data"' in html and "data-draw" in html and "<details" not in html
    assert html.count('"handle":') == len(json.loads((site / "why" / "quorvell" / "R.json").read_bytes())["graph"]["nodes"])


def test_refuses_a_folder_it_did_not_write_and_deletes_nothing(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.md").write_text("mine")
    r = CliRunner().invoke(main, ["site", EXAMPLE, str(mine)])
    assert r.exit_code == 1 and "provlog did not write" in r.output and (mine / "notes.md").read_text() == "mine"
    r = CliRunner().invoke(main, ["site", EXAMPLE, str(mine), "--force"])
    assert r.exit_code == 0, r.output
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("mine.replaced-")]
    assert len(aside) == 1 and (aside[0] / "notes.md").read_text() == "mine"
    assert (mine / "index.html").is_file() and (mine / MARKER).is_file()


def test_replaces_its_own_site_but_not_a_file_added_deep_inside(tmp_path):
    out = tmp_path / "site"
    r = CliRunner().invoke(main, ["site", EXAMPLE, str(out)])
    assert r.exit_code == 0 and r.output.splitlines() == [f"provlog: wrote 242 files to {out}; open {out}/index.html"]
    # (no progress bar: stderr is not a terminal here; 242 = 119 pages and their JSON, 4 static files)
    assert CliRunner().invoke(main, ["site", EXAMPLE, str(out)]).exit_code == 0  # ours: replaced whole
    (out / "org" / "my-note.txt").write_text("keep me")
    r = CliRunner().invoke(main, ["site", EXAMPLE, str(out)])
    assert r.exit_code == 1 and "org/my-note.txt" in r.output
    assert (out / "org" / "my-note.txt").read_text() == "keep me"


def test_a_world_that_does_not_load_writes_nothing(tmp_path):
    bad = tmp_path / "bad.facts"
    bad.write_text('org x "X" type=nosuch\n')
    r = CliRunner().invoke(main, ["site", str(bad), str(tmp_path / "out")])
    assert r.exit_code != 0 and "bad.facts:1" in r.output and not (tmp_path / "out").exists()


def test_a_page_a_worker_cannot_render_stops_the_export_and_writes_nothing(tmp_path, monkeypatch):
    """An org page that fails in a worker (a 500 there) is reported by the parent with its URL, as one
    failing in the parent is, and OUT is not made."""
    from provlog.importers.records import ImportFailure
    from provlog.queries.web import data

    def broken(world, org):
        raise RuntimeError("boom")

    monkeypatch.setattr(data, "policies", broken)  # the forked workers inherit it
    with pytest.raises(ImportFailure) as e:
        export(EXAMPLE, str(tmp_path / "out"), jobs=2)
    assert re.fullmatch(r"/org/[a-z0-9-]+: the page did not render \(500\)", str(e.value))
    assert not (tmp_path / "out").exists()


def test_hostile_text_is_escaped_in_every_exported_page(tmp_path):
    out = tmp_path / "h"
    export(HOSTILE, str(out))
    pages = {n: b.decode() for n, b in _files(out).items() if n.endswith(".html")}
    assert f"org/{fname('odd.v2')}.html" in pages and "person/p1.html" in pages
    for name, html in pages.items():
        for bad in ("<script>alert", "<script>window.pwned", "<img src=x", "<svg onload", "<b>bold</b>",
                    "<b>persona</b>", "\u202e", "\x07"):
            assert bad not in html, (name, bad)
        assert 'href="javascript:' not in html, name
    assert "[U+202E]" in pages["person/p1.html"] and "&lt;script&gt;alert(4)" in pages["person/p1.html"]


def test_file_names_are_one_to_one():
    ids = ["a", "A", "a.b", "a~2eb", "a-b", "a_b"]
    assert len({fname(i) for i in ids}) == len(ids)


# -- what a replace may delete (issue 38): only files whose bytes the manifest proves ----------------------
TINY = 'lab acme "Acme AI"\norg o1 "One Evals" type=nonprofit evaluated=yes\n'


@pytest.fixture
def written(tmp_path):
    """A site of a one-org world, written once (OUT = tmp/site)."""
    (tmp_path / "w.facts").write_text(TINY)
    out = tmp_path / "site"
    r = CliRunner().invoke(main, ["site", str(tmp_path / "w.facts"), str(out)])
    assert r.exit_code == 0, r.output
    return out


def _again(out):
    return CliRunner().invoke(main, ["site", str(out.parent / "w.facts"), str(out)])


def test_the_manifest_lists_each_file_with_the_hmac_of_its_bytes(written):
    from provlog.queries.web.export import seal

    lines = [l for l in (written / MARKER).read_text().splitlines() if not l.startswith("#")]
    assert lines and all(re.fullmatch(r"[0-9a-f]{64}  \S+", l) for l in lines)
    mac, rel = lines[0].split("  ")
    assert seal(rel, (written / rel).read_bytes()) == mac
    assert _again(written).exit_code == 0 and (written / "index.html").is_file()  # proved: replaced


@pytest.mark.parametrize("added", ["empty folder", "fifo", "symlink", "changed file"])
def test_anything_it_cannot_prove_stops_the_replace_and_nothing_is_deleted(written, added):
    import os

    what = {"empty folder": "org/mine", "fifo": "org/pipe", "symlink": "link.html", "changed file": "index.html"}[added]
    if added == "empty folder":
        (written / what).mkdir()
    elif added == "fifo":
        os.mkfifo(written / what)
    elif added == "symlink":
        (written / what).symlink_to(written / "index.html")
    else:
        (written / what).write_text("my edit")
    before = sorted(p.relative_to(written).as_posix() for p in written.rglob("*"))
    r = _again(written)
    assert r.exit_code == 1 and what in r.output and "not what it wrote" in r.output
    assert sorted(p.relative_to(written).as_posix() for p in written.rglob("*")) == before


def test_a_manifest_planted_in_a_user_s_folder_proves_nothing(tmp_path):
    import hashlib

    (tmp_path / "w.facts").write_text(TINY)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    # the planter knows the format and the bytes, not this user's key (a plain SHA-256 is no proof)
    mac = hashlib.sha256(b"thesis.tex\0years of work").hexdigest()
    (mine / MARKER).write_text(f"# Written by `provlog site`\n{mac}  thesis.tex\nthesis.tex\n")
    r = CliRunner().invoke(main, ["site", str(tmp_path / "w.facts"), str(mine)])
    assert r.exit_code == 1 and "thesis.tex" in r.output
    assert (mine / "thesis.tex").read_text() == "years of work" and not (mine / "index.html").exists()


def test_a_file_swapped_after_the_check_is_kept_not_deleted(written):
    # put() moves the old site aside and deletes file by file what is proved at that moment
    from provlog.queries.web.export import SiteTarget

    (written / "index.html").write_text("swapped in after the check")
    kept = SiteTarget(written)._discard(written)
    assert kept == str(written) and sorted(p.name for p in written.rglob("*")) == ["index.html"]
