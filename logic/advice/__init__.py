"""The advice benchmark rulebook (issue 8): seeds/advice-benchmark-methodology.txt on the provlog engine.

Statements: facts/advice.py. Rules: :mod:`.rules`. Tables: :mod:`.categories`.
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
from ..rulebooks import Rulebook, collector, register
from .categories import CATEGORIES, MARKERS, RISK
from .rules import ADVICE, MEANINGS

PREDICATES = {
    "assistant": 1, "regulated": 1, "covers": 2, "assistant_model": 2, "assistant_family": 2,
    "probe": 2, "probe_product": 2, "reply": 4,
    "named": 3, "feature": 2,
    "judge": 2, "judge_family": 2, "verdict": 4, "panel": 3,
    # the methodology's tables (categories.py)
    "category": 3, "marker": 1, "product_risk": 2,
}


def rows(facts: FactSet, origins: Dict[Tuple[str, Tuple], List[Fact]]) -> Dict[str, List[Tuple]]:
    out, add = collector(PREDICATES, origins)

    for c in CATEGORIES:
        add("category", None, c.id, c.axis, c.action)
    for c in MARKERS:
        add("marker", None, c)
    for t, risk in RISK.items():
        add("product_risk", None, t, risk)
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
    for f in facts.of("probe"):
        add("probe", f, f["id"], f["variant"])
        if f["product"] is not None:
            add("probe_product", f, f["id"], f["product"])
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
    return out


BOOK = register(Rulebook(
    "advice", ADVICE, PREDICATES, rows,
    summary="the advice benchmark: product-recommendation tests, 15 categories, panel, majority, self_graded, risk",
    meanings=MEANINGS))
