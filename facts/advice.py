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

``regulated`` says the assistant holds a regulatory permission; ``wrapper=``
names the wrapper(s) that permission covers (required with ``regulated``,
refused without it). ``product=`` is one of the product types of the risk
table. A ``reply`` without ``pass=`` is pass 1; one reply per assistant,
probe and pass. A judge marks a reply once per category. Every statement may
carry ``src=`` and ``span="..."`` as in the core language.

Nothing here decides anything: findings, their clause, routing, the panel's
mark, the majority, ``self_graded`` and priority are derived by
logic/advice/rules.py, and no statement may set them (:data:`DERIVED`, E140).
"""
from __future__ import annotations

from typing import Dict, FrozenSet, List, Optional, Tuple

from ..logic.advice.categories import CATEGORY_IDS, CLAIMS, LAYERS, MARKERS, PRODUCT_TYPES, TESTED
from . import schema as S
from . import values as V

_F, _opt = S.Field, S.opt
Problems = List[Tuple[Optional[str], str, str]]


def _model_id(text: str) -> str:
    """An exact model id, compared character for character (the self_graded flag matches it)."""
    if not text.strip():
        raise V.ValueError_("a model id is the exact id, not empty")
    if text != text.strip():
        raise V.ValueError_(f"a model id is compared exactly; drop the spaces around {V.show(text)}")
    return text


def _pass_number(text: str) -> int:
    n = V.parse_int(text)
    if n < 1:
        raise V.ValueError_("passes are numbered from 1")
    return n


FEATURE_KINDS = ("named",) + CLAIMS + MARKERS


def _feature_kind(text: str) -> str:
    if text == TESTED:
        raise V.ValueError_(
            "product-recommendation is not labelled: PR.1 and PR.2 decide it from the labelled "
            "named, opinion, suitability and steer features")
    if text not in FEATURE_KINDS:
        raise V.ValueError_(f"expected a feature: named, {', '.join(CLAIMS)}, or a category marker "
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


def _check_panel(values: Dict, flags: FrozenSet[str]) -> Problems:
    first, second, tiebreak = values["first"], values["second"], values["tiebreak"]
    if first == second:
        return [("second", "E104", f"the panel's two seats are two judges; {first} sits twice")]
    if tiebreak in (first, second):
        return [("tiebreak", "E104", f"the tiebreak decides where the two seats split, so it is a third "
                                     f"judge; {tiebreak} already has a seat")]
    return []


WRAPPER = S.declare(S.Decl(
    "wrapper", (_F("id"), _F("name", S._text, quoted=True)), declares="wrapper",
    summary="a wrapper or account type (a stocks and shares ISA, a SIPP)"))
ASSISTANT = S.declare(S.Decl(
    "assistant", (_F("id"), _F("name", S._text, quoted=True)), declares="assistant",
    flags=frozenset({"regulated"}), attrs=S._attrs(
        _opt("wrapper", ref=("wrapper",), many=True), _opt("model", _model_id, quoted=True), _opt("family")),
    check=_check_assistant,
    summary="an assistant under test; regulated: it holds a permission covering wrapper="))
PROBE = S.declare(S.Decl(
    "probe", (_F("id"),), declares="probe", attrs=S._attrs(
        _F("variant", S.enum("strict_conduct", "baseline")), _opt("product", S.enum(*PRODUCT_TYPES)),
        _opt("text", S._text, quoted=True)),
    summary="a first-turn benchmark probe, its system-prompt variant and the product type it concerns"))
REPLY = S.declare(S.Decl(
    "reply", (_F("id"), _F("assistant", ref=("assistant",)), _F("probe", ref=("probe",))), declares="reply",
    attrs=S._attrs(_opt("pass", _pass_number), _opt("text", S._text, quoted=True)),
    check=_check_reply, unique=("assistant", "probe", "pass"),
    summary="the reply an assistant wrote to a probe on one pass"))
FEATURE = S.declare(S.Decl(
    "feature", (_F("reply", ref=("reply",)), _F("kind", _feature_kind)), attrs=S._attrs(
        _opt("layer", S.enum(*LAYERS)), _opt("wrapper", ref=("wrapper",))),
    check=_check_feature,
    summary="a labelled feature of a reply: what it names, its claims, a category's marker"))
JUDGE = S.declare(S.Decl(
    "judge", (_F("id"), _F("model", _model_id, quoted=True)), declares="judge", attrs=S._attrs(_opt("family")),
    summary="a judge model, by its exact model id"))
VERDICT = S.declare(S.Decl(
    "verdict", (_F("judge", ref=("judge",)), _F("reply", ref=("reply",)), _F("category", S.enum(*CATEGORY_IDS)),
                _F("verdict", S.enum("finding", "pass"))),
    unique=("judge", "reply", "category"),
    summary="what a judge marked a reply in one category"))
PANEL = S.declare(S.Decl(
    "panel", (_F("first", ref=("judge",)), _F("second", ref=("judge",))),
    attrs=S._attrs(_F("tiebreak", ref=("judge",))), check=_check_panel, unique=(),
    summary="the panel that grades the leaderboard: two seats and a tiebreak"))

#: Conclusions of the advice rulebook: no statement or attribute may set them (E140).
S.DERIVED.update({
    "finding", "self-graded", "self_graded", "panel-mark", "panel_mark", "priority", "row-priority",
    "row_priority",
})
