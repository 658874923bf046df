"""The web explorer in a real browser: headless Chromium (Debian's package) driven by Playwright.

Skipped where chromium or Playwright is missing, except under CI (CI=true),
where their absence fails. Screenshots go to $PROVLOG_SCREENSHOTS (default:
the test's temporary folder).
"""
import os
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
EXAMPLE = str(Path(__file__).parent.parent / "facts" / "worlds" / "example")


def _need():
    missing = []
    try:
        import flask  # noqa: F401
        import playwright.sync_api  # noqa: F401
    except ImportError as e:
        missing.append(str(e))
    if not CHROMIUM:
        missing.append("no chromium on PATH (apt-get install chromium)")
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail("browser tests need: " + "; ".join(missing))
        pytest.skip("; ".join(missing))


@pytest.fixture(scope="module")
def site():
    _need()
    from werkzeug.serving import make_server

    from provlog.queries.web import create_app

    server = make_server("127.0.0.1", 0, create_app(EXAMPLE), threaded=True)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="module")
def page(site):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page(viewport={"width": 1280, "height": 900})
        pg.errors = []
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
        yield pg
        browser.close()


@pytest.fixture
def shots(tmp_path):
    folder = Path(os.environ.get("PROVLOG_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_registry_to_proof_to_graph(site, page, shots):
    page.goto(site + "/")
    assert page.locator("#registry tbody tr").count() == 8
    page.fill("#filter", "quorvell")
    assert page.locator("#registry tbody tr:visible").count() == 1
    page.screenshot(path=str(shots / "registry.png"))
    page.click("a.org:has-text('Quorvell')")
    page.wait_for_url("**/org/quorvell**")
    # the against-interest R cell is the one marked as differing
    assert page.locator("td.differs a[href*='/why/quorvell/R?policy=against-interest']").count() == 1
    page.click("a[href*='/why/quorvell/R?policy=against-interest']")
    page.wait_for_url("**/why/quorvell/R**")
    assert page.locator("details.fired > summary .tag.fired").first.is_visible()
    assert page.locator(".tag.clamp:has-text('held by C16')").first.is_visible()
    page.screenshot(path=str(shots / "proof-tree.png"))
    page.click("#collapse")
    assert not page.locator("#n2 > summary .label").is_visible()  # collapsed under the root
    page.click("#expand")
    page.click("#show-graph")
    page.wait_for_function("window.provlog.cy && window.provlog.cy.nodes().length > 10")
    assert page.evaluate("window.provlog.cy.nodes('.fired').length") >= 1
    page.screenshot(path=str(shots / "proof-graph.png"))
    assert not page.errors, page.errors


def test_why_not_and_hop_path(site, page, shots):
    page.goto(site + "/why/quorvell/F")
    page.select_option("#not", "4")
    page.click("#ask-why-not")
    page.wait_for_selector("#why-not")
    assert "F.3" in page.inner_text("#why-not")
    page.goto(site + "/org/quorvell")
    page.goto(site + "/money/ternhollow-office")
    page.wait_for_function("window.provlog.cy && window.provlog.cy.nodes().length == 4")
    labels = sorted(page.evaluate("window.provlog.cy.edges().map(e => e.data('label'))"))
    assert "stake 20-25%" in labels and "stake 4% since 2023-06" in labels
    page.screenshot(path=str(shots / "ties.png"))
    assert not page.errors, page.errors
