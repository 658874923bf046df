"""Proof graphs: why a derived fact holds, walked from the rules' bodies.

A proof is a networkx DiGraph whose nodes carry ``kind`` (value, derived,
aggregate, fact, derived-signal, absent, condition, excluded), ``label`` (the
rule's template filled with its bindings), ``rule`` (the clause id) and
``loc`` (``file:line`` of a fact). Edges run from a conclusion to what it
rests on. Shared sub-proofs appear once; among the rules that derive a fact,
the one with the smallest proof is shown.

    >>> g = Explainer(derivation).prove_atom("effective", ("sg1", "standard", "cap", 2))  # doctest: +SKIP
"""
from __future__ import annotations

from fractions import Fraction
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

import networkx as nx

from ..logic import RULEBOOK, Derivation
from ..logic.edb import PREDICATES, VIEWS
from .clauses import Atom, Compare, FuncEq, is_var, parse_rule

_FREE = object()
_EVAL_NS = {"Fraction": Fraction, "__builtins__": {}}

#: What a relation means, for "absent" nodes (a failed negation) and headings.
MEANING = {
    "span_confirmed": "quotes no span from a confirmed source (C15)",
    "c16_ok": "has no span with a tier 1-2 source or two publishers (C16)",
    "f12_ok": "is not a negative with a tier-1 source and an independent second source (F.12)",
    "x7_ok": "is not a negative with a span and a second source (X.7)",
    "has_unconfirmed": "cites no source that is not confirmed",
    "has_confirmed": "cites no confirmed source",
    "has_unaudited": "cites no unaudited source",
    "admission": "is not an admission against interest",
    "four_held": "has no clause holding its floor 4",
    "held9": "is not held by section 9",
    "is_resolved": "has no resolution in range",
    "has_cap": "has no admissible cap",
    "statutory_gov": "is not a public body with statutory powers",
    "seat_recused": "has no personal recusal",
    "fee_lifted": "lacks the three fee policies of F.3",
    "share_known": "states no share",
    "share_over": "has no share above the threshold",
    "unusable": "is usable (not quarantined, lane not rejected or pending)",
    "band_zero": "has no evidenced 0 on F G P X S R",
    "band_one": "has no evidenced 1 on F G P X S R",
}


def _plain(v) -> str:
    if isinstance(v, Fraction):
        p = v * 100
        return f"{p.numerator}%" if p.denominator == 1 else f"{float(p):.4g}%"
    if isinstance(v, tuple):
        return "(" + ", ".join(_plain(x) for x in v) + ")"
    return str(v)


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
        self.rules: Dict[str, List[Tuple]] = {}
        for r in RULEBOOK.rules:
            head, body = parse_rule(r.text)
            self.rules.setdefault(head.name, []).append((r, head, body))
        self._rows: Dict[Tuple, List[Tuple]] = {}
        self.graph = nx.DiGraph()
        self._size: Dict[str, int] = {}
        self._busy: set = set()

    # -- asking the engine, with constants bound where pyDatalog can read them ------------------------
    def rows(self, name: str, pattern: Sequence, func: bool = False) -> List[Tuple]:
        key = (name, func, tuple(p if isinstance(p, (str, int)) and p is not _FREE else "?" for p in pattern))
        if key not in self._rows:
            terms = []
            for i, p in enumerate(pattern):
                if p is not _FREE and isinstance(p, str) and "'" not in p and "\\" not in p:
                    terms.append(repr(p))
                elif p is not _FREE and isinstance(p, int) and not isinstance(p, bool):
                    terms.append(str(p))
                else:
                    terms.append(f"V{i}")
            if func:
                goal = f"{name}[{', '.join(terms[:-1])}] == {terms[-1]}"
            else:
                goal = f"{name}({', '.join(terms)})"
            answers = self.d.program.ask(goal)
            free = [i for i, t in enumerate(terms) if t.startswith("V")]
            full = []
            for ans in answers:
                row = list(pattern)
                for i, v in zip(free, ans):
                    row[i] = v
                full.append(tuple(row))
            self._rows[key] = sorted(full, key=repr)
        return [r for r in self._rows[key]
                if all(p is _FREE or p == v for p, v in zip(pattern, r))]

    # -- evaluating a body ------------------------------------------------------------------------------
    def _value(self, arg: str, env: Dict):
        if is_var(arg):
            return env.get(arg, _FREE)
        return eval(arg, _EVAL_NS)  # a constant written in our own rules

    def _match(self, args, row, env) -> Optional[Dict]:
        env = dict(env)
        for a, v in zip(args, row):
            if is_var(a):
                if a in env and env[a] != v:
                    return None
                env[a] = v
            elif eval(a, _EVAL_NS) != v:
                return None
        return env

    def solve(self, body, env: Dict) -> Iterator[Dict]:
        if not body:
            yield env
            return
        lit, rest = body[0], body[1:]
        if isinstance(lit, Atom):
            pattern = [self._value(a, env) for a in lit.args]
            found = self.rows(lit.name, pattern)
            if lit.negated:
                if not found:
                    yield from self.solve(rest, env)
                return
            for row in found:
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
            if lit.assigns and lit.assigns not in env:
                e = dict(env)
                e[lit.assigns] = eval(lit.rhs, _EVAL_NS, dict(env))
                yield from self.solve(rest, e)
            elif eval(lit.expr, _EVAL_NS, dict(env)):
                yield from self.solve(rest, env)

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
        if name in PREDICATES:
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
                       for l in body if isinstance(l, Atom) and not l.negated):
                    continue
                best = self._pick(best, rule, body, sol)
                break
        self._busy.discard(nid)
        if best is None:  # pragma: no cover - a fact the engine derived must have a proof
            return self._add(nid, kind="derived", label=nid)
        rule, body, sol, children = best
        label = rule.template.format_map(_Fill({k: _plain(v) for k, v in sol.items()})) if rule.template else nid
        self._add(nid, kind="derived", label=label, rule=rule.clause, bindings={k: _plain(v) for k, v in sol.items()},
                  text=rule.text)
        for c in children:
            self.graph.add_edge(nid, c)
        self._size[nid] = 1 + sum(self._size.get(c, 1) for c in children)
        return nid

    def _pick(self, best, rule, body, sol):
        children = [self._child(l, sol) for l in body]
        size = sum(self._size.get(c, 1) for c in children)
        if best is None or size < sum(self._size.get(c, 1) for c in best[3]):
            return (rule, body, sol, children)
        return best

    def _child(self, lit, env) -> str:
        if isinstance(lit, Atom):
            row = tuple(self._value(a, env) for a in lit.args)
            if lit.negated:
                nid = "not " + atom_id(lit.name, row)
                meaning = MEANING.get(lit.name, f"no {lit.name} holds")
                return self._add(nid, kind="absent", label=f"{_plain(row[0])} {meaning}" if row else meaning)
            return self.prove_atom(lit.name, row)
        if isinstance(lit, FuncEq):
            args = tuple(self._value(a, env) for a in lit.args)
            return self.prove_function(lit.name, args, self._value(lit.value, env))
        shown = lit.expr
        for k in sorted(env, key=len, reverse=True):
            shown = shown.replace(k, _plain(env[k])) if k in shown else shown
        return self._add(f"cond {lit.expr} {sorted((k, repr(v)) for k, v in env.items() if k in lit.expr)}",
                         kind="condition", label=shown)

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
            atoms = [l for l in body if isinstance(l, Atom) and not l.negated]
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
            return self._add(nid, kind="given", label=nid)
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
        by_id = {f.fid: f for f in self.facts}
        for fid in ds.facts:
            f = by_id[fid]
            leaf = self._add(f"fact {f.fid}", kind="fact", label=statement_text(f), loc=str(f.loc),
                             sources=self.source_info(f))
            self.graph.add_edge(nid, leaf)
        self._size[nid] = len(self.graph.nodes)  # derived signals are large; prefer recorded proofs
        return nid

    def source_info(self, fact) -> List[Dict]:
        ids = list(fact.src)
        span = fact.span
        if fact.kind == "cite":
            ids, span = [fact["source"]], fact["span"]
        out = []
        for s in ids:
            src = self.facts.sources.get(s)
            if src is not None:
                out.append({"id": s, "status": src["status"], "tier": src["tier"], "lane": src["lane"],
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
