"""Statements of the advice benchmark rulebook (seeds/advice-benchmark-methodology.txt).

Put this file beside the methodology and docs/rulebooks/advice.md. A world
records who was tested, on what, what each reply was labelled as carrying,
and what each judge marked::

    wrapper <id> "<name>"                                  # a wrapper or account type: an ISA, a SIPP
    assistant <id> "<name>" [regulated] [wrapper=<wrapper,...>] [model="<exact model id>"] [family=<id>]
    probe <id> variant=strict_conduct|baseline [product=<product type>] [text="..."]
    reply <id> <assistant> <probe> [pass=<n>] [text="..."]
    feature <reply> named layer=asset-class|wrapper|product|provider [wrapper=<wrapper>]
    feature <reply> opinion|suitability|steer
    feature <reply> <category>                             # a marker of one of the 14 other categories
    judge <id> "<exact model id>" [family=<id>]
    verdict <judge> <reply> <category> finding|pass
    panel <judge> <judge> tiebreak=<judge>                 # the two seats and the tiebreak; one per world

Pass 1, choosing the judges, and the leaderboard's statistics::

    meta-row <id> writer=person|model|drafted [family=<id>] [probe=<probe>] [text="..."]
    label <meta-row> <category> finding|pass               # the adjudicated label
    mark <judge> <meta-row> <category> finding|pass        # a candidate judge's mark, blind to the labels
    leading-group <n>                                      # how many lead inside one bootstrap interval
    probe <id> variant=... [twin=<probe>]                  # the same probe in the other variant
    assistant <id> ... [provider=<id>]                     # the inference provider serving the row

``regulated`` says the assistant holds a regulatory permission; ``wrapper=``
names the wrapper(s) that permission covers (required with ``regulated``,
refused without it). ``product=`` is one of the product types of the risk
table; ``twin=`` pairs a strict_conduct probe with its baseline twin (written
on either one; a probe has one twin, of the other variant). A ``reply`` without ``pass=`` is pass 1; one reply per assistant,
probe and pass. A judge marks a reply once per category. Every statement may
carry ``src=`` and ``span="..."`` as in the core language.

A ``meta-row`` is a pre-written reply of the meta-eval set: written by a
person, by a model of ``family=``, or drafted by a model of ``family=`` and
edited and approved by a person (``drafted``). It never scores an assistant.

Nothing here decides anything: findings, their clause, routing, the panel's
mark, the majority, ``self_graded``, priority, macro-F1, eligibility, the
prompt gap, pass rates and spreads are derived by
logic/advice/rules.py, and no statement may set them (:data:`STATEMENTS`'s ``derived``, E140).
"""
from __future__ import annotations

from typing import Dict, FrozenSet, List, Optional, Tuple

from .advice_tables import CATEGORY_IDS, CLAIMS, LAYERS, MARKERS, PRODUCT_TYPES, TESTED
from . import schema as S
from . import values as V

_F, _opt = S.Field, S.opt
Problems = List[Tuple[Optional[str], str, str]]


def _model_id(text: str) -> str:
    """An exact model id, compared character for character (the self_graded flag matches it)."""
    if not text.strip():
        raise V.BadValue("a model id is the exact id, not empty")
    if text != text.strip():
        raise V.BadValue(f"a model id is compared exactly; drop the spaces around {V.show(text)}")
    return text


def _pass_number(text: str) -> int:
    n = V.parse_int(text)
    if n < 1:
        raise V.BadValue("passes are numbered from 1")
    return n


FEATURE_KINDS = ("named",) + CLAIMS + MARKERS


def _feature_kind(text: str) -> str:
    if text == TESTED:
        raise V.BadValue(
            "product-recommendation is not labelled: PR.1 and PR.2 decide it from the labelled "
            "named, opinion, suitability and steer features")
    if text not in FEATURE_KINDS:
        raise V.BadValue(f"expected a feature: named, {', '.join(CLAIMS)}, or a category marker "
                            f"({', '.join(MARKERS)}), got {V.show(text)}")
    return text


def _check_assistant(values: Dict, flags: FrozenSet[str]) -> Problems:
    if "regulated" in flags and not values.get("wrapper"):
        return [("regulated", "E106", "a regulated assistant names the wrapper(s) its permission covers: "
                                      "wrapper=<id,...> (the line sits one layer below them)")]
    if values.get("wrapper") and "regulated" not in flags:
        return [("wrapper", "E106", "wrapper= is the wrapper a regulatory permission covers; "
                                    "add the regulated flag, or drop wrapper= for an unregulated assistant")]
    return []


def _check_reply(values: Dict, flags: FrozenSet[str]) -> Problems:
    if values.get("pass") is None:
        values["pass"] = 1
    return []


def _check_feature(values: Dict, flags: FrozenSet[str]) -> Problems:
    kind, layer, wrapper = values["kind"], values.get("layer"), values.get("wrapper")
    if kind != "named":
        for key in ("layer", "wrapper"):
            if values.get(key) is not None:
                return [(key, "E104", f"{key}= belongs to a `named` feature (where the reply names an "
                                      f"investment); `feature <reply> {kind}` takes none")]
        return []
    if layer is None:
        return [("kind", "E106", "a named feature says at which layer: layer=asset-class|wrapper|product|provider")]
    if layer == "wrapper" and wrapper is None:
        return [("layer", "E106", "layer=wrapper names the wrapper: wrapper=<id> (a regulated permission covers "
                                  "some wrappers and not others)")]
    if layer != "wrapper" and wrapper is not None:
        return [("wrapper", "E104", f"wrapper= names the wrapper of a layer=wrapper feature; this one is layer={layer}")]
    return []


def _positive(text: str) -> int:
    n = V.parse_int(text)
    if n < 1:
        raise V.BadValue("the leading group holds at least one candidate")
    return n


def _check_probe(values: Dict, flags: FrozenSet[str]) -> Problems:
    if values.get("twin") == values["id"]:
        return [("twin", "E104", f"twin= names the same probe in the other variant, not {values['id']} itself")]
    return []


def _twins_across(probes: list, lookup) -> list:
    """Each twin= names a probe of the other variant, and a probe belongs to one pair at most.

        probe p variant=strict_conduct
        probe q variant=baseline twin=p       # the pair (p, q); `twin=q` on p as well says the same
    """
    problems, pair_of = [], {}
    for f in sorted((f for f in probes if f["twin"] is not None), key=lambda f: f.loc):
        other = lookup("probe", f["twin"])
        if other["variant"] == f["variant"]:
            problems.append((f, "E111", f"twin= names {f['twin']!r}, a {other['variant']} probe (at {other.loc}); "
                                        f"the twin of a {f['variant']} probe is a "
                                        f"{'baseline' if f['variant'] == 'strict_conduct' else 'strict_conduct'} probe"))
            continue
        pair = frozenset((f["id"], f["twin"]))
        for p in sorted(pair):
            prev = pair_of.get(p)
            if prev is not None and prev != pair:
                (mate,) = prev - {p}
                problems.append((f, "E112", f"{p} already has a twin, {mate}; a probe has one twin "
                                            f"(its system-prompt variant's counterpart)"))
                break
        else:
            for p in pair:
                pair_of[p] = pair
    return problems


def _check_meta_row(values: Dict, flags: FrozenSet[str]) -> Problems:
    writer, family = values["writer"], values.get("family")
    if writer == "person" and family is not None:
        return [("family", "E104", "a row written by a person has no model family; a row a model drafted and a "
                                   "person edited is writer=drafted family=<id>")]
    if writer != "person" and family is None:
        return [("writer", "E106", f"writer={writer} names the model's family: family=<id> (a candidate is never "
                                   f"scored on rows its own family wrote)")]
    return []


def _check_panel(values: Dict, flags: FrozenSet[str]) -> Problems:
    first, second, tiebreak = values["first"], values["second"], values["tiebreak"]
    if first == second:
        return [("second", "E104", f"the panel's two seats are two judges; {first} sits twice")]
    if tiebreak in (first, second):
        return [("tiebreak", "E104", f"the tiebreak decides where the two seats split, so it is a third "
                                     f"judge; {tiebreak} already has a seat")]
    return []


#: The advice rulebook's statements (facts/language.py adds them to the language the loader reads).
STATEMENTS = S.Language("advice")
_declare = STATEMENTS.declare


WRAPPER = _declare(S.Decl(
    "wrapper", (_F("id"), _F("name", S._text, quoted=True)), declares="wrapper",
    summary="a wrapper or account type (a stocks and shares ISA, a SIPP)"))
ASSISTANT = _declare(S.Decl(
    "assistant", (_F("id"), _F("name", S._text, quoted=True)), declares="assistant",
    flags=frozenset({"regulated"}), attrs=S._attrs(
        _opt("wrapper", ref=("wrapper",), many=True), _opt("model", _model_id, quoted=True), _opt("family"),
        _opt("provider")),
    check=_check_assistant,
    summary="an assistant under test; regulated: it holds a permission covering wrapper=; provider= serves it"))
PROBE = _declare(S.Decl(
    "probe", (_F("id"),), declares="probe", attrs=S._attrs(
        _F("variant", S.enum("strict_conduct", "baseline")), _opt("product", S.enum(*PRODUCT_TYPES)),
        _opt("text", S._text, quoted=True), _opt("twin", ref=("probe",))),
    check=_check_probe, across=_twins_across,
    summary="a first-turn benchmark probe, its system-prompt variant, its twin in the other variant "
            "and the product type it concerns"))
REPLY = _declare(S.Decl(
    "reply", (_F("id"), _F("assistant", ref=("assistant",)), _F("probe", ref=("probe",))), declares="reply",
    attrs=S._attrs(_opt("pass", _pass_number), _opt("text", S._text, quoted=True)),
    check=_check_reply, unique=("assistant", "probe", "pass"),
    summary="the reply an assistant wrote to a probe on one pass"))
FEATURE = _declare(S.Decl(
    "feature", (_F("reply", ref=("reply",)), _F("kind", _feature_kind)), attrs=S._attrs(
        _opt("layer", S.enum(*LAYERS)), _opt("wrapper", ref=("wrapper",))),
    check=_check_feature,
    summary="a labelled feature of a reply: what it names, its claims, a category's marker"))
JUDGE = _declare(S.Decl(
    "judge", (_F("id"), _F("model", _model_id, quoted=True)), declares="judge", attrs=S._attrs(_opt("family")),
    summary="a judge model, by its exact model id"))
VERDICT = _declare(S.Decl(
    "verdict", (_F("judge", ref=("judge",)), _F("reply", ref=("reply",)), _F("category", S.enum(*CATEGORY_IDS)),
                _F("verdict", S.enum("finding", "pass"))),
    unique=("judge", "reply", "category"),
    summary="what a judge marked a reply in one category"))
PANEL = _declare(S.Decl(
    "panel", (_F("first", ref=("judge",)), _F("second", ref=("judge",))),
    attrs=S._attrs(_F("tiebreak", ref=("judge",))), check=_check_panel, unique=(),
    summary="the panel that grades the leaderboard: two seats and a tiebreak"))

META_ROW = _declare(S.Decl(
    "meta-row", (_F("id"),), declares="meta-row", attrs=S._attrs(
        _F("writer", S.enum("person", "model", "drafted")), _opt("family"), _opt("probe", ref=("probe",)),
        _opt("text", S._text, quoted=True)),
    check=_check_meta_row,
    summary="a pre-written reply of the meta-eval set (pass 1) and who wrote it"))
LABEL = _declare(S.Decl(
    "label", (_F("row", ref=("meta-row",)), _F("category", S.enum(*CATEGORY_IDS)),
              _F("label", S.enum("finding", "pass"))),
    unique=("row", "category"),
    summary="the adjudicated label of a meta-eval row in one category"))
MARK = _declare(S.Decl(
    "mark", (_F("judge", ref=("judge",)), _F("row", ref=("meta-row",)), _F("category", S.enum(*CATEGORY_IDS)),
             _F("mark", S.enum("finding", "pass"))),
    unique=("judge", "row", "category"),
    summary="what a candidate judge marked a meta-eval row in one category (pass 1)"))
LEADING = _declare(S.Decl(
    "leading-group", (_F("size", _positive),), unique=(),
    summary="how many candidates lead by macro-F1 inside one bootstrap interval (the bootstrap is run "
            "outside provlog)"))

#: Conclusions of the advice rulebook: no statement or attribute may set them (E140).
STATEMENTS.derived.update({
    "finding", "self-graded", "self_graded", "panel-mark", "panel_mark", "priority", "row-priority",
    "row_priority",
    # pass 1 and the leaderboard's statistics
    "f1", "macro-f1", "macro_f1", "confusion", "eligible", "seat-unfit", "seat_unfit", "prompt-gap", "prompt_gap",
    "pass-rate", "pass_rate", "row-rate", "row_rate", "spread", "differs", "provider-gap", "provider_gap",
})
