"""Write imported statements as a `.facts` folder, whole or not at all.

:class:`WorldOut` collects statements, each declared id owned by one register
record (a second record under the same id is refused, both named), checks
them with provlog's own loader, beside the world they join when there is one,
and only then puts the folder in place (:mod:`.target`). :class:`Report`
says what was read, what was written, and, by reason, every record that was
not written or was written with a note.

    >>> out = WorldOut("bods")
    >>> out.declare("entities", "entity", "acme-1a2b3c", "record e1", 'entity acme-1a2b3c "Acme Ltd" kind=company')
    True
    >>> out.text("entities").splitlines()[-1]
    'entity acme-1a2b3c "Acme Ltd" kind=company'
    >>> out.declare("entities", "entity", "acme-1a2b3c", "record e2", 'entity acme-1a2b3c "Acme" kind=company')
    Traceback (most recent call last):
    ...
    provlog.importers.records.ImportFailure: two register records would be written under one id, acme-1a2b3c: record e1 and record e2; ...
"""
from __future__ import annotations

import hashlib
import re
import tempfile
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..facts import LoadError, load_world
from .common import copy_world, world_names
from .records import ImportFailure, Record, files as register_files
from .target import FILES, MARKER, Target, marker_text

_ORDER = {"source": 0, "entity": 1, "person": 2, "lab": 3, "org": 4, "stake": 5, "role": 6, "invest": 7, "money": 8}
#: Hex digits of sha256 in every id: 48 bits, so ids that share a slug collide about once in 10^14 pairs
#: (and a collision is refused, never merged).
HASH = 12
#: Record ids a text report lists per reason (JSON lists every one).
SHOWN = 8


def slug(text: str, limit: int = 40) -> str:
    """A fact-language id fragment: lower case, [a-z0-9-] only, accents folded.

    >>> slug("JENEX LIMITED"), slug("  Ünïcode & Co. "), slug("Лебедь"), slug("")
    ('jenex-limited', 'unicode-co', '', '')
    """
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")[:limit].strip("-")


def digest(kind: str, key: str) -> str:
    """HASH hex digits of sha256 over the whole key (and what kind of key it is)."""
    return hashlib.sha256(f"{kind}\0{key}".encode()).hexdigest()[:HASH]


def stable_id(kind: str, key: str, *names: str) -> str:
    """An id that depends only on the register's key: the slug of the first name that has one, then a hash.

    >>> stable_id("bods", "12b7dd0770ce", "JENEX LIMITED")
    'jenex-limited-2460d12c273c'
    >>> stable_id("bods", "GB-COH-07444723", "Лебедь", "GB-COH-07444723")
    'gb-coh-07444723-b85039124507'
    """
    readable = next((s for s in map(slug, names) if s), kind)
    return f"{readable}-{digest(kind, key)}"


def quote(text: str) -> str:
    """A fact-language string: one line, other control characters (ESC, ...) dropped, quotes escaped.

    >>> quote('He said "hi"\\nthen\\x1b[31m left')
    '"He said \\\\"hi\\\\" then[31m left"'
    """
    shown = "".join(c for c in str(text) if c.isspace() or unicodedata.category(c) != "Cc")
    one = " ".join(shown.split())
    return '"' + one.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass
class Reason:
    """One reason a record, or a part of one, was not written (or was written with a note)."""

    count: int = 0
    first: str = ""  # file:line of the first record it was met at
    records: List[str] = field(default_factory=list)  # record ids, in the order met, each once


@dataclass
class Refusal:
    """A record that stops the import (or, with --skip-bad, is left out): where, which, and why."""

    where: str
    record: Optional[str]
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass
class Report:
    """What an import read, wrote and left out (never silently)."""

    files: Dict[str, int] = field(default_factory=dict)  # file as given -> statements read
    read: Counter = field(default_factory=Counter)  # record type -> statements
    records: Counter = field(default_factory=Counter)  # record type -> distinct records
    written: Counter = field(default_factory=Counter)  # statement keyword -> count
    unmapped: Dict[str, Reason] = field(default_factory=dict)  # reason -> the records met with it
    skipped: List[Refusal] = field(default_factory=list)  # --skip-bad: records left out, and why
    matched: Dict[str, str] = field(default_factory=dict)  # register record -> world id
    kept: Optional[Tuple[int, int]] = None  # (records kept, records read) by --within
    out: str = ""
    moved_aside: Optional[str] = None  # --force: where the old --out went

    def leave(self, reason: str, rec: Record, record: Optional[str] = None) -> None:
        """Count a record (or a part of one) that the import does not write as stated, and why."""
        r = self.unmapped.setdefault(reason, Reason(first=rec.where))
        r.count += 1
        rid = record or str(rec.data.get("recordId") or rec.data.get("id") or rec.where)
        if rid not in r.records:
            r.records.append(rid)

    def nothing_read(self) -> List[str]:
        """The files that held no statement."""
        return [f for f, n in self.files.items() if n == 0]

    def render(self) -> str:
        def counts(c: Counter) -> str:
            return ", ".join(f"{n} {k}" for k, n in sorted(c.items()))

        files = ", ".join(self.files) or "no file"
        lines = [f"read {sum(self.read.values())} statements of {sum(self.records.values())} records "
                 f"from {files}" + (f": {counts(self.records)}" if self.records else "")]
        lines += [f"  {f}: no statement in it (an empty file or array)" for f in self.nothing_read()]
        if self.kept is not None:
            lines.append(f"kept {self.kept[0]} of {self.kept[1]} records (within reach of the world's orgs and labs)")
        if self.matched:
            lines.append(f"matched {len(self.matched)} register records to the world's ids: "
                         + ", ".join(f"{k} = {v}" for k, v in sorted(self.matched.items())))
        lines.append(f"wrote {sum(self.written.values())} statements" + (f" into {self.out}" if self.out else "")
                     + (f": {counts(self.written)}" if self.written else ""))
        if self.moved_aside:
            lines.append(f"moved what was at {self.out} aside to {self.moved_aside} (--force; nothing deleted)")
        if self.unmapped:
            lines.append("not written, or written with a note (count, reason: records):")
            for reason, r in sorted(self.unmapped.items()):
                shown = ", ".join(r.records[:SHOWN]) + (f" and {len(r.records) - SHOWN} more" if len(r.records) > SHOWN else "")
                lines.append(f"  {r.count:6d}  {reason}: {shown} (first at {r.first})")
        if self.skipped:
            lines.append(f"left out {_records(len(self.skipped))} (--skip-bad):")
            lines.extend(f"  {e}" for e in self.skipped)
        return "\n".join(lines)

    def to_json(self) -> Dict:
        return {"ok": True, "files": [{"file": f, "statements": n} for f, n in self.files.items()],
                "read": dict(self.read), "records": dict(self.records), "written": dict(self.written),
                "unmapped": [{"reason": k, "count": r.count, "first": r.first, "records": list(r.records)}
                             for k, r in sorted(self.unmapped.items())],
                "skipped": [{"where": e.where, "record": e.record, "message": e.message} for e in self.skipped],
                "matched": dict(self.matched), "kept": list(self.kept) if self.kept else None,
                "out": self.out, "moved_aside": self.moved_aside}


def begin(paths, out, world, force: bool) -> Tuple[Target, Report, Dict[str, Tuple[str, str]], List[Path]]:
    """What every import does first: refuse a target it may not take (before anything is read), then read
    the world's names and list the register's files."""
    target = Target(out, force)
    target.check(world)
    report = Report(out=str(out))
    names = world_names(Path(world), Path(out)) if world is not None else {}
    files = register_files(paths)
    report.files = {str(f): 0 for f in files}
    return target, report, names, files


def finish(out: "WorldOut", report: Report, target: Target, world) -> Report:
    """What every import does last: refuse to write nothing, else check and put the folder in place."""
    report.written = out.count()
    if not report.written:
        raise nothing_to_write(report)
    report.moved_aside = out.write(target, Path(world) if world is not None else None)
    return report


def _records(n: int) -> str:
    """``1 bad record``, ``2 bad records``."""
    return f"{n} bad record" + ("" if n == 1 else "s")


def nothing_to_write(report: Report) -> ImportFailure:
    """The refusal of an import that would write no statement: which files, and why."""
    lines = [f"  {f}: no statement in it (an empty file or array)" for f in report.nothing_read()]
    if report.skipped:
        lines.append(f"  {_records(len(report.skipped))} left out (--skip-bad)")
    lines += [f"  {r.count} {reason}: {', '.join(r.records[:SHOWN])} (first at {r.first})"
              for reason, r in sorted(report.unmapped.items())]
    return ImportFailure(lines, f"nothing to write from {', '.join(report.files) or 'no file'}; nothing was written")


class WorldOut:
    """Statements of an imported world, by file; each (keyword, key) once, each declared id one record's."""

    def __init__(self, command: str, header: str = ""):
        self.command = command
        self.header = header
        self._by: Dict[str, Dict[Tuple[str, str], str]] = {f: {} for f in FILES}
        self._owner: Dict[str, str] = {}  # declared id -> the record it was made from

    def declare(self, file: str, keyword: str, pid: str, owner: str, text: str) -> bool:
        """Declare ``pid`` for ``owner`` (a record, named for messages); False if that owner declared it already.

        Another owner under the same id is an ImportFailure naming both: two
        records never become one node.
        """
        had = self._owner.setdefault(pid, owner)
        if had != owner:
            raise ImportFailure([f"two register records would be written under one id, {pid}: {had} and {owner}; "
                                 "nothing was written (report this: ids hash the full record id)"])
        return self.add(file, keyword, pid, text)

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

    def write(self, target: Target, world: Optional[Path] = None) -> Optional[str]:
        """Check the statements with provlog's loader (beside ``world``), then put the folder in place.

        Nothing is written unless the check passes; a failure raises
        ImportFailure with the loader's located messages. Returns where the old
        target was moved (``--force``), if it was.
        """
        try:
            with tempfile.TemporaryDirectory(prefix="provlog-import.") as tmp:
                root = Path(tmp)
                (root / "import").mkdir()
                names = [f"{f}.facts" for f in FILES if self._by[f]]
                for f in FILES:
                    if self._by[f]:
                        (root / "import" / f"{f}.facts").write_text(self.text(f), encoding="utf-8")
                self._check(root, target, world)
                (root / MARKER).write_text(marker_text(self.command, names), encoding="utf-8")
                files = {n: root / "import" / n for n in names}
                files[MARKER] = root / MARKER
                return target.put(files, world)
        except OSError as e:
            raise ImportFailure([f"{e.filename or target.given}: cannot write: {e.strerror}; nothing was written"]) from None

    @staticmethod
    def _check(root: Path, target: Target, world: Optional[Path]) -> None:
        if world is not None:
            copy_world(Path(world), root / "world", skip=(target.path.resolve(),))
        try:
            load_world(root, root=root)
        except LoadError as e:
            # name the files as they will be (the output folder) and as they are (the world)
            text = e.render().replace("import/", f"{target.given}/")
            if world is not None:
                text = text.replace("world/", f"{world}/" if Path(world).is_dir() else "")
            raise ImportFailure([f"the imported world does not load ({len(e.diagnostics)} errors); "
                                 f"nothing was written", text]) from None
