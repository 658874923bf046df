"""One load's diagnostics: every error of every file, with the lines of each file read (for the
carets), and the language the load reads. The loader, the statement checks and the resolver all
report into one :class:`_Collector`; the load raises them together as one LoadError."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..grammar import RawStatement, parse_text
from ..grammar.parser import source_lines
from . import schema as S
from .errors import Diagnostic
from .language import LANGUAGE


class _Collector:
    """One load: the language it reads, and every diagnostic, with the lines of each file read (for the carets)."""

    def __init__(self, language: Optional[S.Language] = None):
        self.language = language or LANGUAGE
        self.diags: List[Diagnostic] = []
        self.lines: Dict[str, List[str]] = {}
        # references written in statements refused for another error: still checked (E110/E111)
        self.refused_refs: List[Tuple[str, Tuple[str, Tuple[str, ...], int, int, str]]] = []

    def add(self, file: str, line: int, col: int, code: str, message: str, source_line: str = ""):
        self.diags.append(Diagnostic(file, line, col, code, message, source_line or self.line(file, line)))

    def line(self, file: str, line: int) -> str:
        lines = self.lines.get(file, ())
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def parse(self, text: str, name: str) -> List[RawStatement]:
        """Parse one file's text, recording its lines and its syntax errors (E100)."""
        self.lines[name] = source_lines(text)
        stmts, perrs = parse_text(text, name)
        for pe in perrs:
            self.add(pe.file, pe.line, pe.col, "E100", pe.message)
        return stmts
