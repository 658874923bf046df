"""Load errors: the catalog of what provlog rejects, and how it reports it.

Every error carries a code from :data:`CATALOG`; docs/errors.md is built from
the same table, and tests/test_errors.py produces each one from a minimal file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Sequence

#: code -> (what is wrong, a minimal example that produces it)
CATALOG = {
    "E100": ("syntax error (unterminated string, stray '=' or ',')", 'lab acme "Acme AI'),
    "E101": ("unknown keyword", 'laboratory acme "Acme AI"'),
    "E102": ("unknown attribute or flag for this statement", 'lab acme "Acme AI" colour=red'),
    "E103": ("missing or extra positional argument", "lab acme"),
    "E104": ("malformed value (identifier, number, date, percentage, enum)", 'org e "E" type=charity'),
    "E105": ("attribute given twice", 'org e "E" type=vc type=pbc'),
    "E106": ("a required attribute is missing", 'org e "E"'),
    "E110": ("reference to an undeclared id", "stake acme nowhere 20%"),
    "E111": ("reference to an id of the wrong kind", "role acme director evalco"),
    "E112": ("duplicate id, or a second stake/resolution where one is allowed", 'lab acme "A"\nlab acme "B"'),
    "E120": ("percentage outside 0-100 or an empty range", "stake acme evalco 120%"),
    "E121": ("cap or floor outside 0-4", "signal s1 evalco F against cap 5 rule=F.1"),
    "E130": ("lane=self-attested is never accepted", 'source s1 "x" publisher=p status=confirmed lane=self-attested'),
    "E131": ("lane=verified without both 64-lowercase-hex hashes", 'source s1 "x" publisher=p status=confirmed lane=verified'),
    "E132": ("lane=reported without attestor and approved-by", 'source s1 "x" publisher=p status=confirmed lane=reported'),
    "E133": ("lane=pending under --strict", 'source s1 "x" publisher=p status=confirmed lane=pending'),
    "E140": ("a derived relation (value, band, derived signal, ...) stated as a fact", "value evalco F 3"),
    "E150": ("include: file not found or unreadable", 'include "missing.facts"'),
    "E151": ("include cycle", 'include "self.facts"'),
    "E152": ("file is not UTF-8 text", "(bytes 0xff 0xfe)"),
    "E153": ("input limit exceeded (file size, statements, include depth)", "(a 100 MB file)"),
}


@dataclass(frozen=True)
class Diagnostic:
    """One load error at ``file:line:col``.

    ``str(d)`` is the one-line form ``file:line:col: message``; :meth:`render`
    adds the source line and a caret under the column.
    """

    file: str
    line: int
    col: int
    code: str
    message: str
    source_line: str = ""

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message} [{self.code}]"

    def render(self) -> str:
        if not self.source_line:
            return str(self)
        shown = self.source_line.expandtabs(1)[:200]
        caret = " " * (max(self.col, 1) - 1) + "^"
        return f"{self}\n    {shown}\n    {caret}"

    def sort_key(self):
        return (self.file, self.line, self.col, self.code, self.message)


class LoadError(Exception):
    """A world could not be loaded; ``.diagnostics`` lists every error found.

    Nothing of the world is kept: provlog loads a world whole or not at all.
    """

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics: List[Diagnostic] = sorted(diagnostics, key=Diagnostic.sort_key)
        n = len(self.diagnostics)
        head = f"{n} error{'s' if n != 1 else ''} in world"
        super().__init__(head + "\n" + "\n".join(str(d) for d in self.diagnostics))

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)
