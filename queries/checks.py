"""Checks of a world (part of :class:`~provlog.queries.api.World`): its ``expect`` statements
(``provlog test``), its stored assessments against their derivation (``provlog verify``), and the
warnings ``provlog check`` prints (queries/lint.py)."""
from __future__ import annotations

from typing import List

from ..errors import UnknownName
from ..facts import DIMS, Diagnostic
from ..grammar import QueryError
from ..logic import bounds
from .locking import _locked
from .records import DEFAULT_POLICY, STORED_POLICY, ExpectResult


class WorldChecks:
    """``expect`` statements, ``verify`` and ``check``'s warnings."""

    def warnings(self) -> List[Diagnostic]:
        """What ``provlog check`` warns of, in file order (queries/lint.py): signals that cite no
        source (W100), ``expect`` goal constants that name nothing in the world or the rules (W110),
        bounds a signal's clause (W120) or its org's policies (W121) do not give."""
        from .lint import warnings

        return warnings(self)

    # -- expectations and verify ---------------------------------------------------------------------
    @_locked
    def check_expects(self) -> List[ExpectResult]:
        """Run every ``expect`` statement of the world."""
        out = []
        for f in sorted(self.facts.of("expect"), key=lambda f: f.loc):
            what = f["what"]
            pol = f["policy"] or DEFAULT_POLICY
            if what == "hop":
                got = self.hop(f["node"])
                text = f"expect hop {f['node']} = {_show(f['expected'], 'none')}"
                out.append(ExpectResult(str(f.loc), text, got == f["expected"], got, f["expected"]))
            elif what == "value":
                v = self.value(f["org"], f["dim"], pol)
                ok = v.value == f["expected"] and (f["rule"] is None or v.rule == f["rule"])
                text = f"expect {f['org']} {f['dim']} = {_show(f['expected'])} policy={pol}" + (f" rule={f['rule']}" if f["rule"] else "")
                got = f"{_show(v.value)}" + (f" rule={v.rule}" if f["rule"] else "")
                out.append(ExpectResult(str(f.loc), text, ok, got, f["expected"]))
            elif what == "band":
                got = self.band(f["org"], pol)
                out.append(ExpectResult(str(f.loc), f"expect {f['org']} band={f['expected']} policy={pol}",
                                        got == f["expected"], got, f["expected"]))
            elif what in ("holds", "fails"):
                text = f'expect {what} "{f["goal"]}"' + (f" rulebook={f['rulebook']}" if f["rulebook"] else "")
                try:
                    got = self.holds(f["goal"], f["rulebook"])
                except (QueryError, UnknownName) as e:  # a goal that cannot be asked fails its expect, with why
                    out.append(ExpectResult(str(f.loc), text, False, f"error: {e}", what))
                    continue
                out.append(ExpectResult(str(f.loc), text, got == (what == "holds"), "holds" if got else "fails", what))
            elif what == "role":
                got = self.role(f["org"])
                out.append(ExpectResult(str(f.loc), f"expect {f['org']} role={f['expected']}", got == f["expected"],
                                        got, f["expected"]))
        return out

    @_locked
    def verify(self) -> List[str]:
        """Stored assessments and roles against their derivation, unresolved conflicts, and signals
        whose bound their clause or their org's policies do not give (W120, W121).

        Returns the problems, one line each; an empty list means the world verifies.
        """
        problems = [str(d) for d in bounds.warnings(self.facts)]
        for f in sorted(self.facts.of("assessment"), key=lambda f: f.loc):
            org = f["org"]
            if f["dim"]:
                v = self.value(org, f["dim"], STORED_POLICY)
                if v.value != f["value"]:
                    problems.append(f"{f.loc}: {org} {f['dim']} stored {_show(f['value'])}, derived {_show(v.value)} "
                                    f"under {STORED_POLICY} ({v.rule or 'unevidenced'})")
            else:
                role = self.role(org)
                if role != f["role"]:
                    problems.append(f"{f.loc}: {org} role stored {f['role']}, derived {role}")
        for org in self.orgs:
            for pol in (STORED_POLICY, DEFAULT_POLICY):
                for dim in DIMS:
                    v = self.value(org, dim, pol)
                    if v.conflict and not v.resolved:
                        problems.append(f"{org} {dim}: unresolved conflict under {pol}: floor {v.floor} > cap {v.cap}; "
                                        f"write `resolution {org} {dim} value=<n> rule=<rule>` with {v.cap} <= n <= {v.floor}")
        return problems


def _show(v, none="-"):
    return none if v is None else str(v)
