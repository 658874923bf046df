"""The store's one exception and its one-line warning on stderr."""
from __future__ import annotations

import sys


class StoreError(Exception):
    """A store that cannot be used (corrupt, truncated, or of other inputs): it is ignored."""


def warn(msg: str) -> None:
    print(f"provlog: {msg}", file=sys.stderr)
