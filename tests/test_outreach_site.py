"""Issue 41, items 3 and 4: reply windows gate the public site, stale letters warn, candidates are
listed with their derived result, and out-of-scope orgs stay out of every count.

Windows (RULES section 12, docs/outreach.md): a letter sent on S with W days asks a reply by S + W;
the subject is withheld through that day and published from the next, or from the day a reply came.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog import World
from provlog.queries.cli import main
from provlog.queries.windows import state

EXAMPLE = str(Path(__file__).resolve().parent.parent / "facts" / "worlds" / "example")
BASE = ('org lodge "Lodge Evaluations" type=nonprofit\nentity p "P" kind=public\n'
        'source reply "Lodge: reply" publisher=lodge status=confirmed\n'
        'signal lg-r lodge R for floor 3 rule=R.1 src=reply\n')


def world(text: str, as_of: str) -> World:
    return World.from_text(BASE + text, as_of=as_of)


@pytest.mark.parametrize("as_of, status", [("2026-09-03", "in-window"),   # the reply-by day: still in
                                           ("2026-09-04", "closed"),      # the day after: published
                                           ("2026-08-19", "unsent")])     # before the letter went out
def test_window_one_day_before_and_after_closing(as_of, status):
    w = state(world("reply-window 14\ncontact lodge sent=2026-08-20\n", as_of), "lodge")
    assert (w.status, w.published) == (status, status == "closed")
    if status != "unsent":
        assert w.reply_by == "2026-09-03" and w.says() == "in reply window until 2026-09-03"


def test_a_reply_closes_the_window_early_and_override_beats_default():
    text = "reply-window 14\ncontact lodge sent=2026-08-20 window=30 replied=2026-08-25 reply=reply\n"
    assert state(world(text, "2026-08-24"), "lodge").status == "in-window"  # a reply not yet come
    w = state(world(text, "2026-08-25"), "lodge")
    assert (w.status, w.published, w.reply_by) == ("replied", True, "2026-09-19")  # window=30 overrides 14
    assert state(world("contact lodge sent=2026-08-20\n", "2026-09-19"), "lodge").reply_by == "2026-09-19"  # 30


def site(tmp_path, text: str, *extra):
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "w.facts").write_text(BASE + text, encoding="utf-8")
    out = tmp_path / "site"
    r = CliRunner().invoke(main, ["--no-store", "site", str(tmp_path / "w.facts"), str(out), *extra])
    assert r.exit_code == 0, r.output
    return out


def test_site_withholds_in_window_and_publishes_after(tmp_path):
    out = site(tmp_path / "a", "contact lodge sent=2026-08-20 window=14\nas-of 2026-09-03\n")
    assert json.loads((out / "org" / "lodge.json").read_text()) == {
        "subject": "lodge", "name": "Lodge Evaluations", "withheld": "in reply window until 2026-09-03"}
    page = (out / "org" / "lodge.html").read_text()
    assert "in reply window until 2026-09-03" in page and "R.1" not in page
    assert "R.1" not in (out / "why" / "lodge" / "R.html").read_text()
    index = json.loads((out / "index.json").read_text())
    assert all(not s["rows"] for s in index["sections"]) and index["withheld"][0]["org"] == "lodge"
    # near miss: one day later the window is closed and the card is published
    out = site(tmp_path / "b", "contact lodge sent=2026-08-20 window=14\nas-of 2026-09-04\n")
    assert "withheld" not in json.loads((out / "org" / "lodge.json").read_text())
    assert "R.1" in (out / "org" / "lodge.html").read_text()


def test_preview_writes_everything_marked_on_every_page(tmp_path):
    out = site(tmp_path, "contact lodge sent=2026-08-20\nas-of 2026-08-21\n", "--preview")
    assert "R.1" in (out / "org" / "lodge.html").read_text()
    pages = sorted(out.rglob("*.html"))
    assert pages and all('id="preview"' in p.read_text() for p in pages)
    plain = site(tmp_path / "plain", "contact lodge sent=2026-08-20\nas-of 2026-09-30\n")
    assert not any('id="preview"' in p.read_text() for p in plain.rglob("*.html"))


def test_a_world_without_outreach_is_published_as_before(tmp_path):
    out = site(tmp_path, "as-of 2026-09-01\n")
    assert "withheld" not in json.loads((out / "org" / "lodge.json").read_text())


def check(tmp_path, text: str):
    (tmp_path / "w.facts").write_text(BASE + text, encoding="utf-8")
    return CliRunner().invoke(main, ["--no-store", "check", str(tmp_path / "w.facts")])


def test_stale_letter_warns_and_a_fresh_one_does_not(tmp_path):
    from provlog.queries.outreach import digests

    w = world("as-of 2026-09-01\n", None)
    now = digests(w, people=False)["lodge"]
    fresh = check(tmp_path, f"contact lodge sent=2026-08-01 letter={now}\nas-of 2026-09-01\n")
    assert fresh.exit_code == 0 and "W130" not in fresh.output
    # the card moved after the letter: a second R signal, floor 4 by R.5, is not what was sent
    moved = check(tmp_path, f"contact lodge sent=2026-08-01 letter={now}\nas-of 2026-09-01\n"
                            "cite lg-r reply\nsignal lg-g lodge G for floor 2 rule=G.2 src=reply\n")
    assert moved.exit_code == 0 and "[W130]" in moved.output and "sent to lodge on 2026-08-01 is stale" in moved.output


def test_candidates_cli_and_w131(tmp_path):
    r = CliRunner().invoke(main, ["--no-store", "candidates", EXAMPLE, "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    got = {c["id"]: (c["criterion"], c["derived"], c["agrees"]) for c in doc["candidates"]}
    # by hand from section 11 at 2026-09-01: V-4's card (2026-01-12) is within 24 months, V-2's (2024-06-30) is not
    assert got == {"cand-quorvell": ("system-card", "included", True), "cand-harrowgate": ("system-card", "excluded", True),
                   "cand-norland-oma": ("statute", "included", True), "cand-tallyweir": ("benchmark", "included", True),
                   "cand-plumbrook": ("benchmark", "out-of-scope", True)}
    assert doc["counts"] == {"checked": 4, "included": 3, "excluded": 1, "out_of_scope": 1}
    # near miss of the 24-month window: read on 2028-01-12 the V-4 citation is 24 months old, excluded
    r = CliRunner().invoke(main, ["--no-store", "candidates", EXAMPLE, "--json", "--as-of", "2028-01-12"])
    later = {c["id"]: c["derived"] for c in json.loads(r.output)["candidates"]}
    assert later["cand-quorvell"] == "excluded"
    text = BASE + ('source card "Card" publisher=p status=confirmed date=2024-06-30\n'
                   'candidate c1 "Lodge" criterion=system-card result=included checked=2026-08-10 cited=card\n'
                   "as-of 2026-09-01\n")
    (tmp_path / "w.facts").write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["--no-store", "check", str(tmp_path / "w.facts")])
    assert r.exit_code == 0 and "[W131]" in r.output and "not within the 24 months up to 2026-09-01" in r.output


def test_out_of_scope_in_no_count():
    r = CliRunner().invoke(main, ["--no-store", "check", EXAMPLE])
    assert "7 orgs in scope (1 out of scope, not counted)" in r.output  # plumbrook is status=out-of-scope
    r = CliRunner().invoke(main, ["--no-store", "check", EXAMPLE, "--json"])
    doc = json.loads(r.output)
    assert (doc["orgs"], doc["out_of_scope"]) == (7, 1)


def test_example_world_cycle():
    w = World.load(EXAMPLE, store=False)
    assert state(w, "norland-oma").status == "in-window" and state(w, "norland-oma").reply_by == "2026-09-19"
    assert state(w, "lodevane").status == "replied"
    assert {state(w, o).status for o in w.orgs if o not in ("norland-oma", "lodevane")} == {"closed"}
    assert state(w, "maren-quist").status == "closed"


def test_gating_in_a_browser(tmp_path):
    """The example's static site from disk in headless Chromium: norland-oma (in its window until
    2026-09-19) shows no value anywhere; lodevane (replied early) and quorvell (window closed) do."""
    from test_web_browser import ARGS, CHROMIUM, _need

    _need()
    from playwright.sync_api import sync_playwright

    from provlog.queries.web.export import export

    out = tmp_path / "site"
    export(EXAMPLE, str(out))
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            pg = b.new_page()
            pg.goto((out / "index.html").as_uri())
            shown = pg.eval_on_selector_all("#registry tr[data-org]", "rs => rs.map(r => r.dataset.org)")
            assert "norland-oma" not in shown and {"lodevane", "quorvell"} <= set(shown)
            assert pg.inner_text("#withheld tr[data-held='norland-oma']").endswith("in reply window until 2026-09-19")
            pg.goto((out / "org" / "norland-oma.html").as_uri())
            text = pg.inner_text("main")
            assert "in reply window until 2026-09-19" in text
            assert pg.query_selector_all("td.value, table") == [] and "G.5" not in text
            pg.goto((out / "why" / "norland-oma" / "F.html").as_uri())
            assert "F.9" not in pg.inner_text("main") and "in reply window" in pg.inner_text("main")
            pg.goto((out / "org" / "lodevane.html").as_uri())
            assert "in reply window" not in pg.inner_text("main") and "F.7" in pg.inner_text("main")
            pg.goto((out / "candidates.html").as_uri())
            rows = pg.eval_on_selector_all("#candidates tr[data-candidate]", "rs => rs.map(r => r.dataset.candidate)")
            assert rows == ["cand-harrowgate", "cand-norland-oma", "cand-plumbrook", "cand-quorvell", "cand-tallyweir"]
            assert "4 checked in scope: 3 included, 1 excluded; 1 out of scope, in no count" in " ".join(
                pg.inner_text("main").split())
        finally:
            b.close()
