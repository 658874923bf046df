"""Load errors: the catalog of what provlog rejects, and how it reports it.

Every error carries a code from :data:`CATALOG`; docs/errors.md is built from
the same table, and tests/test_errors.py produces each one from a minimal file.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import List, Sequence

from ..errors import ProvlogError

#: code -> (what is wrong, a minimal example that produces it).
#:
#: An example is the text of a file ``world.facts`` loaded (with ``--strict``)
#: beside :data:`EXAMPLE_PRELUDE`, which declares the ids examples refer to;
#: ``<64 hex>`` stands for a 64-character lowercase hex hash, a lone surrogate
#: ``\udcXX`` for the raw byte 0xXX, and an example in parentheses describes
#: an input too large to show (docs/gen_errors.py builds it).
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
    "E112": ("duplicate id, or a second stake/resolution where one is allowed", 'lab beta "Beta"\nlab beta "Beta Labs"'),
    "E120": ("percentage outside 0-100 or an empty range", "stake acme evalco 120%"),
    "E121": ("cap or floor outside 0-4", "signal s1 evalco F against cap 5 rule=F.1"),
    "E130": ("lane=self-attested is never accepted", 'source s1 "x" publisher=p status=confirmed lane=self-attested'),
    "E131": ("lane=verified without both 64-lowercase-hex hashes", 'source s1 "x" publisher=p status=confirmed lane=verified'),
    "E132": ("lane=reported without attestor and approved-by", 'source s1 "x" publisher=p status=confirmed lane=reported'),
    "E133": ("lane=pending under --strict", 'source s1 "x" publisher=p status=confirmed lane=pending'),
    "E140": ("a derived relation (value, band, derived signal, ...) stated as a fact", "value evalco F 3"),
    "E150": ("a file or folder of the world cannot be read: an include not found, an unreadable file or subfolder, "
             "a dangling or looping symlink, a .facts entry that is not a regular file (a folder, a FIFO)",
             'include "missing.facts"'),
    "E151": ("include cycle", 'include "world.facts"'),
    "E152": ("file is not UTF-8 text", 'lab beta "Caf\udce9 Labs"'),
    "E153": ("input limit exceeded (file size, statements, include depth, citations of one signal)",
             "(includes nested deeper than the limit: world.facts includes d1.facts, which includes d2.facts, ...)"),
    "E154": ("a symlink in a folder world, or an include, that leads outside the world folder",
             "(a folder world world/ whose outside.facts is a symlink to an outside.facts beside the folder)"),
    "E155": ("empty world: no statements, or a folder with no .facts files",
             "(world.facts holds only a comment, loaded as a single-file world)"),
    # benchmark results (facts/results.py, docs/lanes.md); lane=self-attested on a result is E130
    "E160": ("benchmark id is not <name>@<version> or <name>/<subset>@<version>",
             "result r1 evalco HumanEval lane=rejected percentile=50"),
    "E161": ("a result hash that is not 64 lowercase hex (uppercase, short, non-hex), or lane=verified without both",
             "result r1 evalco humaneval@1 lane=verified run-at=2026-01-05 percentile=50 dataset-hash=ABC input-hash=abc"),
    "E162": ("lane=verified result without run-at", 'result r1 evalco humaneval@1 lane=verified percentile=50 dataset-hash=<64 hex> input-hash=<64 hex>'),
    "E163": ("lane=reported result without attestor and approved-by", "result r1 evalco humaneval@1 lane=reported percentile=50"),
    "E164": ("lane=pending result or benchmark source under --strict", "result r1 evalco humaneval@1 lane=pending percentile=50"),
    "E165": ("score outside its unit's range (pct 0-100, fraction 0-1) or percentile outside 0-100", "result r1 evalco humaneval@1 lane=rejected score=120 unit=pct"),
    "E166": ("a result whose attestor is its own org (id or name): self-attestation is rejected at the schema",
             'result r1 evalco humaneval@1 lane=reported percentile=50 attestor="eval co" approved-by="gate"'),
    "E167": ("a revision without a new hash: two results with the same dataset-hash and input-hash and different scores",
             "result r1 evalco humaneval@1 lane=verified run-at=2026-01-05 percentile=50 dataset-hash=<64 hex> input-hash=<64 hex>\n"
             "result r2 evalco humaneval@1 lane=verified run-at=2026-02-05 percentile=60 dataset-hash=<64 hex> input-hash=<64 hex>"),
    # the facts a floor needs (issue 40, logic/policies.py)
    "E173": ("a source's adverse= (R.5's published finding a lab did not welcome) without adverse-to=<lab>, or the reverse",
             'source s1 "x" publisher=evalco status=confirmed adverse=disputed-result'),
    "E174": ("a leaderboard ranking stated as an adverse finding (adverse=ranking, or adverse= on a source with lane=): "
             "R.5, a ranking alone is not one", 'source s1 "x" publisher=evalco status=confirmed adverse=ranking adverse-to=acme'),
    "E175": ("a civil-service policy (a public body's statutory conflict rules, G.2) for an org that is not type=gov",
             "policy evalco civil-service"),
    "E176": ("an adverse finding (adverse=) on a source whose publisher is not an org: R.5 reads an evaluator's own "
             "published findings", 'source s1 "x" publisher=p status=confirmed adverse=safety-failure adverse-to=acme'),
    "E177": ("a member (G.4) of an org that is not a member-governed consortium (type=consortium)",
             "member acme evalco"),
    # the publication cycle (facts/outreach.py, docs/outreach.md)
    "E180": ("a contact's reply dated before its letter was sent", "contact evalco sent=2026-08-02 replied=2026-08-01 reply=s0"),
    "E181": ("a contact's replied= without reply= (the source that holds the reply), or reply= without replied=",
             "contact evalco sent=2026-08-02 replied=2026-08-03"),
    "E182": ("a reply window (window=, reply-window) outside 1-365 days", "contact evalco sent=2026-08-02 window=0"),
    "E183": ("a criterion=system-card candidate whose cited source has no date= (the 24-month window counts from it)",
             'candidate c1 "Eval Co" criterion=system-card result=included checked=2026-08-01 cited=s0'),
    "E184": ("a candidate whose result contradicts its org's status (result=out-of-scope and status=out-of-scope go together)",
             'candidate c1 "Eval Co" criterion=statute result=out-of-scope checked=2026-08-01 cited=s0 org=evalco'),
}

#: Errors of what a command was asked rather than of a world's text: one line on stderr (or a listing
#: that says it), never a traceback, exit 1 or 2. code -> (what is wrong, the command docs/gen_errors.py
#: runs for its example, in a folder its builder for the code makes: a git repository, say).
COMMAND_CATALOG = {
    # the history (facts/commits.py, queries/history.py, docs/history.md)
    "E185": ("WORLD is not in a git repository, or lies outside it (provlog log, provlog blame, the explorer's history)",
             "provlog log w"),
    "E186": ("a REV-RANGE git does not know as a range, or one that holds no commit", "provlog log w HEAD..HEAD"),
    "E187": ("the world does not load at a commit: listed with its first error, and the walk goes on (exit 1)",
             "provlog log w"),
    "E188": ("the clone is shallow: the history stops at its first commit, listed up to there (exit 1)",
             "provlog log w"),
    "E189": ("WORLD is not in the newest commit of the range (not committed yet)", "provlog log new"),
}

#: Codes that are errors only under ``--strict`` (a legacy lane, accepted otherwise).
STRICT_ONLY = frozenset({"E133", "E164"})

#: code -> what is probably not meant: ``provlog check`` prints these after ``ok`` and exits 0
#: (queries/lint.py finds them; they need the rules, so the loader does not).
WARNINGS = {
    "W100": "a signal that cites no source (no cite statement, no src=): no policy admits it, it sets no bound",
    "W110": "a quoted constant of an expect holds/fails goal that names nothing in the world, the fact language "
            "or the rules (a typo makes `expect fails` pass for the wrong reason)",
    "W120": "a signal stating a direction or a bound its clause does not give (S.2 gives cap 2; `provlog rules S.2`); "
            "an error under `check --strict`, and `verify` fails",
    "W121": "a floor the org's stated policies or legal form do not give (G.2 with one conflict-policy element, P.5 "
            "without disclose-ties, a for-profit's G.2 floor 3), or a Four what it states does not give (P.8 with "
            "a stake of its people in a lab, R.5 with a ranking and no adverse finding, M.1 without open tasks); "
            "an error under `check --strict`, and `verify` fails",
    "W122": "an org stating revenue=labs-only (lab revenue is the only revenue it discloses, F.5) beside a disclosed "
            "base that is not a lab (revenue, a fee, a grant or a donation from a payer that is not a lab, or a paid sale "
            "to a customer that is not one): F.5 does not read it, the lab fees are F.3's",
    "W123": "a stake or invest flagged diversified (X.5: held in a diversified portfolio) whose holder is not an org or "
            "whose subject is not a lab: X.5 reads the flag only on an org's own holding of a lab, so it changes nothing",
    "W130": "a stale letter: the subject's letter (card, evidence, document requests, roles) moved since the letter "
            "whose digest the contact records (letter=) was sent; write it again with provlog outreach",
    "W131": "a candidate's recorded result is not the derived one (a system-card citation older than 24 months at "
            "the world's as-of, or a met criterion recorded as excluded)",
    "W140": "provlog lsp only: a file open in the editor that is not part of the world the server serves "
            "(it is checked alone)",
}

#: Warnings that are errors under ``check --strict`` and fail ``verify``: the curator's bound, checked.
STRICT_WARNINGS = frozenset({"W120", "W121"})

#: Declarations every CATALOG example may refer to (loaded as a second file).
EXAMPLE_PRELUDE = """\
lab acme "Acme AI"
org evalco "Eval Co" type=nonprofit
entity p "Example Publisher" kind=public
source s0 "https://example.org/report" publisher=p status=confirmed
"""


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

    def __post_init__(self):
        # A hostile input can put a megabyte into one token; a message quotes at most a line of it.
        if len(self.message) > _MAX_QUOTE:
            object.__setattr__(self, "message", _shorten(self.message))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message} [{self.code}]"

    def render(self) -> str:
        """``str(self)``, then the source line (a window of it around the column) and a caret."""
        if not self.source_line:
            return str(self)
        line, col = self.source_line, max(self.col, 1)
        start = max(0, min(col - 1 - _WINDOW // 2, len(line) - _WINDOW))
        window = line[start:start + _WINDOW]
        lead, tail = ("..." if start > 0 else ""), ("..." if start + _WINDOW < len(line) else "")
        shown = "".join(_visible(c) for c in window)
        # the caret stands under the character: pad by each character's display width
        pad = "".join(" " * _width(c) for c in window[:col - 1 - start])
        return f"{self}\n    {lead}{shown}{tail}\n    {' ' * len(lead)}{pad}^"

    def sort_key(self):
        return (self.file, self.line, self.col, self.code, self.message)


_MAX_QUOTE = 400  # characters of a message before long quoted values are shortened
_WINDOW = 160  # characters of a source line shown under a diagnostic


def _shorten(message: str) -> str:
    """Cut every quoted run longer than 60 characters down to its start."""
    out = re.sub(r"(['\"])([^'\"]{60})[^'\"]{20,}\1", lambda m: f"{m[1]}{m[2]}...{m[1]}", message)
    return out if len(out) <= 2 * _MAX_QUOTE else out[:2 * _MAX_QUOTE] + "..."


def _visible(c: str) -> str:
    """A character as shown under a diagnostic: tabs as one space, controls as U+FFFD."""
    if c == "\t":
        return " "
    return c if c.isprintable() else "\ufffd"


def _width(c: str) -> int:
    if unicodedata.combining(c):
        return 0
    return 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1


class LoadError(ProvlogError):
    """A world could not be loaded; ``.diagnostics`` lists every error found.

    Nothing of the world is kept: provlog loads a world whole or not at all.
    """

    exit_code = 1

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics: List[Diagnostic] = sorted(diagnostics, key=Diagnostic.sort_key)
        n = len(self.diagnostics)
        head = f"{n} error{'s' if n != 1 else ''} in world"
        super().__init__(head + "\n" + "\n".join(str(d) for d in self.diagnostics))

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)
