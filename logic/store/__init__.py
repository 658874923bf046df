"""The stored model: a world's facts and everything derived from them, kept in SQLite.

A derivation is written once (:func:`write`) and read back by later commands
(:func:`open_store`) without parsing or deriving: the store answers the
:mod:`~provlog.logic.model` read protocol, one indexed lookup per question.
Nothing in a store is executed: values are typed columns or tagged JSON
(:func:`encode`), never pickles or Python text. docs/store.md has the schema.

A store is used only for the exact inputs it was made from (:func:`inputs`):
every file the world read (path and SHA-256 of its bytes), the folder's list
of ``.facts`` files, the world's path, the working directory (file names in
messages are relative to it), ``--strict``, the as-of date, the source of the
loader and the rules (all of ``facts/``, ``grammar/`` and ``logic/``) and
provlog's version. Any difference is a miss, and the store is rebuilt.

One module per job:

- ``key``: the inputs, this user's secret, the key, the default path;
- ``layout``: the schema number, tables, column names, indexes, and the layout's checks;
- ``codec``: values <-> tagged JSON and SQL column kinds;
- ``writing``: the write path (:func:`write`, :func:`copy`, :func:`create_table`);
- ``seal``: the checksums, written with a store and checked before a table is read;
- ``reading``: the read path (:func:`open_store`, :class:`Stored`);
- ``model``: :class:`StoredModel`, the program read interface over a store;
- ``facts``: the facts, origins and derived signals read back.

The names below are the package's interface; logic/edit.py, logic/whatif.py and logic/diff.py
also use the column helpers (``_q``, ``_to_sql``, ``_from_sql``, ``_fact_row``, ``_replacing``).

    >>> decode(encode((Fraction(1, 3), "a", None)))
    (Fraction(1, 3), 'a', None)
"""
from fractions import Fraction  # noqa: F401  (the doctest above)
from pathlib import Path  # noqa: F401  (queries/loading.py spells it S.Path)

from .codec import _from_sql, _to_sql, decode, decoded_rows, encode
from .errors import NotAStore, StoreDamaged, StoreError, warn
from .facts import StoredFacts, StoredOrigins, derived_signal, derived_signals, fact_from_row
from .key import default_path, inputs, key_of, listed_files, secret
from .layout import _FACT_COLS, READERS, SCHEMA, _q
from .model import StoredModel
from .pages import editing
from .reading import Stored, open_store
from .writing import _fact_row, _replacing, copy, create_table, write, write_texts

__all__ = [
    "SCHEMA", "READERS", "StoreError", "StoreDamaged", "NotAStore", "warn", "encode", "decode", "inputs", "listed_files", "key_of",
    "default_path", "write", "write_texts", "copy", "create_table", "open_store", "Stored", "StoredModel", "StoredFacts",
    "StoredOrigins", "fact_from_row", "derived_signal", "derived_signals", "editing",
]
