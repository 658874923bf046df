"""Read a world's files: follow includes, enforce the input limits, decode UTF-8, and check each
statement as it is read (facts/checking.py). The files come from facts/files.py (the disk, or a
git revision); the statements read are resolved together afterwards (facts/resolving.py)."""
from __future__ import annotations

import hashlib
import re
from typing import Dict, List, Optional, Set, Tuple

from ..grammar import RawStatement
from .checking import _check_items, _note_attempt, check_statement
from .collector import _Collector
from .files import TooBig
from .model import Fact


#: Input limits (E153): generous for real worlds, finite for hostile ones.
MAX_FILE_BYTES = 64 * 2**20


MAX_INCLUDE_DEPTH = 32


MAX_FILES = 5000


MAX_STATEMENTS = 2_000_000


class _Reader:
    """Reads files and their includes, parses them, and checks statements."""

    def __init__(self, files, strict: bool, errs: _Collector, top=None, rewrite=None):
        self.files = files  # facts/files.py: Disk, or a GitTree
        self.rewrite = rewrite  # (name, text) -> the text as a what-if edits it (facts/whatif.py), or None
        self.top = top  # the world's folder: an include may not lead out of it (E154)
        self.strict = strict
        self.errs = errs
        self.loaded: Dict[object, str] = {}
        self.digests: Dict[str, str] = {}  # resolved path -> SHA-256 of the bytes read (the store's key)
        self.facts: List[Fact] = []
        self.attempted: Set[str] = set()  # ids of declarations that failed their own checks
        self.count = 0

    def read(self, path, stack: Tuple = (), at: Optional[Tuple[str, int, int, str]] = None):
        files = self.files
        try:
            path = files.resolve(path)
        except (OSError, ValueError, RuntimeError) as e:  # a NUL byte, a symlink loop
            f, line, col, text = at or (str(path), 1, 1, "")
            self.errs.add(f, line, col, "E150", f"cannot read file {files.name(path)!r}: {getattr(e, 'strerror', None) or e}", text)
            return
        if path in stack:
            f, line, col, text = at  # type: ignore[misc]
            chain = " -> ".join(files.name(p) for p in stack + (path,))
            self.errs.add(f, line, col, "E151", f"include cycle: {chain}", text)
            return
        if path in self.loaded:
            return  # a file reached twice (diamond include, or a folder) is loaded once
        if len(stack) > MAX_INCLUDE_DEPTH:
            f, line, col, text = at  # type: ignore[misc]
            self.errs.add(f, line, col, "E153", f"includes nest deeper than {MAX_INCLUDE_DEPTH} files", text)
            return
        if len(self.loaded) >= MAX_FILES:
            f, line, col, text = at or (files.name(path), 1, 1, "")
            self.errs.add(f, line, col, "E153", f"a world may have at most {MAX_FILES} files")
            return
        name = files.name(path)
        self.loaded[path] = name
        try:
            data = files.read(path, MAX_FILE_BYTES)
        except TooBig as e:
            self.errs.add(name, 1, 1, "E153", f"file is over {MAX_FILE_BYTES} bytes, the limit" if e.size is None
                          else f"file is {e.size} bytes; the limit is {MAX_FILE_BYTES}")
            return
        except OSError as e:
            if at:
                f, line, col, text = at
                self.errs.add(f, line, col, "E150", f"cannot read included file {name!r}: {e.strerror}", text)
            else:
                self.errs.add(name, 1, 1, "E150", f"cannot read file: {e.strerror}")
            return
        self.digests[str(path)] = hashlib.sha256(data).hexdigest()
        text = _decode(data, name, self.errs)
        if text is None:
            return
        if self.rewrite is not None:
            edited = self.rewrite(name, text)
            if edited != text:  # the what-if's file: keyed by what was read, as the edit reads
                text = edited
                self.digests[str(path)] = hashlib.sha256(edited.encode("utf-8", "surrogatepass")).hexdigest()
        stmts = self.errs.parse(text, name)
        self.count += len(stmts)
        if self.count > MAX_STATEMENTS:
            self.errs.add(name, 1, 1, "E153", f"a world may have at most {MAX_STATEMENTS} statements")
            return
        for st in stmts:
            if st.keyword == "include":
                self._include(st, path, stack + (path,))
            else:
                fact = check_statement(st, self.errs, self.strict)
                if fact is not None:
                    self.facts.append(fact)
                else:
                    _note_attempt(st, self.attempted, self.errs)

    def _include(self, st: RawStatement, path, stack: Tuple):
        decl = self.errs.language.decls["include"]
        vals = _check_items(st, decl, self.errs)
        if vals is None:
            return
        target = self.files.join(path, vals[0]["path"])
        arg = st.args[0]  # the caret of an include error stands under the path
        try:
            resolved = self.files.resolve(target)
        except (OSError, ValueError, RuntimeError):
            resolved = target  # read() reports it
        if self.top is not None and not self.files.inside(resolved, self.top):
            # a world is the files under its folder: an include that leads out could make a
            # check print lines of any readable file into a CI log
            self.errs.add(st.file, arg.line, arg.col, "E154",
                          f"include leads outside the world folder, to {self.files.name(resolved)!r}; "
                          f"copy the file into the world", "")
            return
        self.read(target, stack, at=(st.file, arg.line, arg.col, ""))


_BYTE_LINE_END = re.compile(rb"\r\n?|\n")


def _decode(data: bytes, name: str, errs: _Collector) -> Optional[str]:
    """UTF-8 text without a byte-order mark, or None with E152 at the first bad byte's line:col
    (a column counts characters, as everywhere else)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        ends = [m.end() for m in _BYTE_LINE_END.finditer(data, 0, e.start)]  # LF, CRLF and CR end lines
        bol, line = (ends[-1] if ends else 0), len(ends) + 1
        eol = _BYTE_LINE_END.search(data, e.start)
        shown = data[bol:eol.start() if eol else len(data)].decode("utf-8", "replace")
        col = len(data[bol:e.start].decode("utf-8")) + 1  # what precedes the first bad byte is valid
        if line == 1 and shown.startswith("\ufeff"):
            shown, col = shown[1:], col - 1
        errs.add(name, line, col, "E152",
                 f"not UTF-8 text: byte 0x{data[e.start]:02x} is not valid UTF-8 here; save the file as UTF-8",
                 shown)
        return None
    return text[1:] if text.startswith("\ufeff") else text
