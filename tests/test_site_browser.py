"""The public site in a real browser (headless Chromium via Playwright, as tests/test_web_browser.py):
placement, band-first sort, reader-chosen weights in the URL, the person page, the static export from disk."""
import random
import threading
from fractions import Fraction
from pathlib import Path

import pytest

from test_web_browser import ARGS, CHROMIUM, EXAMPLE, _need

HOSTILE = str(Path(__file__).parent / "worlds" / "web" / "hostile-site.facts")
DIMS = "F G P A S R M X".split()


@pytest.fixture(scope="module")
def served():
    _need()
    from werkzeug.serving import make_server

    from provlog.queries.web import create_app

    servers = {}
    for name, world in (("example", EXAMPLE), ("hostile", HOSTILE)):
        srv = make_server("127.0.0.1", 0, create_app(world), threaded=True)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers[name] = (srv, f"http://127.0.0.1:{srv.server_port}")
    yield {k: url for k, (_, url) in servers.items()}
    for srv, _ in servers.values():
        srv.shutdown()


@pytest.fixture(scope="module")
def browser(served):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, offline=False)
    pg = ctx.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
    yield pg
    ctx.close()


def _order(page):
    """{group: [org, ...]} in page order, and the groups' order."""
    groups = page.eval_on_selector_all("#registry table", "ts => ts.map(t => t.dataset.group)")
    return groups, {g: page.eval_on_selector_all(f"#group-{g} tbody tr[data-org]", "rs => rs.map(r => r.dataset.org)")
                    for g in groups}


def _weighted(values, weights):
    """queries/records.py weighted_number, the one the CLI's card --preset uses."""
    from provlog.queries.api import weighted_number
    return weighted_number(dict(zip(DIMS, values)), {d: Fraction(w) for d, w in weights.items()})


def test_placement_order_and_no_number_before_weights(served, page):
    page.goto(served["example"] + "/")
    groups, rows = _order(page)
    assert groups == ["referees", "government", "commercial", "watchlist", "out-of-scope"]
    assert rows["referees"] == ["quorvell", "tallyweir"]  # clear before conditional: the band sorts first
    assert page.eval_on_selector_all("td.weighted", "cs => cs.map(c => c.textContent).join('')") == ""
    assert page.locator("#group-watchlist th.weighted").count() == 0  # never ranked
    assert not page.errors, page.errors


def test_weights_rank_within_bands_and_go_in_the_url(served, page):
    from provlog.queries.api import World

    w = World.load(EXAMPLE)
    page.goto(served["example"] + "/")
    page.select_option("#preset", "lab-procurement")
    assert "preset=lab-procurement" in page.url
    shown = page.eval_on_selector_all("#group-commercial tbody tr[data-org]",
                                      "rs => rs.map(r => [r.dataset.org, r.querySelector('td.weighted').title])")
    for org, exact in shown:  # the browser's exact number is the CLI's (card --preset)
        assert exact == str(w.card(org, preset="lab-procurement").weighted), org
    # own weights that flip the two disqualifying commercial orgs, chosen from their values
    vals = {o: [w.card(o).values[d] for d in DIMS] for o in ("bastrel", "veridane-redteam")}
    flips = []
    for d in DIMS:
        one = {x: "0" for x in DIMS}
        one[d] = "1"
        a, b = _weighted(vals["bastrel"], one), _weighted(vals["veridane-redteam"], one)
        if a is not None and b is not None and a != b:
            flips.append((d, a > b))
    assert {hi for _, hi in flips} == {True, False}, flips  # the example world has weights either way
    for d, bastrel_first in flips[:2] + flips[-1:]:
        page.fill("#w-" + d, "1")
        for x in DIMS:
            if x != d:
                page.fill("#w-" + x, "0")
        page.press("#w-" + d, "Enter")  # keyboard: Enter applies
        assert f"weights=" in page.url and f"{d}:1" in page.url
        _, rows = _order(page)
        com = [o for o in rows["commercial"] if o in vals]
        assert com == (["bastrel", "veridane-redteam"] if bastrel_first else ["veridane-redteam", "bastrel"]), d
        assert rows["commercial"][0] == "keelstone"  # conditional stays above disqualifying whatever the weights
        page.reload()  # the URL alone reproduces the ranking
        assert _order(page)[1]["commercial"] == rows["commercial"]
    assert not page.errors, page.errors


def test_browser_and_python_agree_on_many_weight_vectors(served, page):
    page.goto(served["example"] + "/")
    rnd = random.Random(29)
    cases = [([3, 3, 2, 1, 3, 4, None, 2], {d: "0" for d in DIMS} | {"M": "1"}),   # only an unevidenced dim: none
             ([None] * 8, {d: "1" for d in DIMS}),                                  # nothing evidenced: no number
             ([0, 0, 0, 0, 0, 0, 0, 0], {d: "0.1" for d in DIMS}),
             ([4, 0, 4, 0, 4, 0, 4, 0], {d: "1" for d in DIMS})]                    # a tie at 2
    for _ in range(300):
        vals = [rnd.choice([None, 0, 1, 2, 3, 4]) for _ in DIMS]
        ws = {d: rnd.choice(["0", "1", "2", "0.3", "0.25", "10", "0.125", str(rnd.randint(0, 99))]) for d in DIMS}
        cases.append((vals, ws))
    got = page.evaluate("cs => cs.map(c => window.provlog.weighted(c[0], c[1], %s))" % DIMS.__repr__().replace("'", '"'),
                        [[v, w] for v, w in cases])
    for (vals, ws), js in zip(cases, got):
        py = _weighted(vals, ws)
        assert js == (None if py is None else str(py)), (vals, ws)


def test_bad_url_weights_are_said_and_no_number_shown(served, page):
    for q, words in (("?weights=F:abc", "not readable"), ("?weights=Q:1", "not readable"),
                     ("?weights=F:0,G:0", "above 0"), ("?preset=nosuch", "does not have"),
                     # issue 38: names of Object's prototype are no preset of the world
                     ("?preset=__proto__", "does not have"), ("?preset=constructor", "does not have"),
                     ("?preset=hasOwnProperty", "does not have"), ("?preset=toString", "does not have")):
        page.goto(served["example"] + "/" + q)
        assert page.locator("#weights-error").is_visible() and words in page.inner_text("#weights-error"), q
        assert page.eval_on_selector_all("td.weighted", "cs => cs.map(c => c.textContent).join('')") == "", q
    assert not page.errors, page.errors


def test_person_page_and_search(served, page):
    page.goto(served["example"] + "/people")
    page.fill("#filter-people", "kofi")
    assert page.locator("#people li:visible").count() == 1
    page.click("text=Kofi Brandel")
    page.wait_for_url("**/person/kofi-brandel")
    assert "executive" in page.inner_text("#roles") and "P.7" in page.inner_text("#touched")
    page.goto(served["example"] + "/")
    page.fill("#filter", "veridane")
    assert page.locator("#registry tbody tr[data-org]:visible").count() == 1
    assert not page.errors, page.errors


def test_phone_width_and_keyboard(served, browser):
    ctx = browser.new_context(viewport={"width": 375, "height": 800})
    pg = ctx.new_page()
    pg.goto(served["example"] + "/")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 375 + 1  # tables scroll in their box
    pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.className") == "skip"
    pg.focus("#group-referees th[data-sort='band']")
    pg.keyboard.press("Enter")
    assert pg.get_attribute("#group-referees th[data-sort='band']", "aria-sort") == "ascending"
    ctx.close()


def test_static_export_from_disk_offline(browser, tmp_path):
    from provlog.queries.web.export import export

    out = tmp_path / "site"
    export(EXAMPLE, str(out))
    ctx = browser.new_context(offline=True)
    pg = ctx.new_page()
    errors, requests = [], []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("request", lambda r: requests.append(r.url))
    pg.goto((out / "index.html").as_uri())
    assert _order(pg)[0][:3] == ["referees", "government", "commercial"]
    pg.select_option("#preset", "public-reader")
    assert "preset=public-reader" in pg.url and pg.locator("td.weighted").first.inner_text() != ""
    pg.click("a.org:has-text('Quorvell')")
    pg.wait_for_url("**/org/quorvell.html")
    pg.click("#policies a >> nth=0")
    pg.wait_for_url("**/why/quorvell/F.html")
    pg.click("#show-graph")
    pg.wait_for_function("window.provlog.cy && window.provlog.cy.nodes().length > 3")
    pg.goto((out / "person" / "kofi-brandel.html").as_uri())
    pg.click("#touched a >> nth=0")
    pg.wait_for_url("**/org/veridane-redteam.html")
    pg.goto((out / "money" / "ternhollow-office.html").as_uri())
    pg.wait_for_function("window.provlog.cy && window.provlog.cy.nodes().length == 4")
    assert not errors, errors
    assert all(u.startswith(("file:", "data:")) for u in requests), requests
    ctx.close()


def test_hostile_world_escaped_served_and_exported(served, browser, tmp_path):
    from provlog.queries.web.export import export

    out = tmp_path / "h"
    export(HOSTILE, str(out))
    ctx = browser.new_context()
    pg = ctx.new_page()
    dialogs = []
    pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    urls = [served["hostile"] + u for u in ("/", "/org/evil", "/org/odd.v2", "/person/p1", "/people", "/money/p1",
                                             "/why/evil/X", "/matrix")]
    urls += [p.as_uri() for p in sorted(out.rglob("*.html"))]
    for u in urls:
        pg.goto(u)
        assert pg.evaluate("window.pwned") is None, u
        assert pg.locator("img[src=x], svg[onload], b:has-text('bold'), b:has-text('persona')").count() == 0, u
    pg.goto(served["hostile"] + "/person/p1")
    assert "<script>alert(4)</script>Mallory [U+202E]RLO" in pg.inner_text("h1")
    pg.goto(served["hostile"] + "/?preset=pwn")
    assert pg.locator("td.weighted").first.inner_text() != ""
    assert not dialogs, dialogs
    ctx.close()


def _cli_steps(org, dim):
    """`provlog why WORLD ORG DIM` as (parent handle, handle, label, seen before) per step, sorted."""
    import re

    from click.testing import CliRunner

    from provlog.queries.cli import main

    r = CliRunner().invoke(main, ["why", EXAMPLE, org, dim])
    assert r.exit_code == 0, r.output
    steps, above = [], {}
    for line in r.output.splitlines():
        m = re.match(r"( *)#(\d+) (.*?)(?:  @\S+)?$", line) or re.match(r"( *)\(see #(\d+)\) (.*)$", line)
        if m:
            depth, handle = len(m.group(1)) // 2, int(m.group(2))  # two spaces a level
            steps.append((above.get(depth - 1, 0), handle, m.group(3), line.lstrip().startswith("(see")))
            above[depth] = handle
    return sorted(steps)


#: each step of the drawn tree: its parent step's handle (0 at the root), its handle, its text, "see #n"
STEPS = """els => els.map(e => {
  const up = e.parentElement.closest('details'), parent = up ? +up.id.slice(1) : 0;
  return e.tagName === 'DETAILS'
    ? [parent, +e.querySelector(':scope > summary > .handle').textContent.slice(1),
       e.querySelector(':scope > summary > .label').textContent, false]
    : [parent, +e.querySelector('a').textContent.replace('see #', ''), e.textContent.replace(/^see #\\d+ /, ''), true];
})"""


@pytest.mark.parametrize("org,dim", [("quorvell", "F"), ("quorvell", "R"), ("tallyweir", "R"), ("bastrel", "M")])
def test_exported_proof_page_shows_the_proof_provlog_why_gives(browser, tmp_path_factory, org, dim):
    """The static proof page, drawn by its script from disk, shows every step of `provlog why`: its
    handle and text under the same step, a shared step as "see #n" where the CLI says "(see #n)".
    (Siblings run in handle order on the page, as `provlog serve` shows them, and in rule order in the CLI.)"""
    from provlog.queries.web.export import export

    out = tmp_path_factory.getbasetemp() / "proof-site"
    if not out.exists():
        export(EXAMPLE, str(out))
    ctx = browser.new_context(offline=True)
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto((out / "why" / org / f"{dim}.html").as_uri())
    shown = sorted(tuple(x) for x in pg.eval_on_selector_all("#tree details, #tree div.see", STEPS))
    steps = _cli_steps(org, dim)
    assert len(steps) > 3 and any(s[3] for s in steps) or dim == "M"
    assert shown == steps
    assert pg.is_visible("#tree details >> nth=0") and not errors, errors
    ctx.close()
