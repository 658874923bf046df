"""The ``expect`` statement: a golden test written beside the facts.

    expect <org> <dim> = <n|-> [policy=<p>] [rule=<id>]
    expect <org> band=<band> [policy=<p>]
    expect <org> role=<role>
    expect hop <payer> = <n|none>
    expect holds|fails "<goal>" [rulebook=<name>]

Its shape is its own (a lone ``=``, a goal in quotes), so its declaration
(at the end of this module) reads the raw statement with :func:`read_expect` (``Decl.read``)
instead of declaring fields;
``provlog test`` and the pytest plugin run what it holds.
"""
from __future__ import annotations

from typing import Any, Dict, Tuple

from ..grammar import Pair, RawStatement
from ..grammar.parser import Arg, Eq
from ..grammar.query import QueryError, safe_order
from ..grammar.read_goal import parse_goal
from . import schema as S
from . import values as V

def _wrong(item, msg: str, code: str = "E104") -> S.ItemError:
    return S.ItemError(item, code, msg)


USAGE = ("expect takes: <org> <dim> = <n|-> [policy=] [rule=] | <org> band=<b> [policy=] | "
         "<org> role=<r> | hop <payer> = <n|none>")


def read_expect(st: RawStatement) -> Tuple[Dict[str, Any], list]:
    """expect <org> <dim> = <n|-> | <org> band=<b> | <org> role=<r> | hop <payer> = <n|none>
    | holds|fails "<goal>": the values and the ids referred to; ItemError where it is wrong."""
    items = st.items
    words = [i for i in items if isinstance(i, Arg)]
    pairs = {i.key: i for i in items if isinstance(i, Pair)}
    eqs = [i for i in items if isinstance(i, Eq)]
    for k, p in pairs.items():
        if k not in ("policy", "rule", "band", "role", "rulebook"):
            raise _wrong(p, f"unknown attribute {k}= for expect; {USAGE}", "E102")
        if len(p.values) != 1:
            raise _wrong(p, f"{k}= takes one value")
    refs: list = []
    out: Dict[str, object] = {}
    if words and words[0].value in ("holds", "fails") and not words[0].quoted:
        # expect holds|fails "<goal>" [rulebook=<name>]: any goal of any rulebook
        if len(words) != 2 or not words[1].quoted or eqs or set(pairs) - {"rulebook"}:
            raise _wrong(words[0], 'expect holds "<goal>" [rulebook=<name>] | '
                                   'expect fails "<goal>" [rulebook=<name>]', "E103")
        return _goal(words, pairs, out), refs
    if words and words[0].value == "hop" and not words[0].quoted:
        if len(words) != 3 or len(eqs) != 1 or pairs:
            raise _wrong(words[0], USAGE, "E103")
        return _hop(words, out, refs), refs
    if not words:
        raise _wrong(None, USAGE, "E103")
    org = words[0]
    refs.append((org.value, ("org",), org.line, org.col, "<org>"))
    out["org"] = org.value
    pol = pairs.get("policy")
    if pol is not None:
        p = pol.values[0].value
        if p not in S.POLICY_NAMES:
            raise _wrong(pol.values[0], f"unknown policy {p!r}; one of {', '.join(S.POLICY_NAMES)}")
        out["policy"] = p
    if "band" in pairs or "role" in pairs:
        if len(words) != 1 or eqs or "rule" in pairs or ("band" in pairs and "role" in pairs):
            raise _wrong(words[1] if len(words) > 1 else st, USAGE, "E103")
        return _band_or_role(pairs, pol, out), refs
    if len(words) != 3 or len(eqs) != 1:
        raise _wrong(words[-1], USAGE, "E103")
    return _value(words, pairs, out), refs


def _goal(words, pairs, out):
    """expect holds|fails "<goal>": the goal, read now so that a wrong one is located."""
    g = words[1]
    try:
        safe_order(parse_goal(g.value))
    except QueryError as e:  # the caret under the goal's first wrong character
        col = g.col + min(max(e.column, 1), len(g.value) + 1)
        raise _wrong(Arg(g.value, True, g.line, col),
                     f"goal {V.show(g.value)} is not a Datalog goal: {e.reason}") from None
    out.update(what=words[0].value, goal=words[1].value,
               rulebook=pairs["rulebook"].values[0].value if "rulebook" in pairs else None)
    return out


def _hop(words, out, refs):
    """expect hop <payer> = <n|none>."""
    payer, val = words[1], words[2]
    out.update(what="hop", node=payer.value)
    refs.append((payer.value, S.NODE, payer.line, payer.col, "hop <payer>"))
    if val.value == "none":
        out["expected"] = None
    else:
        try:
            out["expected"] = V.parse_int(val.value)
        except V.BadValue:
            raise _wrong(val, f"a hop is a whole number or none, got {val.value!r}")
    return out


def _band_or_role(pairs, pol, out):
    """expect <org> band=<b> | <org> role=<r>."""
    if "band" in pairs:
        b = pairs["band"].values[0]
        if b.value not in S.BANDS:
            raise _wrong(b, f"a band is one of {', '.join(S.BANDS)}, got {b.value!r}")
        out.update(what="band", expected=b.value)
    else:
        r = pairs["role"].values[0]
        if r.value not in S.ROLE_NAMES:
            raise _wrong(r, f"a role is one of {', '.join(S.ROLE_NAMES)}, got {r.value!r}")
        if pol is not None:
            raise _wrong(pol, "roles derive under leads-included; expect role takes no policy=", "E102")
        out.update(what="role", expected=r.value)
    return out


def _value(words, pairs, out):
    """expect <org> <dim> = <n|-> [rule=<id>]."""
    try:
        out["dim"] = S._dim(words[1].value)
    except V.BadValue as e:
        raise _wrong(words[1], str(e))
    v = words[2]
    if v.value == "-":
        out["expected"] = None
    else:
        try:
            out["expected"] = V.parse_bound(v.value)
        except V.BadValue as e:
            raise _wrong(v, f"expected value: {e}", "E121" if isinstance(e, V.BoundRangeError) else "E104")
    if "rule" in pairs:
        r = pairs["rule"].values[0]
        if not V.RULE_ID.match(r.value):
            raise _wrong(r, f"expected a rule id like F.4b, C15 or 9, got {r.value!r}")
        out["rule"] = r.value
    out["what"] = "value"
    return out


#: The ``expect`` statement, in a language of its own (language.py puts it with the rest), so that
#: schema.py, whose names this module reads, does not import it back.
STATEMENTS = S.Language("independence")
STATEMENTS.declare(S.Decl("expect", (), evidence=False, read=read_expect, summary="a golden test beside the facts"))
