"""The store's exceptions and its one-line warning on stderr."""
from __future__ import annotations

import sqlite3
import sys

from ...errors import ProvlogError, printable


class StoreError(Exception):
    """A store that cannot be used (corrupt, truncated, or of other inputs): it is ignored."""


class StoreDamaged(sqlite3.DatabaseError):
    """A table whose bytes do not match the checksum sealed when it was written (logic/store/seal.py).
    A DatabaseError, as SQLite's own "malformed": every reader already treats that as a damaged store."""


class NotAStore(StoreError, ProvlogError, OSError):
    """``--store PATH`` (or ``export``'s FILE) names a file that exists and is not a provlog store: it is
    neither read nor replaced (exit 2). An OSError too: a file that cannot be written, to those that write."""

    exit_code = 2


def warn(msg: str) -> None:
    """One line on stderr; the store's path names the world's folder, which may hold controls."""
    print(f"provlog: {printable(msg)}", file=sys.stderr)
