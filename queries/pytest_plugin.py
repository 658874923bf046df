"""pytest plugin: a curator's ``.facts`` worlds run as tests, one item per ``expect``.

Installed with provlog (entry point ``pytest11``). Every ``.facts`` file that
pytest meets and that no other file in its folder includes is loaded as a
world; each ``expect`` in it (or in the files it includes) becomes a test item
named after its line. A world that does not load is one failing item that
shows every load error. Disable with ``-p no:provlog``.
"""
from __future__ import annotations

import re
from pathlib import Path

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


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".facts" and not _included_by_siblings(file_path):
        return FactsFile.from_parent(parent, path=file_path)
    return None


class FactsFile(pytest.File):
    def collect(self):
        from ..facts import LoadError
        from .api import World

        try:
            world = World.load(self.path)
        except LoadError as e:
            yield LoadFailure.from_parent(self, name="load", errors=e.render())
            return
        results = world.check_expects()
        for r in results:
            yield ExpectItem.from_parent(self, name=f"{r.loc} {r.text}", result=r)


class LoadFailure(pytest.Item):
    def __init__(self, *, errors: str, **kw):
        super().__init__(**kw)
        self.errors = errors

    def runtest(self):
        raise FactsError(self.errors)

    def repr_failure(self, excinfo):
        return f"world did not load:\n{self.errors}"

    def reportinfo(self):
        return self.path, 0, f"load {self.path.name}"


class ExpectItem(pytest.Item):
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
