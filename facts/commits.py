"""The commits of a world's history, read from git by its plumbing (issue 42; docs/history.md).

:func:`walk` lists the commits of a range (``HEAD`` by default) along first parents (a merge is
compared with its first parent, the branch it was merged into), newest first, with the world's
path at each: a world renamed or moved (a file, or a folder whose files moved together) is
followed through the rename, as ``git log --follow`` follows a file. The walk stops where the
world first appears, at the range's end, or where a shallow clone's history stops.

    >>> w = walk("facts/worlds/example", "HEAD~3..HEAD")          # doctest: +SKIP
    >>> [(c.short, c.path) for c in w.commits]                    # doctest: +SKIP
    [('3f2a1b0c9d', 'facts/worlds/example'), ...]
    >>> w.base, w.created, w.shallow                              # doctest: +SKIP

Each commit is read as facts/files.py reads a revision (:class:`~provlog.facts.files.GitTree`);
this module only says which commits, and where the world is in each.
"""
from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from .files import GitError, git

#: the codes of the history's refusals (docs/history.md): one line each, never a traceback
NOT_A_REPOSITORY, EMPTY_RANGE, NOT_LOADED, SHALLOW, NOT_COMMITTED = "E185", "E186", "E187", "E188", "E189"


class HistoryError(Exception):
    """A history that cannot be walked: ``code`` (E185-E189) and what to do; exit 2 (usage)."""

    exit_code = 2

    def __init__(self, code: str, message: str):
        super().__init__(f"{message} [{code}]")
        self.code = code


@dataclass
class Commit:
    """One commit of the walk: its id, first parent, author date and subject, and where the world is in it
    (``path`` from the repository's top; ``object`` its tree or blob id: two commits with the same object
    hold the same world)."""

    id: str
    parent: Optional[str]
    date: str
    author: str
    subject: str
    path: str = ""
    object: str = ""

    @property
    def short(self) -> str:
        return self.id[:10]


@dataclass
class Walk:
    """The commits listed (newest first); ``base`` the commit before the oldest, which the oldest is
    compared with (None: there is none to compare with); ``created`` whether the oldest is where the
    world first appears; ``shallow`` the commit a shallow clone's history stops at, if the walk reached it."""

    top: Path
    path: str
    commits: List[Commit] = field(default_factory=list)
    base: Optional[Commit] = None
    created: bool = False
    shallow: Optional[str] = None


def repository(world: str) -> Path:
    """The top of the repository holding ``world``; E185 if there is none."""
    here = Path(world) if os.path.isdir(world) else Path(world).parent
    try:
        return Path(git(["rev-parse", "--show-toplevel"], here if here.is_dir() else Path.cwd()).decode().strip())
    except GitError as e:
        raise HistoryError(NOT_A_REPOSITORY, f"{world} is not in a git repository ({e})") from None


def _inside(world: str, top: Path) -> str:
    """The world's path from the repository's top (``.``: the whole repository)."""
    rel = os.path.relpath(os.path.realpath(world), os.path.realpath(top))
    if rel == ".." or rel.startswith(".." + os.sep):
        raise HistoryError(NOT_A_REPOSITORY, f"{world} is outside the repository at {top}")
    return Path(rel).as_posix()


_FIELDS = "%H%x1f%P%x1f%aI%x1f%an%x1f%s%x1e"


def _commits(top: Path, rng: str, last: Optional[int] = None) -> List[Commit]:
    count = [] if last is None else [f"--max-count={last}"]
    try:
        out = git(["log", "--first-parent", f"--format={_FIELDS}", *count, "--end-of-options", rng, "--"], top)
    except GitError as e:
        raise HistoryError(EMPTY_RANGE, f"{rng!r} is not a range of commits of {top} ({e})") from None
    got = []
    for rec in out.decode("utf-8", "replace").split("\x1e"):
        rec = rec.strip("\n")
        if rec:
            cid, parents, date, author, subject = rec.split("\x1f")
            got.append(Commit(cid, parents.split()[0] if parents else None, date, author, subject))
    if not got:
        raise HistoryError(EMPTY_RANGE, f"the range {rng!r} holds no commit")
    return got


def objects(top: Path, specs: Sequence[str]) -> List[Optional[str]]:
    """The object id of each ``COMMIT:path`` (None where the path is not in the commit), in one process."""
    if not specs:
        return []
    out = git(["cat-file", "--batch-check=%(objectname) %(objecttype)"], top,
              "".join(s + "\n" for s in specs).encode()).decode().splitlines()
    return [None if line.endswith("missing") or line.endswith("ambiguous") else line.split()[0] for line in out]


def _spec(commit: str, path: str) -> str:
    return f"{commit}:" if path == "." else f"{commit}:{path}"


def renamed(top: Path, parent: str, child: str, path: str) -> Optional[str]:
    """Where the world at ``path`` in ``child`` was in ``parent``, when a rename moved it there (git's
    rename detection, ``diff-tree -M``); None if it was not there at all (it first appears in ``child``)."""
    out = git(["diff-tree", "-r", "-M", "--name-status", "-z", parent, child], top).split(b"\0")
    seen: Counter = Counter()
    i = 0
    while i < len(out) - 1:
        status = out[i].decode()
        if status.startswith(("R", "C")):
            old, new = out[i + 1].decode("utf-8", "surrogateescape"), out[i + 2].decode("utf-8", "surrogateescape")
            i += 3
            if status.startswith("C"):
                continue
            if new == path:
                seen[old] += 1
            elif new.startswith(path + "/"):
                rest = new[len(path) + 1:]
                if old == rest:
                    seen["."] += 1
                elif old.endswith("/" + rest):
                    seen[old[:-len(rest) - 1]] += 1
        else:
            i += 2
    return seen.most_common(1)[0][0] if seen else None


def _shallow(top: Path) -> set:
    """The commits a shallow clone's history stops at (none in a full clone)."""
    if git(["rev-parse", "--is-shallow-repository"], top).decode().strip() != "true":
        return set()
    where = Path(git(["rev-parse", "--git-path", "shallow"], top).decode().strip())
    try:
        return set((where if where.is_absolute() else top / where).read_text().split())
    except OSError:
        return set()


def walk(world: str, rng: Optional[str] = None, last: Optional[int] = None) -> Walk:
    """The world's commits in ``rng`` (default ``HEAD``: its whole history), newest first, each with the
    world's path and object; ``last``: only the newest ``last`` of them (the oldest of those compared
    with its parent, as a range's end is). HistoryError (E185, E186, E189) when there is no history to walk."""
    top = repository(world)
    path = _inside(world, top)
    rng = rng or "HEAD"
    listed = _commits(top, rng, last)
    shallow = _shallow(top)
    out = Walk(top, path)
    objs = objects(top, [_spec(c.id, path) for c in listed])
    if objs[0] is None:
        raise HistoryError(NOT_COMMITTED, f"{world} is not in commit {listed[0].short} ({listed[0].subject!r}): "
                                          f"is it committed? (git add {path} && git commit)")
    i = 0
    while i < len(listed):
        c = listed[i]
        if objs[i] is None:  # not here under this name: renamed from another, or first appears in the newer one
            newer = listed[i - 1]
            was = renamed(top, c.id, newer.id, path)
            if was is None:
                out.created = True
                return out
            path = was
            objs[i:] = objects(top, [_spec(x.id, path) for x in listed[i:]])
            continue  # (git found it there, so it is)
        c.path, c.object = path, objs[i]
        out.commits.append(c)
        if c.parent is None:
            if c.id in shallow:
                out.shallow = c.id
            else:
                out.created = True
            return out
        i += 1
    last = out.commits[-1]  # the range ends: the oldest is compared with its first parent, if the world is there
    parent = _one(top, last.parent)
    (obj,) = objects(top, [_spec(parent.id, path)])
    if obj is None:
        was = renamed(top, parent.id, last.id, path)
        obj = objects(top, [_spec(parent.id, was)])[0] if was is not None else None
        path = was or path
    if obj is None:
        out.created = True
    else:
        parent.path, parent.object = path, obj
        out.base = parent
    return out


def _one(top: Path, cid: str) -> Commit:
    return _commits(top, f"{cid}^!")[0] if cid else None  # type: ignore[return-value]


__all__ = ["Commit", "HistoryError", "Walk", "objects", "renamed", "repository", "walk"]
