"""logic/syntax.py's rule reader against the Lark grammar it replaced, kept here as its oracle.

The reader is hand-written for speed (a stored ``why`` read its rules in less time than Lark took to
build its parser); this file holds that grammar and its transformer, and both must read every rule of
every rulebook, and every generated rule, into the same literals (columns and display text included),
or refuse the same texts.
"""
from dataclasses import fields, is_dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st
from lark import Lark, Transformer, UnexpectedInput, v_args
from lark.exceptions import VisitError

from provlog.logic.registry import RULEBOOKS
from provlog.logic.syntax import (Aggregate, Atom, BinOp, Compare, Const, FuncEq, Neg, Negated, TupleOf, Var,
                                  parse_rule)

_GRAMMAR = r"""
rule: head "<=" body
?head: atom
     | "(" NAME "[" expr ("," expr)* "]" "==" aggregate ")"   -> head_function
aggregate: NAME "(" expr ("," keyword)* ")"
keyword: NAME "=" expr
body: literal ("&" literal)*
?literal: atom
        | "~" atom                                    -> negated
        | "(" expr CMP expr ")"                       -> comparison
        | "(" NAME "[" expr ("," expr)* "]" "==" expr ")"  -> function_eq
        | VAR "." "in_" "(" expr ")"                   -> member
        | VAR "." "_not_in" "(" expr ")"               -> not_member
atom: NAME "(" [expr ("," expr)*] ")"

?expr: sum
?sum: product
    | sum "+" product        -> add
    | sum "-" product        -> sub
?product: power
        | product "*" power  -> mul
        | product "/" power  -> div
        | product "//" power -> floordiv
        | product "%" power  -> mod
?power: unary
      | unary "**" power     -> pow
?unary: primary
      | "-" unary            -> neg
?primary: VAR                -> var
        | STRING             -> string
        | NUMBER             -> number
        | "Fraction" "(" expr ["," expr] ")" -> fraction
        | "(" expr ")"
        | "(" ")"                           -> empty
        | "(" expr "," [expr ("," expr)*] ")" -> tuple

NAME: /[a-z_][a-z0-9_]*/
VAR: /(?!Fraction\b)[A-Z][A-Za-z0-9_]*/
STRING: /'[^'\n]*'/
NUMBER: /\d+/
CMP: "==" | "!=" | "<=" | ">=" | "<" | ">"
%ignore " "
"""


@v_args(meta=True)
class _Build(Transformer):
    def __init__(self, text):
        super().__init__()
        self.text = text

    def _source(self, meta):
        return self.text[meta.start_pos:meta.end_pos]

    def var(self, meta, c):
        return Var(str(c[0]))

    def string(self, meta, c):
        return Const(str(c[0])[1:-1], str(c[0]))

    def number(self, meta, c):
        return Const(int(c[0]), str(c[0]))

    def fraction(self, meta, c):
        a, b = c
        if not isinstance(a, Const) or not (b is None or isinstance(b, Const)):
            raise ValueError("Fraction of constants only")
        return Const(Fraction(a.value, 1 if b is None else b.value), self._source(meta))

    def empty(self, meta, c):
        return Const((), "()")

    def tuple(self, meta, c):
        return TupleOf(tuple(i for i in c if i is not None))

    def neg(self, meta, c):
        return Const(-c[0].value, self._source(meta)) if isinstance(c[0], Const) else Neg(c[0])

    def _binop(op):  # noqa: N805
        return lambda self, meta, c: BinOp(op, c[0], c[1])

    add, sub, mul, div = _binop("+"), _binop("-"), _binop("*"), _binop("/")
    floordiv, mod, pow = _binop("//"), _binop("%"), _binop("**")

    def _term(self, expr):
        if not isinstance(expr, (Var, Const)):
            raise ValueError("an argument must be a variable or a constant")
        return expr

    def atom(self, meta, c):
        name, *args = c
        return Atom(str(name), tuple(self._term(a) for a in args if a is not None), meta.column)

    def negated(self, meta, c):
        return Negated(c[0], meta.column)

    def comparison(self, meta, c):
        left, op, right = c
        return Compare(left, str(op), right, meta.column, self._source(meta))

    def _member(self, meta, c, op):
        var, arg = c
        return Compare(Var(str(var)), op, arg, meta.column, f"({var} {op} {self._source(meta).split('(', 1)[1][:-1]})")

    def member(self, meta, c):
        return self._member(meta, c, "in")

    def not_member(self, meta, c):
        return self._member(meta, c, "not in")

    def function_eq(self, meta, c):
        name, *args, value = c
        return FuncEq(str(name), tuple(self._term(a) for a in args), value, meta.column)

    def head_function(self, meta, c):
        name, *args, agg = c
        return FuncEq(str(name), tuple(self._term(a) for a in args), agg, meta.column)

    def aggregate(self, meta, c):
        return Aggregate(str(c[0]), self._source(meta))

    def keyword(self, meta, c):
        return c

    def body(self, meta, c):
        return c

    def rule(self, meta, c):
        return c[0], tuple(c[1])


_LARK = Lark(_GRAMMAR, start="rule", parser="lalr", propagate_positions=True)


def oracle(text):
    """The Lark grammar's reading, or None where it refuses the text."""
    try:
        return _Build(text).transform(_LARK.parse(text))
    except (UnexpectedInput, VisitError):
        return None


def mine(text):
    try:
        return parse_rule(text)
    except ValueError:
        return None


def shape(x):
    """Every field of a literal, compared or not (columns, display text), as nested tuples."""
    if is_dataclass(x):
        return (type(x).__name__,) + tuple((f.name, shape(getattr(x, f.name))) for f in fields(x))
    if isinstance(x, (tuple, list)):
        return tuple(shape(i) for i in x)
    return (type(x).__name__, x)


RULE_TEXTS = sorted({r.text for book in RULEBOOKS.values() for r in book.rules.rules})


def test_every_rule_of_every_rulebook_reads_as_the_grammar_reads_it():
    assert len(RULE_TEXTS) > 400
    for text in RULE_TEXTS:
        want = oracle(text)
        assert want is not None, text
        assert shape(parse_rule(text)) == shape(want), text


# -- generated rules: every production of the grammar, nested, and text near it --------------------
_var = st.sampled_from(["X", "Src", "B2", "Fraction1", "A_b"])
_const = st.sampled_from(["1", "0", "42", "'cap'", "''", "'a b'", "Fraction(1, 4)", "Fraction(3)", "()", "-1"])
_exprs = st.recursive(
    st.one_of(_var, _const),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from([" + ", " - ", " * ", " / ", " // ", " % ", " ** ", "+", "**"]), inner)
          .map("".join),
        inner.map(lambda e: f"-{e}"),
        inner.map(lambda e: f"({e})"),
        inner.map(lambda e: f"({e},)"),
        st.lists(inner, min_size=2, max_size=3).map(lambda es: "(" + ", ".join(es) + ")"),
        st.tuples(inner, inner).map(lambda p: f"Fraction({p[0]}, {p[1]})"),
    ), max_leaves=6)
_args = st.lists(st.one_of(_var, _const, _var, _const, _exprs), max_size=3).map(", ".join)  # mostly terms
_atom = st.tuples(st.sampled_from(["a", "b_2", "_x", "value"]), _args).map(lambda t: f"{t[0]}({t[1]})")
_literal = st.one_of(
    _atom,
    _atom.map(lambda a: "~" + a),
    st.tuples(_exprs, st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]), _exprs).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    st.tuples(_args, _exprs).map(lambda t: f"(f[{t[0]}] == {t[1]})"),
    st.tuples(_var, st.sampled_from(["in_", "_not_in", "in"]), _exprs).map(lambda t: f"{t[0]}.{t[1]}({t[2]})"),
)
_head = st.one_of(_atom, st.tuples(_args, _var, _exprs).map(
    lambda t: f"(g[{t[0]}] == min_({t[1]}, order_by={t[2]}))"))
_rules = st.tuples(_head, st.lists(_literal, min_size=1, max_size=3)).map(lambda t: f"{t[0]} <= {' & '.join(t[1])}")


@settings(max_examples=400, deadline=None)
@given(_rules)
def test_generated_rules_read_as_the_grammar_reads_them(text):
    assert shape(mine(text)) == shape(oracle(text))


@settings(max_examples=300, deadline=None)
@given(_rules, st.integers(min_value=0, max_value=200), st.sampled_from(["", " ", "(", ")", ",", "&", "~", "<=", "A", "a", "'", "[", "]", ".", "=", "#", "1"]))
def test_damaged_rules_are_refused_as_the_grammar_refuses_them(text, at, insert):
    at = at % (len(text) + 1)
    damaged = text[:at] + insert + text[at:]
    assert shape(mine(damaged)) == shape(oracle(damaged))


@pytest.mark.parametrize("text, column", [
    ("a(X) <= b(X) &", 15),             # a literal is missing at the end
    ("a(X) <= b(X) c(X)", 14),          # no & between literals
    ("a(X <= b(X)", 5),                 # an unclosed argument list
    ("a(X) <= b(X + 1)", None),         # an expression as an argument
    ("a(X) <= b(Fraction(X, 2))", None),
    ("a(X) <= b(X) & (X ? 1)", 19),
])
def test_a_rule_that_does_not_read_names_itself_and_the_column(text, column):
    with pytest.raises(ValueError) as e:
        parse_rule(text)
    assert str(e.value).startswith("not a rule provlog reads (") and str(e.value).endswith(text)
    if column is not None:
        assert f"column {column}:" in str(e.value)
