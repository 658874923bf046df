"""pytest plugin: a curator's ``.facts`` worlds run as tests, one item per ``expect``.

Installed with provlog (entry point ``pytest11``). Disable with ``-p no:provlog``.
pytest meets files one by one; the plugin groups them into worlds as
``provlog test`` reads a path, file or folder:

- a ``.facts`` file that no other file of its folder includes is a world of
  its own (with what it includes), when it loads alone;
- a folder whose files do not all load alone, but which loads whole as a
  folder world (every ``.facts`` file under it, as ``provlog test FOLDER``
  reads it), is one world: files that only load together pass;
- otherwise each file is its own world, and fails with its own errors.

Each ``expect`` of a world becomes a test item named after its line. A world
that does not load is one failing item that shows every load error.
"""
from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import List, Optional

import pytest

_INCLUDE = re.compile(r'^\s*include\s+"((?:[^"\\]|\\.)*)"', re.M)


def _included_by_siblings(path: Path) -> bool:
    for other in path.parent.glob("*.facts"):
        if other == path:
            continue
        try:
            text = other.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for inc in _INCLUDE.findall(text):
            if (other.parent / inc).resolve() == path.resolve():
                return True
    return False


def _roots(folder: Path) -> List[Path]:
    """The ``.facts`` files of ``folder`` (not below it) that no sibling includes, in name order."""
    return sorted(p for p in folder.glob("*.facts") if p.is_file() and not _included_by_siblings(p))


def _loads(path: Path) -> bool:
    from ..facts import LoadError, load_world

    try:
        load_world(path)
    except LoadError:
        return False
    return True


@functools.lru_cache(maxsize=None)
def _is_folder_world(folder: Path) -> bool:
    """Some file of ``folder`` does not load alone, and the folder loads whole."""
    roots = _roots(folder)
    return bool(roots) and not all(_loads(p) for p in roots) and _loads(folder)


def _world_of(path: Path, top: Path) -> Optional[Path]:
    """The world ``path`` starts (itself, or its folder), or None when another file's world holds it."""
    folder = path.parent.resolve()
    for above in folder.parents:  # a folder world holds its subfolders
        if above == top or top in above.parents:
            if _is_folder_world(above):
                return None
    if _is_folder_world(folder):
        return folder if [p.name for p in _roots(folder)[:1]] == [path.name] else None
    return None if _included_by_siblings(path) else path


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix != ".facts":
        return None
    world = _world_of(file_path, parent.config.rootpath.resolve())
    return None if world is None else FactsFile.from_parent(parent, path=file_path, world=world)


class FactsFile(pytest.File):
    """The world a ``.facts`` file starts: the file itself, or its whole folder."""

    def __init__(self, *, world: Path, **kw):
        super().__init__(**kw)
        self.world = world

    def collect(self):
        from ..facts import LoadError
        from .api import World

        try:
            world = World.load(self.world)
        except LoadError as e:
            yield LoadFailure.from_parent(self, name="load", errors=e.render())
            return
        results = world.check_expects()
        for r in results:
            yield ExpectItem.from_parent(self, name=f"{r.loc} {r.text}", result=r)


class _Item(pytest.Item):
    """A world's item. ``funcargs`` is empty (no fixtures): pytest-lsp's ``pytest_runtest_call``
    wrapper (1.0) returns without yielding for an item that lacks the attribute, which fails every
    provlog item of a run that has pytest-lsp installed."""

    funcargs: dict = {}


class LoadFailure(_Item):
    def __init__(self, *, errors: str, **kw):
        super().__init__(**kw)
        self.errors = errors

    def runtest(self):
        raise FactsError(self.errors)

    def repr_failure(self, excinfo):
        return f"world did not load:\n{self.errors}"

    def reportinfo(self):
        return self.path, 0, f"load {self.path.name}"


class ExpectItem(_Item):
    def __init__(self, *, result, **kw):
        super().__init__(**kw)
        self.result = result

    def runtest(self):
        if not self.result.ok:
            raise FactsError(f"{self.result.loc}: {self.result.text}: got {self.result.got}")

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, FactsError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, int(self.result.loc.rsplit(":", 1)[1]) - 1, self.result.text


class FactsError(AssertionError):
    pass
