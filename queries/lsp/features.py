"""Completion: what may be written where the cursor stands, from the declarations (facts/schema.py
knows what each position of each statement takes): a keyword at a statement's start; at a
position that names an id, the ids of the kinds it takes; at ``key=``, the attribute's enumerated
values (``status=``, ``tier=``, ``lane=``, policy kinds) or its ids; after the positional words,
the attribute names and flags.

    >>> [c for c, _ in complete_at('stake ', [], lambda kinds: [("evalco", "org")])]
    ['evalco']
    >>> [c for c, _ in complete_at('source s1 "T" status=', [], lambda kinds: [])]
    ['confirmed', 'unaudited', 'imported', 'unverifiable']
"""
from __future__ import annotations

from typing import Callable, List, Tuple

from ...facts import schema as S
from ...facts.language import LANGUAGE
from ...grammar.parser import tokens

#: ``(label, detail)``: what a completion offers
Item = Tuple[str, str]


def _choices(fld: S.Field) -> Tuple[str, ...]:
    return getattr(fld.parse, "choices", ())


def _for_field(fld: S.Field, ids: Callable) -> List[Item]:
    if fld.ref:
        return [(ident, kind) for ident, kind in ids(fld.ref)]
    if fld.name == "rule":
        return []
    return [(c, fld.name) for c in _choices(fld)]


def complete_at(prefix: str, above: List[str], ids: Callable[[Tuple[str, ...]], List[Tuple[str, str]]]) -> List[Item]:
    """Completions for the text ``prefix`` of a line before the cursor; ``above``: the lines above it
    (an indented line continues a statement); ``ids(kinds)``: the world's ids of those kinds."""
    text = prefix
    if prefix[:1] in (" ", "\t"):  # a continuation: the statement starts on the last line at column 1
        start = next((ln for ln in reversed(above) if ln[:1] not in ("", " ", "\t", "#")), "")
        text = start + " " + prefix
    toks = [(k, t) for k, _, t in tokens(text) if k not in ("WS", "COMMENT")]
    typing = bool(text) and text[-1] not in " \t="
    if typing and toks:
        toks = toks[:-1]  # the word being typed is what is completed
    if not toks:
        return [(kw, d.summary) for kw, d in sorted(LANGUAGE.decls.items())]
    decl = LANGUAGE.decls.get(toks[0][1])
    if decl is None:
        return []
    if toks[-1][0] == "KEY" or (len(toks) > 1 and toks[-1][0] == "COMMA"):
        key = next(t[:-1] for k, t in reversed(toks) if k == "KEY")
        if key == "src" and decl.evidence:
            return [(ident, kind) for ident, kind in ids(("source",))]
        fld = decl.attrs.get(key)
        return _for_field(fld, ids) if fld is not None else []
    words = sum(1 for k, _ in toks[1:] if k in ("WORD", "STRING")) - _pair_values(toks)
    if words < len(decl.positional):
        return _for_field(decl.positional[words], ids)
    out = [(f"{name}=", "attribute") for name in decl.attrs]
    if decl.evidence:
        out += [("src=", "the sources it rests on"), ("span=", "the words that state it")]
    return out + [(flag, "flag") for flag in sorted(decl.flags)]


def _pair_values(toks) -> int:
    """How many of the words are values of ``key=`` attributes (not positional)."""
    n, in_pair = 0, False
    for k, _ in toks[1:]:
        if k == "KEY":
            in_pair = True
        elif k == "COMMA":
            in_pair = True  # a comma list: the next word is the attribute's too
        elif k in ("WORD", "STRING") and in_pair:
            n += 1
            in_pair = False
        else:
            in_pair = False
    return n
