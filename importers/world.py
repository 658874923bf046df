"""Write imported statements as a `.facts` folder, whole or not at all.

:class:`WorldOut` collects statements (deduplicated, each under an id that
depends only on the register's own record ids), checks them with provlog's
own loader, beside the world they join when there is one, and only then
replaces the output folder in one rename. :class:`Report` counts what was
mapped and what was not, by reason, with the first place each reason was met.

    >>> out = WorldOut()
    >>> out.add("entities", "entity", "acme-1a2b3c", 'entity acme-1a2b3c "Acme Ltd" kind=company')
    True
    >>> out.text("entities").splitlines()[-1]
    'entity acme-1a2b3c "Acme Ltd" kind=company'
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..facts import LoadError, load_world
from .common import copy_world
from .records import ImportFailure

#: The files an import writes, in the order a reader meets them.
FILES = ("sources", "entities", "structure")
_ORDER = {"source": 0, "entity": 1, "person": 2, "lab": 3, "org": 4, "stake": 5, "role": 6, "invest": 7, "money": 8}


def slug(text: str, limit: int = 40) -> str:
    """A fact-language id fragment: lower case, [a-z0-9-] only.

    >>> slug("JENEX LIMITED"), slug("  Ünïcode & Co. "), slug("")
    ('jenex-limited', 'n-code-co', 'x')
    """
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-")
    return s or "x"


def stable_id(kind: str, key: str, name: str = "") -> str:
    """An id that depends only on the register's key (and reads as the name where there is one).

    >>> stable_id("bods", "12b7dd0770ce", "JENEX LIMITED")
    'jenex-limited-2460d1'
    """
    digest = hashlib.sha256(f"{kind}\0{key}".encode()).hexdigest()[:6]
    return f"{slug(name)}-{digest}" if name else f"{kind}-{digest}"


def quote(text: str) -> str:
    """A fact-language string: one line, quotes and backslashes escaped.

    >>> quote('He said "hi"\\nthen left')
    '"He said \\\\"hi\\\\" then left"'
    """
    one = " ".join(str(text).split())
    return '"' + one.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class Report:
    """What an import read, wrote and left out (never silently)."""

    read: Counter = field(default_factory=Counter)  # record type -> count
    written: Counter = field(default_factory=Counter)  # statement keyword -> count
    unmapped: Counter = field(default_factory=Counter)  # reason -> count
    first: Dict[str, str] = field(default_factory=dict)  # reason -> file:line of its first record
    skipped: List[str] = field(default_factory=list)  # --skip-bad: located errors of records left out
    matched: Dict[str, str] = field(default_factory=dict)  # register record -> world id
    kept: Optional[Tuple[int, int]] = None  # (records kept, records read) by --within
    out: str = ""

    def leave(self, reason: str, where: str) -> None:
        """Count a record (or a part of one) that the import does not map, and why."""
        self.unmapped[reason] += 1
        self.first.setdefault(reason, where)

    def render(self) -> str:
        lines = [f"read: " + ", ".join(f"{n} {k}" for k, n in sorted(self.read.items())) if self.read else "read: nothing"]
        if self.kept is not None:
            lines.append(f"kept {self.kept[0]} of {self.kept[1]} records (within reach of the world's orgs and labs)")
        if self.matched:
            lines.append(f"matched {len(self.matched)} register records to the world's ids: "
                         + ", ".join(f"{v}" for v in sorted(set(self.matched.values()))))
        lines.append("wrote: " + (", ".join(f"{n} {k}" for k, n in sorted(self.written.items())) or "nothing")
                     + (f" into {self.out}" if self.out else ""))
        if self.unmapped:
            lines.append("not mapped, or mapped with a note:")
            for reason, n in sorted(self.unmapped.items()):
                lines.append(f"  {n:6d}  {reason} (first at {self.first[reason]})")
        if self.skipped:
            lines.append(f"skipped {len(self.skipped)} bad records (--skip-bad):")
            lines.extend(f"  {e}" for e in self.skipped)
        return "\n".join(lines)

    def to_json(self) -> Dict:
        return {"read": dict(self.read), "written": dict(self.written), "unmapped": dict(self.unmapped),
                "first": dict(self.first), "skipped": list(self.skipped), "matched": dict(self.matched),
                "kept": list(self.kept) if self.kept else None, "out": self.out}


class WorldOut:
    """Statements of an imported world, by file; each (keyword, key) once."""

    def __init__(self, header: str = ""):
        self.header = header
        self._by: Dict[str, Dict[Tuple[str, str], str]] = {f: {} for f in FILES}

    def add(self, file: str, keyword: str, key: str, text: str) -> bool:
        """Add a statement; False if one with the same keyword and key is there already."""
        rows = self._by[file]
        if (keyword, key) in rows:
            return False
        rows[(keyword, key)] = text
        return True

    def has(self, file: str, keyword: str, key: str) -> bool:
        return (keyword, key) in self._by[file]

    def count(self) -> Counter:
        return Counter(k for rows in self._by.values() for (k, _) in rows)

    def text(self, file: str) -> str:
        rows = sorted(self._by[file].items(), key=lambda kv: (_ORDER.get(kv[0][0], 99), kv[0][1]))
        head = [f"# {line}".rstrip() for line in self.header.splitlines()]
        return "\n".join(head + [""] + [t for _, t in rows]) + "\n"

    def write(self, out: Path, world: Optional[Path] = None) -> None:
        """Check the statements with provlog's loader (beside ``world``), then replace ``out`` whole.

        Nothing is written unless the check passes; a failure raises ImportFailure
        with the loader's located messages.
        """
        out = Path(out)
        try:
            self._write(out, world)
        except OSError as e:
            raise ImportFailure([f"{e.filename or out}: cannot write: {e.strerror}; nothing was written"]) from None

    def _write(self, out: Path, world: Optional[Path]) -> None:
        parent = out.resolve().parent
        parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
        try:
            for f in FILES:
                if self._by[f]:
                    (stage / f"{f}.facts").write_text(self.text(f), encoding="utf-8")
            self._check(stage, out, world)
            old = None
            if out.exists():
                old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old.", dir=parent))
                os.replace(out, old / "x")
            os.replace(stage, out)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
        finally:
            if stage.exists():
                shutil.rmtree(stage, ignore_errors=True)

    def _check(self, stage: Path, out: Path, world: Optional[Path]) -> None:
        with tempfile.TemporaryDirectory(prefix="provlog-import-check.") as tmp:
            root = Path(tmp)
            shutil.copytree(stage, root / "import")
            if world is not None:
                copy_world(Path(world), root / "world", skip=(out.resolve(), stage.resolve()))
            try:
                load_world(root, root=root)
            except LoadError as e:
                # name the files as they will be (the output folder) and as they are (the world)
                text = e.render().replace("import/", f"{out}/")
                if world is not None:
                    text = text.replace("world/", f"{world}/" if Path(world).is_dir() else "")
                raise ImportFailure([f"the imported world does not load ({len(e.diagnostics)} errors); "
                                     f"nothing was written", text]) from None

