"""The fact language's grammar (Lark) and its parser.

    >>> from provlog.grammar import parse_text
    >>> stmts, errors = parse_text('lab acme "Acme AI"\\n', "w.facts")
    >>> stmts[0].keyword, [a.value for a in stmts[0].args]
    ('lab', ['acme', 'Acme AI'])
"""
from .parser import Arg, Pair, ParseError, RawStatement, parse_text
from .query import Goal, QueryError, safe_order
from .read_goal import parse_goal

__all__ = ["Arg", "Pair", "ParseError", "Goal", "QueryError", "RawStatement", "parse_goal", "parse_text", "safe_order"]
