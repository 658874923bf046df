"""The fact language a world is read in: every module's statements, put together here, once.

The independence RULES' statements (schema.py, expect.py), the benchmark results' (results.py) and each
rulebook's (pilot.py, advice.py) are declared in languages of their own; nothing adds to
another module's table when imported. The loader reads :data:`LANGUAGE` unless given another.

    >>> LANGUAGE.rulebook_of["stake"], LANGUAGE.rulebook_of["result"], LANGUAGE.rulebook_of["probe"]
    ('independence', 'independence', 'advice')
    >>> "value" in LANGUAGE.derived
    True
"""
from __future__ import annotations

from . import advice, expect, outreach, pilot, results, schema
from .schema import Language

LANGUAGE: Language = Language.union(schema.STATEMENTS, expect.STATEMENTS, results.STATEMENTS, outreach.STATEMENTS,
                                    pilot.STATEMENTS, advice.STATEMENTS)
