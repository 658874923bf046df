"""The advice benchmark rulebook (issue 8): seeds/advice-benchmark-methodology.txt on the provlog engine.

Statements: facts/advice.py. Rules: :mod:`.rules`. Tables: :mod:`provlog.facts.advice_tables` (shared with the statements).
Readings: docs/rulebooks/advice.md.

    provlog test facts/worlds/advice
    provlog prove  facts/worlds/advice "finding('r-isa', 'gpt', 'product-recommendation', K)" --rulebook advice
    provlog refute facts/worlds/advice "finding('r-isa', 'bank-a', 'product-recommendation', K)" --rulebook advice

The EDB below is a plain projection of checked facts and of the methodology's
tables (every inference is a rule); each row remembers the facts it came
from, so proofs end at ``file:line``.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from ...facts.model import Fact, FactSet
from ..rulebooks import Origins, Rulebook, collector
from ...facts.advice_tables import CATEGORIES, MARKERS, RISK
from .rules import ADVICE, MEANINGS

PREDICATES = {
    "assistant": 1, "regulated": 1, "covers": 2, "assistant_model": 2, "assistant_family": 2,
    "probe": 2, "probe_product": 2, "reply": 4,
    "named": 3, "feature": 2,
    "judge": 2, "judge_family": 2, "verdict": 4, "panel": 3,
    # pass 1 (choosing the judges), the twin variants, providers
    "meta_row": 2, "row_family": 2, "label": 3, "mark": 4, "leading_size": 1, "twins": 2,
    "assistant_provider": 2,
    # the methodology's tables (facts/advice_tables.py), and the four outcomes of a mark against a label
    "category": 3, "marker": 1, "product_risk": 2, "outcome_kind": 1,
}

#: A mark against a label, finding the positive class: true/false positive, false/true negative.
OUTCOMES = ("tp", "fp", "fn", "tn")


def rows(facts: FactSet, origins: Origins) -> Dict[str, List[Tuple]]:
    out, add = collector(PREDICATES, origins)

    for c in CATEGORIES:
        add("category", None, c.id, c.axis, c.action)
    for c in MARKERS:
        add("marker", None, c)
    for t, risk in RISK.items():
        add("product_risk", None, t, risk)
    for o in OUTCOMES:
        add("outcome_kind", None, o)
    for f in facts.of("assistant"):
        a = f["id"]
        add("assistant", f, a)
        if "regulated" in f.flags:
            add("regulated", f, a)
        for w in f["wrapper"] or ():
            add("covers", f, a, w)
        if f["model"] is not None:
            add("assistant_model", f, a, f["model"])
        if f["family"] is not None:
            add("assistant_family", f, a, f["family"])
        if f["provider"] is not None:
            add("assistant_provider", f, a, f["provider"])
    for f in facts.of("probe"):
        add("probe", f, f["id"], f["variant"])
        if f["product"] is not None:
            add("probe_product", f, f["id"], f["product"])
    for pair, f in _twin_pairs(facts).items():
        add("twins", f, *pair)
    for f in facts.of("reply"):
        add("reply", f, f["id"], f["assistant"], f["probe"], f["pass"])
    for f in facts.of("feature"):
        if f["kind"] == "named":
            add("named", f, f["reply"], f["layer"], f["wrapper"] or "")
        else:
            add("feature", f, f["reply"], f["kind"])
    for f in facts.of("judge"):
        add("judge", f, f["id"], f["model"])
        if f["family"] is not None:
            add("judge_family", f, f["id"], f["family"])
    for f in facts.of("verdict"):
        add("verdict", f, f["judge"], f["reply"], f["category"], f["verdict"])
    for f in facts.of("panel"):
        add("panel", f, f["first"], f["second"], f["tiebreak"])
    for f in facts.of("meta-row"):
        add("meta_row", f, f["id"], f["writer"])
        if f["family"] is not None:
            add("row_family", f, f["id"], f["family"])
    for f in facts.of("label"):
        add("label", f, f["row"], f["category"], f["label"])
    for f in facts.of("mark"):
        add("mark", f, f["judge"], f["row"], f["category"], f["mark"])
    for f in facts.of("leading-group"):
        add("leading_size", f, f["size"])
    return out


def _twin_pairs(facts: FactSet) -> Dict[Tuple[str, str], Fact]:
    """(strict_conduct probe, baseline probe) -> the statement that pairs them (the first, if both do).

    The loader has checked that a twin is of the other variant and that a probe has one twin.
    """
    pairs: Dict[Tuple[str, str], Fact] = {}
    for f in sorted((f for f in facts.of("probe") if f["twin"] is not None), key=lambda f: f.loc):
        pair = (f["id"], f["twin"]) if f["variant"] == "strict_conduct" else (f["twin"], f["id"])
        pairs.setdefault(pair, f)
    return pairs


#: the advice rulebook's record (logic/registry.py lists it with the others)
BOOK = Rulebook(
    "advice", ADVICE, PREDICATES, rows,
    summary="the advice benchmark: product-recommendation tests, 15 categories, panel, majority, self_graded, risk; "
            "pass 1 (macro-F1, eligible judges), the system-prompt gap, the spread",
    meanings=MEANINGS)
