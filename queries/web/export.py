"""`provlog site WORLD OUT/`: the whole site as static files, for any static host or a file:// URL.

Every page the explorer serves for the site's default policy (standard, RULES
section 0), rendered in site mode (relative links, links.py), with its data
as JSON beside it (``org/quorvell.html`` and ``org/quorvell.json``); the
weighted number is computed in the browser from the published values
(static/app.js), so the site needs no server and no network. The same world
gives the same bytes: pages are written in a fixed order from sorted ids,
with no dates or absolute paths in them.

OUT is put in place whole, as an import's folder is (importers/target.py): a
folder provlog did not write is refused (``force`` moves it aside), and a
site provlog wrote earlier is replaced only when every file in it is one its
manifest proves (:class:`SiteTarget`); only those files are deleted.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import stat
import sys
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from ...facts import DIMS
from ...importers.records import ImportFailure
from ...importers.target import Target
from ..api import DEFAULT_POLICY, World
from . import data, prove
from .app import create_app
from .links import fname

#: the site's manifest: every file provlog wrote, ``HMAC  path`` a line (the HMAC of its name and bytes,
#: with this user's key: :func:`seal`), after the comments
MARKER = ".provlog-site"
STATIC = Path(__file__).parent / "static"


class SiteTarget(Target):
    """OUT of `provlog site`: ours only if every entry in it, at any depth, is a regular file the manifest
    lists with the HMAC of its bytes this user's key gives (:func:`seal`), or a folder holding such
    files, and the manifest itself. A manifest proves only what this user's provlog wrote: one planted
    in a folder, or a file changed, added or replaced (an empty folder, a FIFO, a symlink) is not ours,
    and stops the replace."""

    label = "{given}"
    job = "the site, e.g. provlog site WORLD site/"
    tag = "provlog-site"
    instead = "beside the world, e.g. site/"

    def _state(self) -> str:
        p = self.path
        if not os.path.lexists(p) or p.is_symlink() or not p.is_dir():
            return super()._state()
        entries = sorted(q.name for q in p.iterdir())
        if not entries:
            return "empty"
        listed = _listed(p / MARKER)
        if listed is None:
            shown = ", ".join(entries[:5]) + (f" and {len(entries) - 5} more" if len(entries) > 5 else "")
            return f"a folder provlog did not write (it holds {shown})"
        theirs = _unproved(p, listed)
        if theirs:
            shown = ", ".join(theirs[:5]) + (f" and {len(theirs) - 5} more" if len(theirs) > 5 else "")
            return f"a site provlog wrote, but {shown} in it are not what it wrote"
        return "ours"

    def _discard(self, old: Path) -> Optional[str]:
        """Delete, of the old site moved aside, only each file whose bytes are proved now (as it is
        deleted), then the folders emptied; anything else is kept there, and its name returned."""
        listed = _listed(old / MARKER) or {}
        for rel in sorted(listed, reverse=True):
            q = old / rel
            if _proved(q, rel, listed[rel]):
                q.unlink()
        for root, dirs, _ in os.walk(old, topdown=False):  # the deepest first
            for d in dirs:
                try:
                    os.rmdir(os.path.join(root, d))  # only an emptied folder goes
                except OSError:
                    pass
        try:
            (old / MARKER).unlink()
            os.rmdir(old)
        except OSError:
            return str(old)  # something not proved is left: kept, named
        return None


def _key() -> bytes:
    """The key of the site's manifest: derived from this user's secret (logic/store/, kept in the
    user's cache folder, never in OUT)."""
    from ...logic.store.key import secret

    return hashlib.sha256(b"provlog-site\0" + secret()).digest()


def seal(rel: str, body: bytes, key: Optional[bytes] = None) -> str:
    """The HMAC-SHA-256 a manifest lists for the file ``rel`` holding ``body`` (its name bound in)."""
    return hmac.new(key or _key(), rel.encode("utf-8", "surrogateescape") + b"\0" + body, hashlib.sha256).hexdigest()


def _proved(q: Path, rel: str, mac: str) -> bool:
    """Whether ``q`` is a regular file (no symlink) whose bytes give the listed ``mac``."""
    try:
        if not stat.S_ISREG(os.lstat(q).st_mode):
            return False
        fd = os.open(q, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            body = f.read()
    except OSError:
        return False
    return hmac.compare_digest(seal(rel, body), mac)


def _unproved(p: Path, listed: Dict[str, str]) -> List[str]:
    """The entries under ``p`` that are not what provlog wrote: a file not listed or not proved, a
    symlink, a FIFO or device, a folder holding no listed file (an empty folder you made)."""
    folders = {os.path.dirname(rel) for rel in listed}
    folders |= {f for rel in folders for f in _parents(rel)}
    theirs = []
    for root, dirs, files in os.walk(p):
        for n in dirs + files:
            q = Path(root, n)
            rel = q.relative_to(p).as_posix()
            if rel == MARKER:
                continue
            if n in dirs and not q.is_symlink():
                if rel not in folders:
                    theirs.append(rel)
            elif rel not in listed or not _proved(q, rel, listed[rel]):
                theirs.append(rel)
    return sorted(theirs)


def _parents(rel: str) -> List[str]:
    out = []
    while rel:
        rel = os.path.dirname(rel)
        if rel:
            out.append(rel)
    return out


def _listed(marker: Path) -> Optional[Dict[str, str]]:
    """The manifest's files and their HMACs (``HMAC  path`` a line after its comments); None if there is
    no readable manifest (a symlink is none)."""
    try:
        if not stat.S_ISREG(os.lstat(marker).st_mode):
            return None
        text = marker.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    out: Dict[str, str] = {}
    for line in text.splitlines():
        mac, sep, rel = line.partition("  ")
        if line.startswith("#") or not sep or len(mac) != 64:
            continue
        out[rel] = mac
    return out


def _plain(x):
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, (set, tuple)):
        return sorted(x) if isinstance(x, set) else list(x)
    return str(x)


def _json(obj) -> bytes:
    # compact: with no indent json uses its C encoder (an indented dump of 8,000 proofs took a minute)
    return (json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_plain)
            + "\n").encode("utf-8")


def pages(w: World, gate: bool = False) -> Iterator[Tuple[str, str, Callable[[], object]]]:
    """(url, file, json data) for every page of the site, in a fixed order; with ``gate``, a subject
    still in its reply window has its pages' data withheld (data.withheld, docs/outreach.md)."""
    p = DEFAULT_POLICY
    yield "/", "index.html", lambda: data.placed(w, p, gate)
    yield "/people", "people.html", lambda: data.people(w)
    yield "/matrix", "matrix.html", lambda: data.matrix(w, gate)
    yield "/candidates", "candidates.html", lambda: data.candidates(w)
    for org in sorted(w.orgs):
        yield from org_pages(w, org, gate)
    for pid in data.people(w):
        yield f"/person/{pid}", f"person/{fname(pid)}.html", _held(w, pid, gate, lambda pid=pid: data.person(w, pid))
    for node in sorted(w.facts.nodes):
        yield f"/money/{node}", f"money/{fname(node)}.html", _held(w, node, gate, lambda node=node: data.ties(w, node))


def _held(w: World, subject: str, gate: bool, shape: Callable[[], object]) -> Callable[[], object]:
    """``shape``, or the withheld subject's JSON while its window is open."""
    says = data.withheld(w, subject, gate) if subject in w.facts.nodes and w.facts.nodes[subject].kind in (
        "org", "person") else None
    return (lambda: data.held_json(w, subject, says)) if says else shape


def org_pages(w: World, org: str, gate: bool = False) -> Iterator[Tuple[str, str, Callable[[], object]]]:
    """(url, file, json data) of an org's own pages: its card, and its values' proofs (each page's
    data is the org's alone: prove.py's workers write them)."""
    p, f = DEFAULT_POLICY, fname(org)
    yield f"/org/{org}", f"org/{f}.html", _held(w, org, gate, lambda: dict(data.policies(w, org),
                                                                          card=data.card(w, org, p).to_json()))
    for d in DIMS:  # the proof's nodes and edges (its page draws the tree from them: not written twice)
        yield f"/why/{org}/{d}", f"why/{f}/{d}.html", _held(w, org, gate, lambda d=d: {
            k: v for k, v in data.proof(w, org, d, p).items() if k != "tree"})


@contextmanager
def _bar(what: str, total: int):
    """A rich progress bar on stderr, saying ``what``, when stderr is a terminal and there is something
    to count; yields the function that advances it (a no-op otherwise)."""
    if not total or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    bar = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(what, total=total)
    with bar:
        yield lambda: bar.advance(task)


def export(world: str, out: str, force: bool = False, as_of: Optional[str] = None,
           loaded: Optional[World] = None, jobs: Optional[int] = None, preview: bool = False,
           history: Optional[str] = None) -> Tuple[int, Optional[str]]:
    """Write the site of ``world`` (``loaded``, if the caller loaded it) to ``out``; the number of files
    written and where an old OUT was moved aside (None if nothing was). ``jobs``: how many processes
    search the proofs (default: one a core for a large world; see prove.py). A subject still in its reply
    window is withheld (docs/outreach.md) unless ``preview``, which writes everything, marked a preview.
    ``history``: a range of the world's git history: each org page shows what moved of it there, and
    ``feed.xml`` is written."""
    target = SiteTarget(out, force)
    target.check(Path(world))
    w = loaded if loaded is not None else World.load(world, as_of=as_of)
    gate = not preview
    app = create_app(world, DEFAULT_POLICY, as_of=as_of, site=True, loaded_world=w, gate=gate, preview=preview)
    feed = None
    if history is not None:
        from ..history import log
        from .feed import atom, by_org

        h = log(world, policy=DEFAULT_POLICY, rng=history, as_of=as_of)
        app.config["PROVLOG_HISTORY"] = by_org(h)
        feed = atom(h, Path(world).name or world)
    todo = list(pages(w, gate))
    build = target._sibling("provlog-site-build")
    os.mkdir(build)
    written: List[str] = []
    try:
        with data.kept():
            n = prove.jobs(jobs, len(w.orgs))
            with _bar("proving" if n > 1 else "", len(w.orgs) if n > 1 else 0) as advance:
                # each worker writes the pages of the orgs it proves: they need no other org's data
                done = prove.prove_all(w, n, advance, lambda org: _pages(app, org_pages(w, org, gate), build, []))
            for files in done.values():
                written += files
            skip = {f for files in done.values() for f in files}
            todo = [t for t in todo if t[1] not in skip]
            with _bar("writing the site", len(todo)) as advance:
                _pages(app, todo, build, written, advance)
        if feed is not None:
            _write(build, "feed.xml", feed, written)
        for src in sorted(STATIC.rglob("*")):
            if src.is_file():
                _write(build, "static/" + src.relative_to(STATIC).as_posix(), src.read_bytes(), written)
        key = _key()
        (build / MARKER).write_text("# Written by `provlog site` (docs/site.md). The next `provlog site` replaces this\n"
                                    "# folder whole, deleting only the files below whose bytes give the HMAC beside\n"
                                    "# them (a key of this user's, kept outside this folder); anything else stops it.\n"
                                    + "".join(f"{seal(n, (build / n).read_bytes(), key)}  {n}\n" for n in sorted(written)),
                                    encoding="utf-8")
        moved = target.put({q.name: q for q in sorted(build.iterdir())}, Path(world))
    finally:
        shutil.rmtree(build, ignore_errors=True)  # our own build folder: emptied by put, removed on failure
    return len(written), moved


def _pages(app, todo, build: Path, written: List[str], advance: Callable[[], None] = lambda: None) -> List[str]:
    """Every page (rendered by the app in site mode) and its JSON, each file's name added to ``written``
    (the answer); ``advance`` after each.
    Each page is the app's answer to a GET of its URL, dispatched in a request context of its own
    (what the test client does, without building and reading back a WSGI exchange per page)."""
    from urllib.parse import quote

    made: set = set()
    for url, path, shape in todo:
        with app.test_request_context(quote(url, safe="/")):
            try:
                resp = app.full_dispatch_request()
            except Exception as e:  # what a server answers 500 to, logged by Flask as a served page's is
                resp = app.handle_exception(e)
        if resp.status_code != 200:
            raise ImportFailure([f"{url}: the page did not render ({resp.status_code})"])
        _write(build, path, resp.get_data(), written, made)
        _write(build, path[:-len(".html")] + ".json", _json(shape()), written, made)
        advance()
    return written


def _write(root: Path, rel: str, body: bytes, written: List[str], made: Optional[set] = None) -> None:
    """One file of the site: its folder made once (``made``: the folders made so far), one open and write."""
    folder = os.path.dirname(rel)
    if made is None or folder not in made:
        (root / folder).mkdir(parents=True, exist_ok=True)
        if made is not None:
            made.add(folder)
    with open(root / rel, "wb") as f:
        f.write(body)
    written.append(rel)
