"""Read register files as records, each with the file and line it starts on.

A `.json` file holds one JSON array of statements (the way BODS publishes its
examples); a `.jsonl` or `.ndjson` file holds one JSON object a line (the way
registers and FollowTheMoney exports are published). Either way a record keeps
where it came from, so an error, and every statement made from it, can name
its file:line. A leading UTF-8 byte-order mark is read through.

JSON is read within bounds, so a hostile file is a located error, never a
traceback: numbers of at most 100 characters, no NaN or Infinity (not JSON),
nesting as deep as Python's recursion allows.

    >>> import io, json
    >>> recs = list(read_array('[\\n {"a": 1},\\n {"a": 2}\\n]', "x.json"))
    >>> [(r.line, r.data["a"]) for r in recs]
    [(2, 1), (3, 2)]
    >>> list(read_lines(iter(['{"a": NaN}']), "x.jsonl"))
    Traceback (most recent call last):
    ...
    provlog.importers.records.ImportFailure: x.jsonl:1: not JSON: NaN (JSON has no NaN or Infinity)
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Sequence, Union

#: The file name endings read as one object a line.
LINES = (".jsonl", ".ndjson")
#: What a folder import reads.
READ = (".json",) + LINES
#: The longest JSON number read (Python's own limit, 4,300 digits, would raise; no register needs more).
NUMBER_CHARS = 100


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


class _Unreadable(ValueError):
    """JSON that parses but that provlog does not read (a constant, a number past NUMBER_CHARS)."""


def _constant(name: str):
    raise _Unreadable(f"not JSON: {name} (JSON has no NaN or Infinity)")


def _number(kind):
    def parse(text: str):
        if len(text) > NUMBER_CHARS:
            raise _Unreadable(f"a number of {len(text):,} characters: provlog reads JSON numbers of at most "
                              f"{NUMBER_CHARS}")
        return kind(text)
    return parse


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_int=_number(int), parse_float=_number(float))


def _decode(text: str, at: int, name: str, line: int, lines_before: int = 0):
    """(object, end) of the JSON value at offset ``at`` of ``text``: the statement that starts at ``line``
    of file ``name`` (``text`` starts ``lines_before`` lines into the file).

    Whatever provlog does not read is a located ImportFailure: bad JSON at its
    line and column; a NaN, a long number or nesting past the recursion limit
    at the statement's line.
    """
    try:
        return _DECODER.raw_decode(text, at)
    except json.JSONDecodeError as e:
        raise ImportFailure([f"{name}:{lines_before + e.lineno}:{e.colno}: not JSON: {e.msg}"]) from None
    except _Unreadable as e:
        raise ImportFailure([f"{name}:{line}: {e}"]) from None
    except RecursionError:
        raise ImportFailure([f"{name}:{line}: JSON nested deeper than {sys.getrecursionlimit():,} levels: "
                             f"provlog reads no deeper"]) from None


def _line_of(text: str, offset: int, start_line: int, start_offset: int) -> int:
    return start_line + text.count("\n", start_offset, offset)


def read_array(text: str, name: str) -> Iterator[Record]:
    """The objects of a JSON array, each with the line its ``{`` is on."""
    i, n = 0, len(text)
    line, at = 1, 0

    def skip(i: int) -> int:
        while i < n and text[i] in " \t\r\n":
            i += 1
        return i

    i = skip(i)
    if i >= n or text[i] != "[":
        what = "the file is empty" if i >= n else f"it starts with {text[i]!r}"
        raise ImportFailure([f"{name}:{_line_of(text, i, line, at)}: expected a JSON array of statements, but {what} "
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
        obj, end = _decode(text, i, name, line)
        if not isinstance(obj, dict):
            raise ImportFailure([f"{name}:{line}: expected a JSON object (a statement), got {type(obj).__name__}"])
        yield Record(name, line, obj)
        i = skip(end)


def read_lines(lines: Iterator[str], name: str) -> Iterator[Record]:
    """The objects of a JSON Lines file (blank lines skipped)."""
    for no, text in enumerate(lines, 1):
        if not text.strip():
            continue
        obj, end = _decode(text, len(text) - len(text.lstrip()), name, no, no - 1)
        if text[end:].strip():
            raise ImportFailure([f"{name}:{no}:{end + 1}: not JSON: text after the statement (one statement a line)"])
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
    """Every record of one file, by its ending (a leading byte-order mark is read through)."""
    name = name or str(path)
    try:
        if path.suffix in LINES:
            with open(path, encoding="utf-8-sig") as fh:
                yield from read_lines(fh, name)
        else:
            text = path.read_text(encoding="utf-8-sig")
            if not text.strip():  # an empty array would be `[]`: an empty .json file is no JSON at all
                raise ImportFailure([f"{name}: the file is empty (a register file holds a JSON array of statements)"])
            yield from read_array(text, name)
    except UnicodeDecodeError as e:
        raise ImportFailure([f"{name}: not UTF-8 text (byte {e.start})"]) from None
    except OSError as e:
        raise ImportFailure([f"{name}: cannot read: {e.strerror}"]) from None
