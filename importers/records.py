"""Read register files as records, each with the file and line it starts on.

A `.json` file holds one JSON array of statements (the way BODS publishes its
examples); a `.jsonl` or `.ndjson` file holds one JSON object a line (the way
registers and FollowTheMoney exports are published). Either way a record keeps
where it came from, so an error, and every statement made from it, can name
its file:line.

    >>> import io, json
    >>> recs = list(read_array('[\\n {"a": 1},\\n {"a": 2}\\n]', "x.json"))
    >>> [(r.line, r.data["a"]) for r in recs]
    [(2, 1), (3, 2)]
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Sequence, Union

#: The file name endings read as one object a line.
LINES = (".jsonl", ".ndjson")
#: What a folder import reads.
READ = (".json",) + LINES


class ImportFailure(Exception):
    """An import that cannot go on: the file:line and what is wrong with the record there.

    ``errors`` holds every located message (one line each); nothing was written.
    """

    def __init__(self, errors: Sequence[str], summary: str = ""):
        self.errors = list(errors)
        super().__init__(summary or (self.errors[0] if self.errors else "import failed"))

    def render(self) -> str:
        return "\n".join(self.errors)


@dataclass(frozen=True)
class Record:
    """One JSON object of a register file: its data and where it starts."""

    file: str
    line: int
    data: Dict[str, Any]

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def _line_of(text: str, offset: int, start_line: int, start_offset: int) -> int:
    return start_line + text.count("\n", start_offset, offset)


def read_array(text: str, name: str) -> Iterator[Record]:
    """The objects of a JSON array, each with the line its ``{`` is on."""
    decoder = json.JSONDecoder()
    i, n = 0, len(text)
    line, at = 1, 0

    def skip(i: int) -> int:
        while i < n and text[i] in " \t\r\n":
            i += 1
        return i

    i = skip(i)
    if i >= n or text[i] != "[":
        raise ImportFailure([f"{name}:{_line_of(text, i, line, at)}: expected a JSON array of statements "
                             f"(or name the file .jsonl for one statement a line)"])
    i = skip(i + 1)
    first = True
    while True:
        if i < n and text[i] == "]":
            if skip(i + 1) != n:
                raise ImportFailure([f"{name}:{_line_of(text, i, line, at)}: text after the closing ]"])
            return
        if not first:
            if i >= n or text[i] != ",":
                raise ImportFailure([f"{name}:{_line_of(text, i, line, at)}: expected , or ] between statements"])
            i = skip(i + 1)
        first = False
        line, at = _line_of(text, i, line, at), i
        try:
            obj, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            raise ImportFailure([f"{name}:{e.lineno}:{e.colno}: not JSON: {e.msg}"]) from None
        if not isinstance(obj, dict):
            raise ImportFailure([f"{name}:{line}: expected a JSON object (a statement), got {type(obj).__name__}"])
        yield Record(name, line, obj)
        i = skip(end)


def read_lines(lines: Iterator[str], name: str) -> Iterator[Record]:
    """The objects of a JSON Lines file (blank lines skipped)."""
    for no, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise ImportFailure([f"{name}:{no}:{e.colno}: not JSON: {e.msg}"]) from None
        if not isinstance(obj, dict):
            raise ImportFailure([f"{name}:{no}: expected a JSON object (a statement), got {type(obj).__name__}"])
        yield Record(name, no, obj)


def files(paths: Sequence[Union[str, os.PathLike]]) -> List[Path]:
    """The register files named: files as given, folders read for .json/.jsonl/.ndjson (sorted)."""
    out: List[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(q for q in p.rglob("*") if q.is_file() and q.suffix in READ)
            if not found:
                raise ImportFailure([f"{p}: no .json, .jsonl or .ndjson file in this folder"])
            out.extend(found)
        elif p.is_file():
            out.append(p)
        else:
            raise ImportFailure([f"{p}: no such file or folder"])
    return out


def read(path: Path, name: str = "") -> Iterator[Record]:
    """Every record of one file, by its ending."""
    name = name or str(path)
    try:
        if path.suffix in LINES:
            with open(path, encoding="utf-8") as fh:
                yield from read_lines(fh, name)
        else:
            yield from read_array(path.read_text(encoding="utf-8"), name)
    except UnicodeDecodeError as e:
        raise ImportFailure([f"{name}: not UTF-8 text (byte {e.start})"]) from None
    except OSError as e:
        raise ImportFailure([f"{name}: cannot read: {e.strerror}"]) from None
