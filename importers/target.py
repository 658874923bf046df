"""Where an import may write: the `--out` folder, put in place whole, never over what provlog did not write.

An import's folder holds a marker file, :data:`MARKER`, listing the files
provlog wrote there. A later import replaces such a folder whole, and only
when it holds nothing else (a note a curator added there stops it, named). Any
other existing target (a file, a folder without the marker, the folder you are
in) is refused; ``force`` moves it aside to a visible sibling instead, so
nothing provlog did not write is ever deleted. The new folder is built in a
hidden sibling, created with the user's umask, and renamed into place once
whole; a failure removes only that sibling.

    >>> import pathlib, shutil, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> (root / "world").mkdir(); (root / "world" / "notes.md").write_text("mine")
    4
    >>> Target(root / "world").check()
    Traceback (most recent call last):
    ...
    provlog.importers.records.ImportFailure: ...world is a folder provlog did not write (it holds notes.md); ...
    >>> shutil.rmtree(root)
"""
from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path
from typing import Dict, List, Optional, Union

from .records import ImportFailure

#: The files an import writes (as `<name>.facts`), in the order a reader meets them.
FILES = ("sources", "entities", "structure")
#: The marker of a folder `provlog import` wrote: one file name a line after its comments. Only the
#: names in FILES count: a marker planted in someone's folder cannot make an import take their files.
MARKER = ".provlog-import"
#: provlog's own store of a derived world (docs/store.md): a cache, safe to drop with the folder.
STORE = ".provlog"


def marker_text(command: str, names: List[str]) -> str:
    return (f"# Written by `provlog import {command}` (docs/import.md). The next import replaces this\n"
            f"# folder whole; a file here that is not listed below stops it (move yours elsewhere).\n"
            + "".join(f"{n}\n" for n in sorted(names)))


def _listed(marker: Path) -> Optional[List[str]]:
    try:
        text = marker.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return [line for line in text.splitlines() if line in {f"{f}.facts" for f in FILES}]


def _is_store(p: Path) -> bool:
    """provlog's store folder: only SQLite files and their journals in it."""
    return p.is_dir() and not p.is_symlink() and all(
        q.is_file() and not q.is_symlink() and ".sqlite" in q.name for q in p.iterdir())


class Target:
    """The `--out` path of an import: what is there now, and how the new folder takes its place.

    ``label`` and ``job`` name the target and the command in messages; ``tag`` names the hidden
    sibling the new folder is built in (``provlog site`` reuses this class, queries/web/export.py).
    """

    label = "--out {given}"
    job = "the import, e.g. --out register"
    tag = "provlog-import"
    instead = "inside the world, e.g. --out WORLD/register"

    def __init__(self, out: Union[str, os.PathLike], force: bool = False):
        self.given = str(out)
        self.path = Path(os.path.abspath(out))  # not resolve(): a symlink named --out is itself the target
        self.force = force

    def _state(self) -> str:
        """'absent', 'empty', 'ours', or why it is not provlog's (a phrase)."""
        p = self.path
        if not os.path.lexists(p):
            return "absent"
        if p.is_symlink():
            return "a symbolic link"
        if not p.is_dir():
            return "a file"
        entries = sorted(q.name for q in p.iterdir())
        if not entries:
            return "empty"
        listed = _listed(p / MARKER) if (p / MARKER).is_file() else None
        if listed is None:
            shown = ", ".join(entries[:5]) + (f" and {len(entries) - 5} more" if len(entries) > 5 else "")
            return f"a folder provlog did not write (it holds {shown})"
        theirs = [n for n in entries if n not in listed and n != MARKER
                  and not (n == STORE and _is_store(p / n))]
        theirs += [n for n in listed if os.path.lexists(p / n) and (p / n).is_symlink() or (p / n).is_dir()]
        if theirs:
            return f"a folder provlog wrote, but {', '.join(sorted(set(theirs)))} in it are not what it wrote"
        return "ours"

    def check(self, world: Optional[Path] = None) -> None:
        """Refuse, before anything is read or written, a target the import may not take."""
        cwd = Path.cwd()
        if self.path == cwd or self.path in cwd.parents or self.path.parent == self.path:
            raise ImportFailure([f"{self.label.format(given=self.given)}: that is the folder you are working in "
                                 f"(or one above it); give a new folder for {self.job}"])
        if world is not None:
            w = Path(os.path.abspath(world))
            if w == self.path or self.path in w.parents:
                raise ImportFailure([f"{self.label.format(given=self.given)}: the world {world} is inside it; "
                                     f"give a folder {self.instead} instead"])
        state = self._state()
        if state not in ("absent", "empty", "ours") and not self.force:
            raise ImportFailure([f"{self.label.format(given=self.given)} is {state}; nothing was written. Give a new "
                                 "folder, or --force to move it aside (to a sibling named in the report: nothing is deleted)"])

    def _sibling(self, tag: str, hidden: bool = True) -> Path:
        """A new name beside the target (made unique with random letters)."""
        name = self.path.name
        while True:
            p = self.path.with_name(f"{'.' if hidden else ''}{name}.{tag}-{secrets.token_hex(3)}")
            if not os.path.lexists(p):
                return p

    def put(self, files: Dict[str, Path], world: Optional[Path] = None) -> Optional[str]:
        """Move ``files`` (name -> a written file) into the target as one folder; the old one's new name, if kept.

        The folder is created with os.mkdir (the user's umask decides its mode,
        as for any file a tool writes), filled, then renamed into place.
        """
        self.check(world)
        state = self._state()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        stage = self._sibling(self.tag)
        os.mkdir(stage)
        aside: Optional[Path] = None
        try:
            for name, src in files.items():
                shutil.move(str(src), str(stage / name))
            if state in ("absent", "empty"):
                os.replace(stage, self.path)  # rename(2) replaces an empty folder
                return None
            aside = self._sibling("replaced", hidden=False) if state != "ours" else self._sibling("provlog-old")
            os.replace(self.path, aside)
            try:
                os.replace(stage, self.path)
            except OSError:
                os.replace(aside, self.path)  # put the old one back: the target is as it was
                raise
        finally:
            if os.path.lexists(stage):
                shutil.rmtree(stage, ignore_errors=True)
        if state == "ours":
            return self._discard(aside)
        return str(aside)

    def _discard(self, old: Path) -> Optional[str]:
        """Remove the old folder, moved aside, that :meth:`_state` found ours; its name if any of it is kept."""
        shutil.rmtree(old, ignore_errors=True)  # only provlog's own files (checked above)
        return None
