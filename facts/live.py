"""A world loaded live, over an editor's open buffers: the loader of ``provlog lsp``.

:class:`LiveWorld` reads a world as :func:`~provlog.facts.loader.load_world` does (a folder's
``.facts`` files, or one file, with their includes, under the same limits and refusals), except
that the text of an open buffer, saved or not, stands for its file on disk, and that a change is
read incrementally: only the changed statements of the changed file are parsed and checked again
(facts/live_blocks.py), only the ids they reach are resolved again (facts/live_index.py). Each
:meth:`LiveWorld.load` returns a :class:`Snapshot`: every file's diagnostics (the loader's located
errors, with their codes), and, when there are none, the world's facts.

Nothing is written: a live world reads its files and never writes them.

    >>> import tempfile, pathlib
    >>> top = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (top / "orgs.facts").write_text('org e "E" type=nonprofit\\n')
    >>> _ = (top / "stakes.facts").write_text('stake e e 20%\\n')
    >>> live = LiveWorld(top)
    >>> live.load().ok
    True
    >>> live.set_text(top / "orgs.facts", 'org f "F" type=nonprofit\\n')   # unsaved: breaks stakes.facts
    >>> [(d.line, d.col, d.code) for d in live.load().diagnostics["stakes.facts"]]
    [(1, 7, 'E110'), (1, 9, 'E110')]
    >>> live.drop_text(top / "orgs.facts")                                  # closed unsaved: the disk again
    >>> live.load().ok
    True
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple, Union

from . import schema as S
from .collector import _Collector
from .errors import Diagnostic
from .files import Disk, ReadFiles, TooBig
from .live_blocks import Block, LiveFile
from .live_index import LiveIndex
from .model import Fact, FactSet
from .reading import MAX_FILE_BYTES, MAX_FILES, MAX_INCLUDE_DEPTH, MAX_STATEMENTS, _decode


class Snapshot:
    """A live world at one moment: ``diagnostics`` by file name (every file of the world has a list,
    empty when clean), ``paths`` (name -> path), and the facts when nothing is wrong."""

    def __init__(self, world: "LiveWorld", order: List[Path], diags: List[Diagnostic], version: int):
        self.version = version
        self.paths: Dict[str, Path] = {world.files[p].name: p for p in order}
        self.diagnostics: Dict[str, List[Diagnostic]] = {name: [] for name in self.paths}
        for d in sorted(diags, key=Diagnostic.sort_key):
            self.diagnostics.setdefault(d.file, []).append(d)
        self.ok = not diags
        self._files = [world.files[p] for p in order]
        self._facts: Optional[FactSet] = None

    def lines(self, name: str) -> List[str]:
        f = next((f for f in self._files if f.name == name), None)
        return f.lines if f is not None else []

    def blocks(self) -> Iterator[Tuple[str, Block]]:
        """Every block of every file, in the world's order, with its file's name."""
        for f in self._files:
            for b in f.blocks:
                yield f.name, b

    def statements(self) -> Iterator[Fact]:
        for _, b in self.blocks():
            yield from b.facts

    @property
    def facts(self) -> Optional[FactSet]:
        """The world's facts (a :class:`FactSet`, as load_world returns), or None if it has errors."""
        if self._facts is None and self.ok:
            world = FactSet()
            for f in self.statements():
                world.add(f)
            world.files = ReadFiles(sorted(self.paths))
            self._facts = world
        return self._facts


class LiveWorld:
    """A world (a folder, or one ``.facts`` file) read from disk and from open buffers."""

    def __init__(self, path: Union[str, os.PathLike], strict: bool = False, language: Optional[S.Language] = None):
        self.path = Path(path).resolve()
        self.is_dir = self.path.is_dir()
        self.top = self.path if self.is_dir else self.path.parent
        self.disk = Disk(self.top)  # names relative to the world's folder
        self.strict = strict
        self.language = language
        self.index = LiveIndex(language)
        self.buffers: Dict[Path, str] = {}
        self.files: Dict[Path, LiveFile] = {}
        self._stat: Dict[Path, Tuple] = {}  # what a file on disk was when last read
        self.version = 0

    # -- buffers ---------------------------------------------------------------------------------
    def set_text(self, path: Union[str, os.PathLike], text: str) -> None:
        """An open buffer's text: it stands for the file (saved or not) until :meth:`drop_text`."""
        self.buffers[Path(path).resolve()] = text

    def drop_text(self, path: Union[str, os.PathLike]) -> None:
        self.buffers.pop(Path(path).resolve(), None)

    def holds(self, path: Union[str, os.PathLike]) -> bool:
        """Whether ``path`` is a file of this world (under its folder, or the world's one file)."""
        p = Path(path).resolve()
        return p in self.files or (p == self.path if not self.is_dir else
                                   p.suffix == ".facts" and self.disk.inside(p, self.top))

    # -- loading ---------------------------------------------------------------------------------
    def load(self) -> Snapshot:
        """Read what changed since the last load; the world's diagnostics (and facts) now."""
        self.version += 1
        diags: List[Diagnostic] = []
        order: List[Path] = []
        for p in self._roots(diags):
            self._walk(p, (), None, order, diags)
        reached = set(order)
        for p in [p for p in self.files if p not in reached]:  # no longer in the world
            self.index.update(self.files.pop(p).clear(), [])
            self._stat.pop(p, None)
        facts = [f for p in order for b in self.files[p].blocks for f in b.facts]
        diags += [d for p in order for b in self.files[p].blocks for d in b.diags]
        diags += self.index.diagnostics(facts)
        count = sum(len(b.facts) + len(b.includes) for p in order for b in self.files[p].blocks)
        first = self.files[order[0]].name if order else self.disk.name(self.path)
        if count > MAX_STATEMENTS:
            diags.append(Diagnostic(first, 1, 1, "E153", f"a world may have at most {MAX_STATEMENTS} statements"))
        if not count and not diags:
            diags.append(Diagnostic(first, 1, 1, "E155", "empty world: its files hold no statements "
                                                         "(only comments and blank lines)"))
        return Snapshot(self, order, diags, self.version)

    def _roots(self, diags: List[Diagnostic]) -> List[Path]:
        """The files the world starts from: the folder's ``.facts`` files (on disk, or open unsaved), or the one file."""
        if not self.is_dir:
            return [self.path]

        def refuse(entry, code: str, msg: str) -> None:
            diags.append(Diagnostic(self.disk.name(entry), 1, 1, code, msg))

        listed = {Path(p).resolve() for p in self.disk.listing(self.top, refuse)}
        listed |= {p for p in self.buffers if p.suffix == ".facts" and self.disk.inside(p, self.top)}
        if not listed and not diags:
            diags.append(Diagnostic(self.disk.name(self.top), 1, 1, "E155",
                                    "empty world: the folder holds no .facts files"))
        return sorted(listed)

    def _walk(self, path: Path, stack: Tuple[Path, ...], at, order: List[Path], diags: List[Diagnostic]) -> None:
        """Read one file and what it includes, in the order and with the refusals of facts/reading.py."""
        if path in stack:
            chain = " -> ".join(self.disk.name(p) for p in stack + (path,))
            diags.append(_at(at, "E151", f"include cycle: {chain}"))
            return
        if path in order:
            return
        if len(stack) > MAX_INCLUDE_DEPTH:
            diags.append(_at(at, "E153", f"includes nest deeper than {MAX_INCLUDE_DEPTH} files"))
            return
        if len(order) >= MAX_FILES:
            diags.append(_at(at, "E153", f"a world may have at most {MAX_FILES} files"))
            return
        order.append(path)
        f = self._read(path, at, diags)
        for rel, file, line, col in [i for b in f.blocks for i in b.includes]:
            target = path.parent / rel
            try:
                resolved = target.resolve()
            except (OSError, RuntimeError, ValueError):
                resolved = target
            here = (file, line, col, f.errs.line(file, line))
            if not self.disk.inside(resolved, self.top):
                diags.append(_at(here, "E154", f"include leads outside the world folder, to "
                                               f"{self.disk.name(resolved)!r}; copy the file into the world"))
                continue
            self._walk(resolved, stack + (path,), here, order, diags)

    def _read(self, path: Path, at, diags: List[Diagnostic]) -> LiveFile:
        """The file's state, brought up to date with its buffer or with the disk."""
        f = self.files.get(path)
        if f is None:
            f = self.files[path] = LiveFile(self.disk.name(path), self.strict, self.language, self.index.errs.lines)
        text = self.buffers.get(path)
        if text is not None:
            self._stat.pop(path, None)
            if len(text) > MAX_FILE_BYTES:  # characters, at least as many bytes
                return self._refused(f, diags, "E153", f"file is over {MAX_FILE_BYTES} bytes, the limit")
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate: the bytes it stands for are not UTF-8
                text = self._decoded(f, text.encode("utf-8", "surrogatepass"), diags)
                if text is None:
                    return self._refused(f, None, "", "")
        else:
            text = self._from_disk(path, f, at, diags)
            if text is None:
                return f
        if text.startswith("\ufeff"):
            text = text[1:]
        self.index.update(*f.update(text))
        return f

    def _from_disk(self, path: Path, f: LiveFile, at, diags: List[Diagnostic]) -> Optional[str]:
        try:
            st = path.stat()
            key = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            key = None
        if key is not None and self._stat.get(path) == key and f.text is not None:
            return f.text  # unchanged since it was read
        try:
            data = self.disk.read(path, MAX_FILE_BYTES)
        except TooBig as e:
            self._refused(f, diags, "E153", f"file is over {MAX_FILE_BYTES} bytes, the limit" if e.size is None
                          else f"file is {e.size} bytes; the limit is {MAX_FILE_BYTES}")
            return None
        except OSError as e:
            self._refused(f, None, "", "")
            if at:
                diags.append(_at(at, "E150", f"cannot read included file {f.name!r}: {e.strerror}"))
            else:
                diags.append(Diagnostic(f.name, 1, 1, "E150", f"cannot read file: {e.strerror}"))
            return None
        text = self._decoded(f, data, diags)
        if text is None:
            self._refused(f, None, "", "")
            return None
        self._stat[path] = key
        return text

    def _decoded(self, f: LiveFile, data: bytes, diags: List[Diagnostic]) -> Optional[str]:
        errs = _Collector(self.language)
        text = _decode(data, f.name, errs)
        diags += errs.diags
        return text

    def _refused(self, f: LiveFile, diags: Optional[List[Diagnostic]], code: str, msg: str) -> LiveFile:
        """A file that cannot be read: it states nothing (``code``: the error at its first line)."""
        self.index.update(f.clear(), [])
        self._stat.pop(Path(self.top / f.name), None)
        if diags is not None:
            diags.append(Diagnostic(f.name, 1, 1, code, msg))
        return f


def _at(at, code: str, msg: str) -> Diagnostic:
    file, line, col, text = at or ("", 1, 1, "")
    return Diagnostic(file, line, col, code, msg, text)
