"""Floors that need a policy: which policy kinds each clause reads, and what its floor needs of them.

The RULES tie some floors to published policies: G.2's conflict policy ("only if it names at least
two of" four elements; "statutory civil-service conflict rules count for a public body"), P.5's
mandatory recusal with disclosed ties (and P.6's "a 3 needs the policy in P.5"), R.7's "a 3 needs
either no lab review or security-only redactions disclosed", R.1's security-only redactions, and
the legal form G.1 and G.2 read (a for-profit or PBC floors at 2). A signal's floor is the
curator's reading of its cited span; where the org states policies of the kinds a clause reads,
logic/bounds.py checks the floor against them (W121); where it states none, the floor stands on its
span and ``why`` says so.

    >>> NEEDS["P.5"].gives("nonprofit", frozenset({"mandatory-recusal"}))
    Reading(floor=None, missing='disclose-ties')
    >>> NEEDS["G.2"].gives("gov", frozenset({"mandatory-recusal", "civil-service"})).floor
    3
    >>> NEEDS["M.1"].gives("nonprofit", frozenset({"open-code"}))
    Reading(floor=3, missing='open-tasks and third-party-reruns or factsheets')

A Four (P.8, S.5, R.5, M.1) reads policies and, where the RULES name a fact, kinds
logic/stated.py reads from other statements: ``lab-equity`` (a stake of the org's people in a lab
or lab investor: P.8's "no equity" is its absence), ``adverse-finding`` (a source the org publishes
with ``adverse=``) and ``ranking`` (its benchmark results, which give R.5 nothing).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, FrozenSet, Optional, Tuple

from .stated import ADVERSE, EQUITY, RANKING

#: Legal forms (``org type=``) as G.1 and G.2 name them; a consortium's form is not stated.
NONPROFIT_FORMS = ("nonprofit", "academic", "gov")
FOR_PROFIT_FORMS = ("pbc", "vc", "private", "bigtech")

#: G.2's four elements of a conflict policy, each with the policy kinds that state it (a mandatory
#: recusal rule is a recusal policy).
G2_ELEMENTS = (("recusal", "mandatory-recusal"), ("no-contingent-fees",), ("no-lab-investments",),
               ("disclose-lab-revenue",))


@dataclass(frozen=True)
class Reading:
    """What an org's stated policies give a clause: the highest floor (None: none) and, for a
    higher one, what is missing, in words."""

    floor: Optional[int]
    missing: str = ""


@dataclass(frozen=True)
class Needs:
    """What a clause's floor needs: the policy kinds it ``reads``, ``gives`` (org type, the kinds
    the org states) -> :class:`Reading`, the highest floor the legal form allows (``form``: org
    type -> (floor or None, why)), and the statements that would make an unchecked floor checked."""

    reads: Tuple[str, ...]
    gives: Callable[[str, FrozenSet[str]], Reading]
    form: Callable[[str], Tuple[Optional[int], str]] = lambda org_type: (4, "")
    stating: str = ""  # with {org}
    public: str = ""  # what a public body may state besides (G.2's civil-service rules)
    given: str = ""  # what a checked floor rests on besides the statements it names (P.8: no stake stated)

    def statements(self, org: str, org_type: str) -> str:
        """The statements that would make a floor of ``org`` checked, in words."""
        return (self.stating + (self.public if org_type == "gov" else "")).format(org=org)


#: What a Four reads besides policies (logic/stated.py), in the words a missing one is named by.
_WORDS = {ADVERSE: "a published adverse finding (a source the org publishes with adverse=<finding> "
                   "adverse-to=<lab>; a leaderboard ranking alone is not one)",
          EQUITY: "no equity in a lab or lab investor held by its people (board, executives, staff)"}


def _all(*kinds: str, floor: int, bare: Optional[int] = None):
    """Every one of ``kinds`` gives ``floor``; without them the clause gives ``bare``."""
    def gives(org_type: str, stated: FrozenSet[str]) -> Reading:
        missing = [_WORDS.get(k, k) for k in kinds if k not in stated]
        return Reading(bare, " and ".join(missing)) if missing else Reading(floor)
    return gives


def _any(*kinds: str, floor: int, bare: Optional[int] = None):
    """Any one of ``kinds`` gives ``floor``; without them the clause gives ``bare``."""
    def gives(org_type: str, stated: FrozenSet[str]) -> Reading:
        return Reading(floor) if stated & set(kinds) else Reading(bare, " or ".join(kinds))
    return gives


def _conflict_policy(org_type: str, stated: FrozenSet[str]) -> Reading:
    """G.2: two of the four elements (or a public body's civil-service rules) give 3, or 2 for a
    for-profit or PBC; fewer give nothing."""
    have = [e[0] for e in G2_ELEMENTS if stated & set(e)]
    top = 2 if org_type in FOR_PROFIT_FORMS else 3
    if len(have) >= 2 or (org_type == "gov" and "civil-service" in stated):
        return Reading(top)
    return Reading(None, "two of recusal, no-contingent-fees, no-lab-investments, disclose-lab-revenue (its policies "
                   + (f"name only {have[0]}" if have else "name none") + ")" + (", or civil-service (a public body's statutory rules)"
                                                          if org_type == "gov" else ""))


def _g2_form(org_type: str) -> Tuple[Optional[int], str]:
    if org_type in FOR_PROFIT_FORMS:
        return 2, f"G.2 floors a for-profit or PBC at 2, not 3 (type {org_type})"
    return 3, ""


def _g1_form(org_type: str) -> Tuple[Optional[int], str]:
    if org_type in NONPROFIT_FORMS or org_type == "consortium":
        return 2, ""
    return None, (f"G.1 reads the legal form of a nonprofit, academic group or public body, not type {org_type}: "
                  "a for-profit's floor needs G.2's conflict policy")


def _four_personnel(org_type: str, stated: FrozenSet[str]) -> Reading:
    """P.8: a cooling-off rule (for a public body its statutory post-employment rule, as P.3 reads
    it), disclosed ties, and no equity give 4 (a lower floor is not P.8's to check)."""
    gov = org_type == "gov"
    missing = ([] if "cooling-off" in stated or (gov and "post-employment" in stated)
               else ["cooling-off" + (" (or post-employment)" if gov else "")])
    missing += [] if "disclose-ties" in stated else ["disclose-ties"]
    missing += [_WORDS[EQUITY]] if EQUITY in stated else []
    return Reading(3, " and ".join(missing)) if missing else Reading(4)


def _open_methods(org_type: str, stated: FrozenSet[str]) -> Reading:
    """M.1: open code and open tasks, with third-party re-runs or factsheets, give 4; open code
    alone (or open tasks: anchor 3's "tasks or code partly open") gives 3; a floor of 2 or less
    needs neither."""
    missing = [k for k in ("open-code", "open-tasks") if k not in stated]
    if not stated & {"third-party-reruns", "factsheets"}:
        missing.append("third-party-reruns or factsheets")
    if not stated & {"open-code", "open-tasks"}:
        return Reading(2, "open-code or open-tasks for a 3 (a 4 needs both, and third-party-reruns or factsheets)")
    return Reading(3, " and ".join(missing)) if missing else Reading(4)


_RECUSAL_TIES = ("mandatory-recusal", "disclose-ties")
_REVIEW = ("no-lab-review", "security-only-redactions")

#: clause -> what its floor needs of the org's policies (and legal form).
NEEDS = {
    "G.1": Needs((), lambda t, s: Reading(2), _g1_form),
    "G.2": Needs(("recusal", "mandatory-recusal", "no-contingent-fees", "no-lab-investments", "disclose-lab-revenue",
                  "civil-service"), _conflict_policy, _g2_form,
                 "two of `policy {org} recusal` (or mandatory-recusal), `policy {org} no-contingent-fees`, "
                 "`policy {org} no-lab-investments`, `policy {org} disclose-lab-revenue`",
                 ", or `policy {org} civil-service` (a public body's statutory conflict rules)"),
    "P.5": Needs(_RECUSAL_TIES, _all(*_RECUSAL_TIES, floor=3),
                 stating="`policy {org} mandatory-recusal` and `policy {org} disclose-ties`"),
    "P.6": Needs(_RECUSAL_TIES, _all(*_RECUSAL_TIES, floor=3, bare=2),
                 stating="`policy {org} mandatory-recusal` and `policy {org} disclose-ties` (P.5's policy)"),
    "R.1": Needs(("security-only-redactions",), _all("security-only-redactions", floor=3),
                 stating="`policy {org} security-only-redactions`"),
    "R.7": Needs(_REVIEW, _any(*_REVIEW, floor=3, bare=2),
                 stating="`policy {org} no-lab-review` or `policy {org} security-only-redactions`"),
    # what a Four needs (P.8, S.5, R.5, M.1)
    "P.8": Needs(("cooling-off", "post-employment", "disclose-ties", EQUITY), _four_personnel,
                 stating="`policy {org} cooling-off` and `policy {org} disclose-ties` (and no `stake` of its "
                         "people in a lab or lab investor)",
                 public=", or for a public body `policy {org} post-employment` for the cooling-off rule",
                 given=", with no stake of its people in a lab or lab investor stated"),
    "S.5": Needs(("incident-investigation", "refuse-sign-off"),
                 _any("incident-investigation", "refuse-sign-off", floor=4, bare=3),
                 stating="`policy {org} incident-investigation` or `policy {org} refuse-sign-off`"),
    # R.5 reads a ranking too: "a leaderboard ranking alone is not an adverse finding", so it gives nothing
    "R.5": Needs(("no-lab-review", ADVERSE, RANKING), _all("no-lab-review", ADVERSE, floor=4, bare=3),
                 stating="`policy {org} no-lab-review` and a source {org} publishes with "
                         "`adverse=<finding> adverse-to=<lab>`"),
    "M.1": Needs(("open-code", "open-tasks", "third-party-reruns", "factsheets"), _open_methods,
                 stating="`policy {org} open-code` and `policy {org} open-tasks`, with `policy {org} "
                         "third-party-reruns` or `policy {org} factsheets` (open code alone: 3)"),
}
