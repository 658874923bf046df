"""Proof graphs: why a derived fact holds, walked from the rules' bodies.

A proof is a networkx DiGraph whose nodes carry ``kind`` (value, derived,
aggregate, fact, derived-signal, absent, condition, excluded, given; why.py
adds bound and clamp), ``label`` (the rule's template filled with its
bindings), ``rule`` (the clause id) and ``loc`` (``file:line`` of a fact). A
node proved by a rule also carries ``text`` (the rule) and ``bindings`` (its
variables' values): its body holds under them, with one child per positive
atom. Conditions that only assemble a proof (``(Fs == (F,))``, counters) are
not shown. Edges run from a conclusion to what it rests on. Shared sub-proofs
appear once; among the rules that derive a fact, the one with the smallest
proof is shown.

    >>> g = Explainer(derivation).prove_atom("effective", ("sg1", "standard", "cap", 2))  # doctest: +SKIP
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import networkx as nx

from ..logic import RULEBOOK, Derivation
from ..logic.syntax import Atom, FuncEq, Negated, Var, solve_compare, variables_needed
from ..logic.edb import PREDICATES

_FREE = object()

#: What a relation means, for "absent" nodes (a failed negation) and headings.
MEANING = {
    "span_confirmed": "quotes no span from a confirmed source (C15)",
    "c16_ok": "fails C16: it needs a quoted span, and a tier 1-2 source or two publishers",
    "f12_ok": "is not a negative with a tier-1 source and an independent second source (F.12)",
    "x7_ok": "is not a negative with a span and a second source (X.7)",
    "has_unconfirmed": "cites no source that is not confirmed",
    "self_favour": "cites none of its org's own pages in its favour (C17: against-interest drops nothing)",
    "has_confirmed": "cites no confirmed source",
    "has_unaudited": "cites no unaudited source",
    "admission": "is not an admission against interest",
    "org_page": "is not published by an org",
    "four_held": "has no clause holding its floor 4",
    "held9": "is not held by section 9",
    "is_resolved": "has no resolution in range",
    "has_cap": "has no admissible cap",
    "statutory_gov": "is not a public body with statutory powers",
    "seat_recused": "has no personal recusal",
    "fee_lifted": "lacks the three fee policies of F.3",
    "share_known": "states no share",
    "share_over": "has no share above the threshold",
    "unusable": "is not quarantined, and its lane is neither rejected nor pending",
    "band_zero": "has no evidenced 0 on F G P X S R",
    "band_one": "has no evidenced 1 on F G P X S R",
    "third_party_cited": "cites no usable source published by someone other than the org (PL.1)",
    "has_percentile": "states no percentile",
    "in_scoring_lane": "is not in a scoring lane (verified with its fingerprint, or reported and approved)",
    "catalogued": "names no catalog source",
    "catalog_scores": "has no catalog source in the verified or reported lane",
    "usable_cited": "cites no usable source",
    "unusable_only": "cites a usable source, or none at all",
    "scoring_valid": "is not scoring-valid (PL.3, Phase 2B)",
    "dated": "has no run-at date",
}


#: Rows the program asserts itself (no statement of the world states them), as people read them.
GIVEN = {
    ("view", ("leads-included", "all")): "leads-included reads every usable citation (view all)",
    ("view", ("standard", "all")): "standard reads every usable citation (view all)",
    ("view", ("verified-spans", "all")): "verified-spans reads every usable citation (view all)",
    ("view", ("primary-only", "all")): "primary-only reads every usable citation (view all)",
    ("view", ("against-interest", "ai")): "against-interest drops the org's own sources from for-signals (view ai)",
}

_PARSED: List = []


def _parsed_rules(book=RULEBOOK) -> Dict[str, List[Tuple]]:
    """A rule book, parsed once: head name -> [(rule, head, body)]."""
    for b, rules in _PARSED:
        if b is book:
            return rules
    rules = {}
    for r in book.rules:
        rules.setdefault(r.head_literal.name, []).append((r, r.head_literal, r.body_literals))
    _PARSED.append((book, rules))
    return rules


def _plain(v) -> str:
    if isinstance(v, Fraction):
        p = v * 100
        return f"{p.numerator}%" if p.denominator == 1 else f"{float(p):.4g}%"
    if isinstance(v, tuple):
        return "(" + ", ".join(_plain(x) for x in v) + ")"
    return str(v)


_TOKEN = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")
_FRACTION = re.compile(r"Fraction\((\d+), (\d+)\)")
#: Variables that only assemble a proof (fact-id tuples, chain paths, counters).
_BOOKKEEPING = re.compile(r"(Fs|Path|N)\d*\Z")


def condition_text(expr: str, env: Dict) -> str:
    """A comparison of a rule body with its variables replaced by their values, as people read them."""
    shown = _TOKEN.sub(lambda m: _plain(env[m.group()]) if m.group() in env else m.group(), expr)
    shown = _FRACTION.sub(lambda m: _plain(Fraction(int(m.group(1)), int(m.group(2)))), shown)
    if shown.startswith("(") and shown.endswith(")"):
        shown = shown[1:-1]
    return shown


def atom_id(name: str, row: Sequence) -> str:
    return f"{name}({', '.join(_plain(v) if not isinstance(v, str) else v for v in row)})"


class _Fill(dict):
    def __missing__(self, key):
        return "{" + key + "}"


class Explainer:
    """Builds proof graphs over one world's derivation."""

    def __init__(self, derivation: Derivation):
        self.d = derivation
        self.facts = derivation.facts
        # The core Derivation, or a RulebookRun of another rulebook (logic/rulebooks.py).
        self.rules = _parsed_rules(getattr(derivation, "rules", RULEBOOK))
        self.edb = getattr(derivation, "edb", None) or set(PREDICATES)
        # plain relations that read an aggregate once (cap_decided <= cap_decider): their answers serve both
        self._reads = {body[0].name: head.name for rules in self.rules.values() for _, head, body in rules
                       if len(body) == 1 and isinstance(body[0], FuncEq) and isinstance(head, Atom)
                       and head.args == body[0].args + (body[0].value,)}
        # What every explainer of this derivation shares (facts by id)
        self._shared: Dict[str, Dict] = derivation.__dict__.setdefault("_explain_rows", {})
        self.graph = nx.DiGraph()
        self._size: Dict[str, int] = {}
        self._busy: set = set()

    # -- asking the engine, with constants bound where pyDatalog can read them ------------------------
    def rows(self, name: str, pattern: Sequence, func: bool = False) -> List[Tuple]:
        """Rows of ``name`` matching ``pattern`` (``_FREE`` matches anything), through the program's
        indexes (logic/engine.py: facts, kept answers, or a relation asked of the engine once)."""
        bound = [(i, p) for i, p in enumerate(pattern) if p is not _FREE]
        table = self._reads.get(name) if func else None
        if table is not None and table in self.d.program.tables:  # a plain relation that reads the aggregate
            found = self.d.program.match(table, len(pattern), bound)
        else:
            found = self.d.program.match(name, len(pattern), bound, function=func)
        return sorted(found, key=repr)  # deterministic: the first proof does not depend on fact order

    # -- evaluating a body ------------------------------------------------------------------------------
    def _value(self, arg, env: Dict):
        if isinstance(arg, Var):
            return env.get(arg.name, _FREE)
        return arg.value

    def _match(self, args, row, env) -> Optional[Dict]:
        env = dict(env)
        for a, v in zip(args, row):
            if isinstance(a, Var):
                if a.name in env and env[a.name] != v:
                    return None
                env[a.name] = v
            elif a.value != v:
                return None
        return env

    def _next(self, body, env: Dict) -> int:
        """Which literal of ``body`` to solve next: a test whose variables are bound, else the atom
        with the most arguments bound to values found so far (ids narrow a lookup more than constants
        like 'cap' do); the engine's order suits evaluation from nothing, not a lookup from a root."""
        best, most = 0, (-1, -1)
        for i, lit in enumerate(body):
            if not isinstance(lit, (Atom, FuncEq)):  # a test: a comparison or a negation
                if all(v in env for v in variables_needed(lit, env)):
                    return i
            else:
                args = lit.args + (lit.value,) if isinstance(lit, FuncEq) else lit.args
                score = (sum(1 for a in args if isinstance(a, Var) and a.name in env),
                         sum(1 for a in args if not isinstance(a, Var)))
                if score > most:
                    best, most = i, score
        return best

    def solve(self, body, env: Dict) -> Iterator[Dict]:
        if not body:
            yield env
            return
        i = self._next(body, env) if len(body) > 1 else 0
        lit, rest = body[i], body[:i] + body[i + 1:]
        if isinstance(lit, Negated):
            if not self.rows(lit.name, [self._value(a, env) for a in lit.args]):
                yield from self.solve(rest, env)
        elif isinstance(lit, Atom):
            for row in self.rows(lit.name, [self._value(a, env) for a in lit.args]):
                e = self._match(lit.args, row, env)
                if e is not None:
                    yield from self.solve(rest, e)
        elif isinstance(lit, FuncEq):
            pattern = [self._value(a, env) for a in lit.args + (lit.value,)]
            for row in self.rows(lit.name, pattern, func=True):
                e = self._match(lit.args + (lit.value,), row, env)
                if e is not None:
                    yield from self.solve(rest, e)
        else:
            e = solve_compare(lit, env)
            if e is not None:
                yield from self.solve(rest, e)

    # -- proofs -------------------------------------------------------------------------------------------
    def _add(self, nid: str, **attrs) -> str:
        if nid not in self.graph:
            attrs.setdefault("rule", None)
            attrs.setdefault("loc", None)
            self.graph.add_node(nid, **attrs)
        return nid

    def prove_atom(self, name: str, row: Tuple) -> str:
        """The node proving ``name(*row)`` (which must hold), with its sub-proof."""
        nid = atom_id(name, row)
        if nid in self.graph:
            return nid
        if name in self.edb:
            return self._leaf(name, row, nid)
        best = None
        self._busy.add(nid)
        for rule, head, body in self.rules.get(name, []):
            if not isinstance(head, Atom):
                continue
            env = self._match(head.args, row, {})
            if env is None:
                continue
            for sol in self.solve(body, env):
                if any(atom_id(l.name, [self._value(a, sol) for a in l.args]) in self._busy
                       for l in body if isinstance(l, Atom)):
                    continue
                best = self._pick(best, rule, body, sol)
                break
        self._busy.discard(nid)
        if best is None:  # pragma: no cover - a fact the engine derived must have a proof
            return self._add(nid, kind="derived", label=nid)
        rule, body, sol, children = best
        label = rule.template.format_map(_Fill({k: _plain(v) for k, v in sol.items()})) if rule.template else nid
        self._add(nid, kind="derived", label=label, rule=rule.clause, bindings=dict(sol),
                  text=rule.text)
        for c in children:
            self.graph.add_edge(nid, c)
        self._size[nid] = 1 + sum(self._size.get(c, 1) for c in children)
        return nid

    def _pick(self, best, rule, body, sol):
        children = [c for c in (self._child(l, sol) for l in body) if c is not None]
        size = sum(self._size.get(c, 1) for c in children)
        if best is None or size < sum(self._size.get(c, 1) for c in best[3]):
            return (rule, body, sol, children)
        return best

    def _child(self, lit, env) -> str:
        if isinstance(lit, (Atom, Negated)):
            row = tuple(self._value(a, env) for a in lit.args)
            if lit.negated:
                nid = "not " + atom_id(lit.name, row)
                said = getattr(getattr(self.d, "book", None), "meanings", None) or {}  # a rulebook's own phrasing
                if lit.name in said:
                    text = said[lit.name][1]
                    shown = [_plain(v) for v in row]
                    return self._add(nid, kind="absent", label=text(*shown) if callable(text) else text.format(*shown))
                meaning = MEANING.get(lit.name, f"no {lit.name} holds")
                return self._add(nid, kind="absent", label=f"{_plain(row[0])} {meaning}" if row else meaning)
            return self.prove_atom(lit.name, row)
        if isinstance(lit, FuncEq):
            args = tuple(self._value(a, env) for a in lit.args)
            return self.prove_function(lit.name, args, self._value(lit.value, env))
        names = set(lit.variables()) & set(env)
        nid = f"cond {lit.text} {sorted((k, repr(env[k])) for k in names)}"
        if lit.assigns and _BOOKKEEPING.match(lit.assigns):
            return None  # (Fs == (F,)), (N == N1 + 1): how a proof is assembled, not a condition of the rule
        return self._add(nid, kind="condition", label=condition_text(lit.text, env))

    def prove_function(self, name: str, args: Tuple, value) -> str:
        nid = f"{name}[{', '.join(_plain(a) for a in args)}] = {_plain(value)}"
        if nid in self.graph:
            return nid
        rule, head, body = next((r, h, b) for r, h, b in self.rules[name] if isinstance(h, FuncEq))
        env = self._match(head.args, args, {})
        self._add(nid, kind="aggregate", label=rule.template.format_map(_Fill({k: _plain(v) for k, v in env.items()}))
                  + f": {_plain(value)}", rule=rule.clause, text=rule.text)
        kids = []
        for sol in self.solve(body, env):
            atoms = [l for l in body if isinstance(l, Atom)]
            for l in atoms[:1]:
                kids.append(self.prove_atom(l.name, tuple(self._value(a, sol) for a in l.args)))
            if len(kids) >= 24:
                break
        for c in kids:
            self.graph.add_edge(nid, c)
        self._size[nid] = 1 + len(kids)
        return nid

    def _leaf(self, name: str, row: Tuple, nid: str) -> str:
        first = row[0] if row else None
        if name in ("signal", "stated", "status", "signal_rule", "precedence", "cites") and first in self.d.derived:
            return self.prove_derived_signal(first)
        facts = self.d.origins.get((name, row), [])
        if not facts:
            return self._add(nid, kind="given", label=GIVEN.get((name, row), nid))
        f = facts[0]
        return self._add(f"fact {f.fid}", kind="fact", label=statement_text(f), loc=str(f.loc),
                         sources=self.source_info(f))

    def prove_derived_signal(self, sid: str) -> str:
        nid = f"derived signal {sid}"
        if nid in self.graph:
            return nid
        ds = self.d.derived[sid]
        self._add(nid, kind="derived-signal", rule=ds.rule,
                  label=f"{sid}: {ds.direction} {ds.kind} {ds.bound} on {ds.org} {ds.dim} by {ds.rule}, citing "
                        + (", ".join(f"{s}" + (f' "{sp}"' if sp else "") for s, sp in ds.cites) or "nothing"))
        self.graph.add_edge(nid, self.prove_atom("derive", self.d.derived_rows[sid]))
        by_id = self._shared.get("facts by id")
        if by_id is None:
            by_id = self._shared["facts by id"] = {f.fid: f for f in self.facts}
        for fid in ds.facts:
            f = by_id[fid]
            leaf = self._add(f"fact {f.fid}", kind="fact", label=statement_text(f), loc=str(f.loc),
                             sources=self.source_info(f))
            self.graph.add_edge(nid, leaf)
        self._size[nid] = len(self.graph.nodes)  # derived signals are large; prefer recorded proofs
        return nid

    def fact_node(self, f) -> str:
        """The leaf of one loaded statement, with the status, tier and span of each source it cites."""
        return self._add(f"fact {f.fid}", kind="fact", label=statement_text(f), loc=str(f.loc),
                         sources=self.source_info(f))

    def source_info(self, fact) -> List[Dict]:
        ids = list(fact.src)
        span = fact.span
        if fact.kind == "cite":
            ids, span = [fact["source"]], fact["span"]
        out = []
        for s in ids:
            src = self.facts.sources.get(s)
            if src is not None:
                out.append({"id": s, "publisher": src["publisher"], "status": src["status"],
                            "tier": int(src["tier"]) if src["tier"] else None, "lane": src["lane"],
                            "quarantined": "quarantined" in src.flags, "span": span, "loc": str(src.loc)})
        return out


def statement_text(f) -> str:
    """A fact as a curator would write it: keyword, positional values, flags, attributes."""
    from ..facts.schema import DECLS

    decl = DECLS.get(f.kind)
    names = [p.name for p in decl.positional] if decl else []
    parts = [f.kind]
    for n in names:
        v = f[n]
        parts.append(f'"{v}"' if n in ("name", "title", "persona") else str(v))
    if f.kind == "signal":
        parts.append(f["kind"] if f["kind"] == "info" else f"{f['kind']} {f['bound']}")
    if f.kind == "cite" and f["span"]:
        parts.append(f'"{f["span"]}"')
    parts += sorted(f.flags)
    for k, v in f.values.items():
        if k.startswith("_") or k in names or v is None or k in ("kind", "bound", "span") and f.kind in ("signal", "cite"):
            continue
        if isinstance(v, tuple):
            v = ",".join(str(x) for x in v)
        parts.append(f'{k}="{v}"' if k in ("note", "attestor", "approved-by") else f"{k}={v}")
    if f.src:
        parts.append("src=" + ",".join(f.src))
    if f.span:
        parts.append(f'span="{f.span}"')
    return " ".join(parts)
