"""Proof graphs: why a derived fact holds, walked from the rules' bodies.

A proof is a :class:`~provlog.explain.graph.ProofGraph` whose nodes carry ``kind`` (value, derived,
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
from datetime import date
from fractions import Fraction
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from .graph import ProofGraph

from ..logic import RULES, Derivation
from ..logic.clauses import WORDS
from ..logic.syntax import Atom, FuncEq, Negated, Var, solve_compare, variables_needed

_FREE = object()

_PARSED: List = []


class _Parsed(dict):
    """A rule book's rules by head name, ``[(rule, head, body)]``, each name's parsed when first asked
    for: a proof visits a few dozen relations, and parsing all of a book's rules costs more than it."""

    def __init__(self, book):
        super().__init__()
        self._by: Dict[str, List] = {}
        self._reads: Optional[Dict[str, str]] = None
        for r in book.rules:
            self._by.setdefault(r.head_name, []).append(r)

    def __missing__(self, name):
        if name not in self._by:
            raise KeyError(name)
        got = self[name] = [(r, r.head_literal, r.body_literals) for r in self._by[name]]
        return got

    def get(self, name, default=None):
        return self[name] if name in self._by else default

    def reads(self) -> Dict[str, str]:
        """The plain relations that read an aggregate once (cap_decided <= cap_decider): their answers
        serve both. Found once per book (every explainer asks; a card builds one per informational note)."""
        if self._reads is None:
            self._reads = {body[0].name: head.name for _, head, body in self.single_function_bodies()
                           if isinstance(body[0], FuncEq) and isinstance(head, Atom)
                           and head.args == body[0].args + (body[0].value,)}
        return self._reads

    def single_function_bodies(self) -> List[Tuple]:
        """The parsed rules whose body may be one function literal (no ``&``, a ``[``); found once (every
        Explainer asks, and a card makes one per informational signal)."""
        got = self.__dict__.get("_single")
        if got is None:
            got = self.__dict__["_single"] = [
                t for name, rules in self._by.items() if any("&" not in r.body and "[" in r.body for r in rules)
                for t in self[name] if len(t[2]) == 1]
        return got


def _parsed_rules(book=RULES) -> "_Parsed":
    """A rule book, parsed as needed, once per process: head name -> [(rule, head, body)]."""
    for b, rules in _PARSED:
        if b is book:
            return rules
    rules = _Parsed(book)
    _PARSED.append((book, rules))
    return rules


def _plain(v, percent: bool = True) -> str:
    """A value as the facts write it: a share as a percentage (``25%``), any other exact number as
    a decimal (``0.71``, ``1.4``, ``71``): ``percent`` says which the rule's numbers are.

        >>> _plain(Fraction(1, 4)), _plain(Fraction(7, 5), percent=False), _plain(Fraction(71), percent=False)
        ('25%', '1.4', '71')
    """
    if isinstance(v, Fraction):
        if not percent:
            return str(v.numerator) if v.denominator == 1 else f"{float(v):.4f}".rstrip("0").rstrip(".")
        p = v * 100
        return f"{p.numerator}%" if p.denominator == 1 else f"{float(p):.4g}%"
    if isinstance(v, tuple):
        return "(" + ", ".join(_plain(x, percent) for x in v) + ")"
    return str(v)


_ROW_ID = re.compile(r"[a-z_-]+@.+:\d+\Z")
_EXTREME = re.compile(r"(?:min_|max_)\(([A-Z][A-Za-z0-9_]*)")
_TOKEN = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")
_FRACTION = re.compile(r"Fraction\((\d+)(?:, (\d+))?\)")
#: Variables that only assemble a proof (fact-id tuples, chain paths, counters).
_BOOKKEEPING = re.compile(r"(Fs|Path|N)\d*\Z")


_OPS = {"==": "is", "!=": "differs from", "<=": "is at most", ">=": "is at least", "<": "is below",
        ">": "is above", "in": "is one of", "not in": "is not one of"}
_COMPARE = re.compile(r"\(?\s*(.+?)\s+(==|!=|<=|>=|<|>|not in|in)\s+(.+?)\s*\)?\Z")
#: A condition over counters only ((N1 < 6): a bounded recursion) says nothing about the world.
_COUNTER = re.compile(r"N\d+\Z")


def condition_text(expr: str, env: Dict, words: Optional[Dict[str, str]] = None, show=None) -> str:
    """A comparison of a rule body with its variables replaced by their values, as people read them.

        >>> condition_text("(T <= 2)", {"T": 3})
        'tier 3 is at most 2'
        >>> condition_text("(Sp != '')", {"Sp": ''})
        'a span is quoted'

    ``words`` name the variables (default :data:`WORDS`, the core rules' names; another
    rulebook's variables mean other things, so it passes its own or none). ``show(var, value)``
    writes a value (default :func:`_plain`; an explainer's knows its rule's numbers and dates).
    """
    words = WORDS if words is None else words
    show = show or (lambda var, v: _plain(v))

    def side(text: str) -> str:
        text = text.strip()
        if text in env:
            word = words.get(text)
            return f"{word} {show(text, env[text])}" if word else show(text, env[text])
        shown = _TOKEN.sub(lambda m: show(m.group(), env[m.group()]) if m.group() in env else m.group(), text)
        shown = _FRACTION.sub(lambda m: show(None, Fraction(int(m.group(1)), int(m.group(2) or 1))), shown)
        return shown.replace("'", "")

    m = _COMPARE.match(expr.strip())
    if not m:
        return side(expr.strip()[1:-1] if expr.strip().startswith("(") else expr)
    left, op, right = m.groups()
    if right.strip() == "''" and left.strip() in words:  # an empty string is an absent value
        return f"a {words[left.strip()]} is quoted" if op == "!=" else f"no {words[left.strip()]} is quoted"
    return f"{side(left)} {_OPS[op]} {side(right)}"


def counters_only(lit) -> bool:
    """Whether a comparison tests only recursion counters (hidden from proofs)."""
    names = lit.variables()
    return bool(names) and all(_COUNTER.match(t) for t in names)


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
        # The core Derivation, or a RulebookRun of another rulebook (logic/rulebooks.py): each names
        # its rulebook, whose record says how its variables and numbers read.
        self.rules = _parsed_rules(derivation.rules)
        self.edb = derivation.edb
        self.words = derivation.book.words
        self._percent = derivation.book.percent
        self._dates = derivation.book.dates

        self._reads = self.rules.reads()
        # What every explainer of this derivation shares (facts by id)
        self._shared: Dict[str, Dict] = derivation.__dict__.setdefault("_explain_rows", {})
        self.graph = ProofGraph()
        self._size: Dict[str, int] = {}
        self._busy: set = set()
        self._busy_names: Dict[str, int] = {}  # how many atoms of each relation are in _busy
        self._rows: Dict[tuple, List[Tuple]] = {}  # rows(): (name, pattern, func) -> sorted rows

    def words_for(self, clause: Optional[str]) -> Dict[str, str]:
        """The variable names of a rule of ``clause`` (the lanes' B is a base, not a bound)."""
        return self.words if self._percent(clause) else {}

    def show(self, v, clause: Optional[str] = None, var: Optional[str] = None) -> str:
        """A value bound in a rule of ``clause`` to ``var``, as the facts write it."""
        if var in self._dates and isinstance(v, int) and not isinstance(v, bool):
            return date.fromordinal(v).isoformat()
        if isinstance(v, str) and _ROW_ID.match(v):  # a statement's id (money@w.facts:12): where it is written
            kind, _, loc = v.partition("@")
            return f"the {kind} at {loc}"
        return _plain(v, self._percent(clause))

    # -- asking the engine, with constants bound where pyDatalog can read them ------------------------
    def rows(self, name: str, pattern: Sequence, func: bool = False) -> List[Tuple]:
        """Rows of ``name`` matching ``pattern`` (``_FREE`` matches anything), through the program's
        indexes (logic/engine.py: facts, kept answers, or a relation asked of the engine once).
        Kept per explainer: a proof, and a refutation (goals.py) above all, asks the same lookups
        over and over (a failing join re-reads each source's cites), and the rows never change."""
        key = (name, tuple(pattern), func)
        # a whole relation (nothing bound: a refutation's sample statement) is kept for every explainer
        kept = self._shared if all(p is _FREE for p in pattern) else self._rows
        got = kept.get(key)
        if got is None:
            got = kept[key] = self._lookup(name, pattern, func)
        return got

    def _lookup(self, name: str, pattern: Sequence, func: bool) -> List[Tuple]:
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

    def prove_atom(self, name: str, row: Tuple, clause: Optional[str] = None) -> str:
        """The node proving ``name(*row)`` (which must hold), with its sub-proof."""
        nid = atom_id(name, row)
        if nid in self.graph:
            return nid
        if name in self.edb:
            return self._leaf(name, row, nid, clause)
        best = None
        self._busy.add(nid)
        busy = self._busy_names
        busy[name] = busy.get(name, 0) + 1
        for rule, head, body in self.rules.get(name, []):
            if not isinstance(head, Atom):
                continue
            env = self._match(head.args, row, {})
            if env is None:
                continue
            for sol in self.solve(body, env):
                # an atom being proved further up is no proof of this one (only a relation with one
                # busy can be: its id is spelled only then)
                if any(l.name in busy and atom_id(l.name, [self._value(a, sol) for a in l.args]) in self._busy
                       for l in body if isinstance(l, Atom)):
                    continue
                best = self._pick(best, rule, body, sol)
                break
        self._busy.discard(nid)
        busy[name] -= 1
        if not busy[name]:
            del busy[name]
        if best is None:  # pragma: no cover - a fact the engine derived must have a proof
            return self._add(nid, kind="derived", label=nid)
        rule, body, sol, children = best
        label = rule.template.format_map(_Fill({k: self.show(v, rule.clause, k) for k, v in sol.items()})) if rule.template else nid
        self._add(nid, kind="derived", label=label, rule=rule.clause, bindings=dict(sol),
                  text=rule.text)
        for c in children:
            self.graph.add_edge(nid, c)
        self._size[nid] = 1 + sum(self._size.get(c, 1) for c in children)
        return nid

    def _pick(self, best, rule, body, sol):
        children = [c for c in (self._child(l, sol, rule.clause) for l in body) if c is not None]
        size = sum(self._size.get(c, 1) for c in children)
        if best is None or size < sum(self._size.get(c, 1) for c in best[3]):
            return (rule, body, sol, children)
        return best

    def _child(self, lit, env, clause: Optional[str] = None) -> str:
        if isinstance(lit, (Atom, Negated)):
            row = tuple(self._value(a, env) for a in lit.args)
            if lit.negated:
                nid = "not " + atom_id(lit.name, row)
                said = self.d.book.meanings.get(lit.name)  # the rulebook's phrasing of the absence
                if said is None:
                    return self._add(nid, kind="absent", label=f"no {lit.name} holds", atom=(lit.name, row))
                shown = [_plain(v) for v in row]
                return self._add(nid, kind="absent", label=said[1](*shown) if callable(said[1]) else said[1].format(*shown),
                                 atom=(lit.name, row))  # the atom absent (explain/diff.py proves it on another side)
            return self.prove_atom(lit.name, row, clause)
        if isinstance(lit, FuncEq):
            args = tuple(self._value(a, env) for a in lit.args)
            return self.prove_function(lit.name, args, self._value(lit.value, env))
        names = set(lit.variables()) & set(env)
        nid = f"cond {lit.text} {sorted((k, repr(env[k])) for k in names)}"
        if lit.assigns and (_BOOKKEEPING.match(lit.assigns) or not lit.right.variables()) or counters_only(lit):
            return None  # (Fs == (F,)), (N == N1 + 1), (X == 2): how a proof is assembled, not a condition
        return self._add(nid, kind="condition", label=condition_text(
            lit.text, env, self.words_for(clause), lambda var, v: self.show(v, clause, var)))

    def prove_function(self, name: str, args: Tuple, value) -> str:
        nid = f"{name}[{', '.join(_plain(a) for a in args)}] = {_plain(value)}"
        if nid in self.graph:
            return nid
        rule, head, body = next((r, h, b) for r, h, b in self.rules[name] if isinstance(h, FuncEq))
        env = self._match(head.args, args, {})
        self._add(nid, kind="aggregate", label=rule.template.format_map(_Fill({k: self.show(v, rule.clause, k) for k, v in env.items()}))
                  + f": {self.show(value, rule.clause)}", rule=rule.clause, text=rule.text)
        kids = []
        # a minimum (or maximum) rests on the rows that reach it, not on every row it compared
        m = _EXTREME.match(str(head.value))
        for sol in self.solve(body, env):
            if m and sol.get(m.group(1)) != value:
                continue
            atoms = [l for l in body if isinstance(l, Atom)]
            for l in atoms[:1]:
                kids.append(self.prove_atom(l.name, tuple(self._value(a, sol) for a in l.args)))
            if len(kids) >= 24:
                break
        for c in kids:
            self.graph.add_edge(nid, c)
        self._size[nid] = 1 + len(kids)
        return nid

    def _leaf(self, name: str, row: Tuple, nid: str, clause: Optional[str] = None) -> str:
        first = row[0] if row else None
        if name in ("signal", "stated", "status", "signal_rule", "precedence", "cites") and first in self.d.derived:
            return self.prove_derived_signal(first)
        facts = self.d.origins.get((name, row), [])
        if not facts:
            # a row the program gives itself, its numbers as the rule that reads it writes them
            label = self.d.book.given.get((name, row)) or f"{name}({', '.join(self.show(v, clause) for v in row)})"
            if name == "as_of" and self.d.book.name == "independence":
                label = f"the as-of date is {self.show(row[0], None, 'A')}"  # freshness is measured at it
            return self._add(nid, kind="given", label=label)
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
        # a stored world looks its facts up one id at a time (logic/store/); a live one indexes them once
        by_id = self.facts.by_fid
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
    from ..facts.language import LANGUAGE

    decl = LANGUAGE.decls.get(f.kind)
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
