"""The web explorer without a browser: pages, safety, errors (queries/web).

Values shown are the API's (derived by hand for the example world in
facts/worlds/example/assessments.facts); these tests check the pages carry
them, mark what they should, and escape what curators wrote.
"""
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("flask")

from provlog.queries.web import create_app  # noqa: E402

EXAMPLE = str(Path(__file__).parent.parent / "facts" / "worlds" / "example")
HOSTILE = str(Path(__file__).parent / "worlds" / "web" / "hostile.facts")


@pytest.fixture(scope="module")
def client():
    return create_app(EXAMPLE).test_client()


def test_registry_lists_every_org_with_its_card(client):
    html = client.get("/").get_data(as_text=True)
    rows = re.findall(r'<tr data-org="([^"]+)">', html)
    assert sorted(rows) == sorted(["quorvell", "tallyweir", "bastrel", "norland-oma", "veridane-redteam",
                                   "lodevane", "keelstone", "plumbrook"])
    # quorvell under standard: F 3 (F.3), G 3 (held by G.7), R 4 (assessments.facts)
    row = html.split('<tr data-org="quorvell">')[1].split("</tr>")[0]
    values = [int(v) if v != "-" else None for v in re.findall(r'">(-|\d)</a></td>', row)]
    assert values[:2] == [3, 3] and values[5] == 4


def _sections(html):
    """(group, [(org, band)]) for each table of the registry page, in page order."""
    out = []
    for part in html.split('<table class="sortable registry')[1:]:
        group = re.search(r'data-group="([^"]+)"', part).group(1)
        body = part.split("</table>")[0]
        rows = re.findall(r'<tr data-org="([^"]+)">.*?<td class="band ([a-z]+)">', body, re.S)
        out.append((group, rows))
    return out


def test_registry_places_orgs_as_section_10_says(client):
    # section 10: referees; government; commercial and first-party (vendors, lab units, lab-funded consortia);
    # a benchmark goes with its owner's type (tallyweir is academic, keelstone a consortium); the entrant
    # lodevane is watchlist only; plumbrook is status=out-of-scope (D-001), shown in its own section
    secs = _sections(client.get("/").get_data(as_text=True))
    groups = {g: {o for o, _ in rows} for g, rows in secs}
    assert [g for g, _ in secs] == ["referees", "government", "commercial", "watchlist", "out-of-scope"]
    assert groups == {"referees": {"quorvell", "tallyweir"}, "government": {"norland-oma"},
                      "commercial": {"bastrel", "veridane-redteam", "keelstone"}, "watchlist": {"lodevane"},
                      "out-of-scope": {"plumbrook"}}
    order = ["clear", "conditional", "disqualifying"]
    for _, rows in secs:  # the band sorts first
        ranks = [order.index(b) for _, b in rows]
        assert ranks == sorted(ranks)
    assert "weighted" not in "".join(re.findall(r'<td class="weighted num">([^<]*)</td>', client.get("/").get_data(as_text=True)))


def test_person_page_lists_public_roles_and_touched_values(client):
    html = client.get("/person/kofi-brandel").get_data(as_text=True)
    # structure.facts:120-122: executive at veridane-redteam; employee and committee (recusal=none) at veridane
    roles = re.findall(r"<tr><td>([a-z]+)</td>", html.split('id="roles"')[1].split("</table>")[0])
    assert sorted(roles) == ["committee", "employee", "executive"]
    touched = html.split('id="touched"')[1].split("</table>")[0]
    assert "veridane-redteam" in touched and "/why/veridane-redteam/P" in touched  # P.7: a lab's own team
    assert client.get("/person/quorvell").status_code == 404 and client.get("/person/nobody").status_code == 404
    assert "Kofi Brandel" in client.get("/people").get_data(as_text=True)


def test_registry_follows_the_policy(client):
    html = client.get("/?policy=against-interest").get_data(as_text=True)
    row = html.split('<tr data-org="quorvell">')[1].split("</tr>")[0]
    # against-interest drops quorvell's own pages from for-signals: R 3 (held by C16)
    assert re.findall(r'">(-|\d)</a></td>', row)[5] == "3"
    assert client.get("/?policy=nosuch").status_code == 404


def test_org_page_marks_what_differs_from_standard(client):
    html = client.get("/org/quorvell").get_data(as_text=True)
    r_row = html.split('title="publication">R')[1].split("</tr>")[0]
    cells = re.findall(r'<td class="value( differs)?">\s*<a href="/why/quorvell/R\?policy=([a-z-]+)">(-|\d)</a>', r_row)
    by_policy = {p: (v, bool(d)) for d, p, v in cells}
    assert by_policy["standard"] == ("4", False)
    assert by_policy["against-interest"] == ("3", True)  # the near miss: only this one differs
    assert by_policy["leads-included"] == ("4", False)


def test_proof_page_highlights_the_decider_and_the_clamp(client):
    html = client.get("/why/quorvell/R?policy=against-interest").get_data(as_text=True)
    assert 'class="node bound fired"' in html and "decides" in html
    assert '<span class="tag clamp">held by C16</span>' in html
    assert "facts/worlds/example/signals.facts:30" in html  # each fact with file:line
    data = json.loads(re.search(r'<script type="application/json" id="proof-data">(.*?)</script>', html, re.S).group(1))
    assert data["root"] == "n1" and any(n["fired"] for n in data["nodes"])


def test_why_not_from_the_same_page(client):
    html = client.get("/why/quorvell/F?not=4").get_data(as_text=True)
    assert 'id="why-not"' in html and "Why not 4?" in html
    section = html.split('id="why-not"')[1].split('id="tree"')[0]
    # F.3's cap 3 blocks a 4 (assessments.facts): the block, the fee fact with file:line, and what would lift it
    assert "F.3/quorvell/1 (F.3) caps quorvell F at 3 &lt; 4 under standard" in section
    assert "facts/worlds/example/structure.facts:47" in section and "what would lift it" in section
    assert client.get("/why/quorvell/F?not=9").status_code == 404
    # near misses of 4 that Python's isdigit()/int() accept: a superscript two and an Arabic-Indic three
    for not_ascii in ("\u00b2", "\u0663", "\uff14", "-0", "%2B3", "3.0", "03"):
        assert client.get(f"/why/quorvell/F?not={not_ascii}").status_code == 404, not_ascii
    assert client.get("/why/quorvell/F?not=%204%20").status_code == 200  # spaces around a digit are trimmed


def test_money_graph_from_any_entity(client):
    html = client.get("/money/ternhollow-office").get_data(as_text=True)
    data = json.loads(re.search(r'id="tie-data">(.*?)</script>', html, re.S).group(1))
    # expect.facts: ternhollow is hop 2, through Larchmere's 4% of Veridane and Bastrel's revenue from it
    assert data["hop"] == 2
    edges = {(e["source"], e["target"]): e["label"] for e in data["edges"]}
    assert edges[("ternhollow-office", "larchmere-capital")] == "stake 20-25%"
    assert edges[("larchmere-capital", "veridane")] == "stake 4% since 2023-06"  # since=2023-06
    assert ("bastrel", "veridane") in edges
    # near miss: a role is not a tie
    assert json.loads(re.search(r'id="tie-data">(.*?)</script>', client.get("/money/lena-ostrow").get_data(as_text=True),
                                re.S).group(1))["edges"] == []


def test_matrix_links_to_paths(client):
    html = client.get("/matrix").get_data(as_text=True)
    assert 'href="/money/quorvell"' in html and 'href="/org/quorvell"' in html


def test_read_only_local_and_strict_headers(client):
    assert client.post("/").status_code == 405
    # docs/web.md: GET only. Flask answers OPTIONS itself (200, an Allow list) unless the guard stops it
    for method in ("OPTIONS", "PUT", "DELETE", "PATCH"):
        r = client.open("/", method=method)
        assert r.status_code == 405 and r.headers["Allow"] == "GET, HEAD", method
    assert client.open("/org/quorvell", method="OPTIONS").status_code == 405
    assert client.head("/").status_code == 200  # HEAD is GET without the body
    r = client.get("/")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-eval" not in csp and "'unsafe-inline'" not in csp.split("style-src-attr")[0]
    assert client.get("/org/nosuch").status_code == 404
    assert client.get("/why/quorvell/Q").status_code == 404
    assert client.get("/money/nosuch").status_code == 404


def test_curator_text_is_escaped():
    c = create_app(HOSTILE).test_client()
    for url in ("/", "/org/evil", "/why/evil/X?policy=leads-included", "/money/evil", "/matrix"):
        r = c.get(url)
        assert r.status_code == 200, url  # the world loads: its text is shown, not refused
        html = r.get_data(as_text=True)
        assert "<script>window.pwned" not in html and "<img src=x" not in html and "<b>bold</b>" not in html, url
        assert "</script><script>alert(2)" not in html, url
    html = c.get("/").get_data(as_text=True)
    assert "&lt;img src=x onerror=alert(1)&gt;Evil Eval" in html
    # a javascript: title is never a link
    assert 'href="javascript:' not in c.get("/why/evil/X?policy=leads-included").get_data(as_text=True)


def test_a_world_that_does_not_load_shows_its_errors(tmp_path):
    bad = tmp_path / "bad.facts"
    bad.write_text('lab acme "A"\nstake acme nosuch 20%\n')
    r = create_app(str(bad)).test_client().get("/")
    html = r.get_data(as_text=True)
    assert r.status_code == 503 and "Traceback" not in html
    assert "bad.facts:2:" in html and "nosuch" in html and "E110" in html


def test_unknown_default_policy_is_refused():
    from provlog.queries.api import UnknownName

    with pytest.raises(UnknownName):
        create_app(EXAMPLE, "nosuch")


def test_only_the_host_it_serves():
    """DNS rebinding: a page of evil.example whose name resolves to 127.0.0.1 reaches the loopback bind, but
    its requests name evil.example; only the served address and the loopback names are answered."""
    c = create_app(EXAMPLE).test_client()
    for good in ("localhost", "localhost:8470", "127.0.0.1:8470", "[::1]:8470", "LOCALHOST:1"):
        assert c.get("/", headers={"Host": good}).status_code == 200, good
    for bad in ("evil.example", "evil.example:8470", "127.0.0.1.evil.example:8470", "localhost.evil.example"):
        r = c.get("/", headers={"Host": bad})
        assert r.status_code == 400 and "not" in r.get_data(as_text=True), bad
    # provlog serve --host NAME also answers NAME; a wildcard bind answers any name (it serves every interface)
    named = create_app(EXAMPLE, host="explorer.lan").test_client()
    assert named.get("/", headers={"Host": "explorer.lan:8470"}).status_code == 200
    assert named.get("/", headers={"Host": "other.lan:8470"}).status_code == 400
    v6 = create_app(EXAMPLE, host="fe80::5").test_client()  # a browser brackets an IPv6 address
    assert v6.get("/", headers={"Host": "[fe80::5]:8470"}).status_code == 200
    assert v6.get("/", headers={"Host": "[fe80::6]:8470"}).status_code == 400
    assert create_app(EXAMPLE, host="0.0.0.0").test_client().get("/", headers={"Host": "other.lan"}).status_code == 200
