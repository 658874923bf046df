"""The world a language server serves: its files read live (facts/live.py) with the editor's
buffers standing for them, the diagnostics of every file (the loader's errors and ``provlog
check``'s warnings, with their codes), and the :class:`~provlog.queries.api.World` that answers
hovers, hints and proofs. The server never writes a file of the world; when every open buffer
is saved, the World is the CLI's (``World.load`` with the CLI's store, docs/store.md).

    >>> s = Session("facts/worlds/example")            # doctest: +SKIP
    >>> s.open("facts/worlds/example/signals.facts", text)   # doctest: +SKIP
    >>> s.diagnostics()                                 # doctest: +SKIP
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, List, Optional, Union

from ...facts import Diagnostic
from ...facts.live import LiveWorld, Snapshot
from ..api import World
from ..lint import uncited_signals, warnings
from ..loading import store_for


def _outside(path: Path, world: Path) -> Diagnostic:
    return Diagnostic(path.name, 1, 1, "W140", f"this file is not part of the world at {world} "
                                               "that provlog lsp serves: it is checked alone")


class Session:
    """One world (a folder, or a file) and the buffers an editor has open."""

    def __init__(self, world: Union[str, os.PathLike], store: Union[None, bool, str] = None):
        self.live = LiveWorld(world)
        # as the CLI's --store (None: PROVLOG_STORE, else the default place beside the world)
        self.store = store_for(os.environ.get("PROVLOG_STORE") or True if store is None else store, self.live.path)
        self.alone: Dict[Path, LiveWorld] = {}  # open files outside the world, each checked alone
        self._snap: Optional[Snapshot] = None
        self._world: Optional[World] = None
        self._world_of = -1  # the snapshot version the World answers for

    # -- buffers -----------------------------------------------------------------------------------
    def open(self, path, text: str) -> None:
        p = Path(path).resolve()
        if self.live.holds(p):
            self.live.set_text(p, text)
            self._snap = None
        else:
            if p not in self.alone:
                self.alone[p] = LiveWorld(p)
            self.alone[p].set_text(p, text)

    change = open

    def close(self, path) -> None:
        p = Path(path).resolve()
        self.alone.pop(p, None)
        self.live.drop_text(p)
        self._snap = None

    def saved(self, path) -> None:
        """A buffer was saved (or a file changed on disk): read again."""
        self._snap = None

    # -- the world ---------------------------------------------------------------------------------
    @property
    def snapshot(self) -> Snapshot:
        if self._snap is None:
            self._snap = self.live.load()
        return self._snap

    def diagnostics(self) -> Dict[Path, List[Diagnostic]]:
        """Every file's diagnostics, by path (a clean file has an empty list): the world's files,
        then each open file outside it."""
        snap = self.snapshot
        by_name = dict(snap.diagnostics)
        if snap.ok:
            for d in self._warnings():
                by_name.setdefault(d.file, []).append(d)
        out = {self.path_of(name): ds for name, ds in by_name.items()}
        for p, alone in self.alone.items():
            got = alone.load()
            out[p] = [_outside(p, self.live.path)] + got.diagnostics.get(p.name, [])
        return out

    def _warnings(self) -> List[Diagnostic]:
        facts = self.snapshot.facts
        if not any(f["what"] in ("holds", "fails") for f in facts.of("expect")):
            return uncited_signals(facts)  # W110 reads expect goals; there are none
        return warnings(self.world())

    def path_of(self, name: str) -> Path:
        return (self.live.top / name).resolve()

    def name_of(self, path) -> str:
        return self.live.disk.name(Path(path).resolve())

    def world(self) -> Optional[World]:
        """The World of the world as the buffers have it (None while it has errors): the CLI's, read
        from its store, when every open buffer is saved; else derived from the buffers, in memory."""
        snap = self.snapshot
        if snap.facts is None:
            return None
        if self._world is None or self._world_of != snap.version:
            self._world = self._load(snap)
            self._world_of = snap.version
        return self._world

    def _load(self, snap: Snapshot) -> World:
        if self.store and self._saved():
            try:
                # named as the CLI names it, from the working directory (until stores key on
                # world-relative names, issue 39, a store is found under the names it was made with)
                here = Path.cwd()
                path = os.path.relpath(self.live.path, here) if self.live.path.is_relative_to(here) else self.live.path
                return World.load(path, store=self.store)
            except Exception:  # the disk moved under us: the buffers' world answers
                pass
        return World(snap.facts, name=str(self.live.path), lazy=True)

    def _saved(self) -> bool:
        for p, text in self.live.buffers.items():
            try:
                if p.read_text(encoding="utf-8") != text:
                    return False
            except (OSError, UnicodeDecodeError):
                return False
        return True
