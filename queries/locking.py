"""The one lock of a :class:`~provlog.queries.api.World`: every method that reads its program,
its rulebooks or the explainer's and readers' caches is decorated with :func:`_locked`."""
from __future__ import annotations

import functools


def _locked(method):
    """Run ``method`` holding the world's lock (see :class:`World`)."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)

    return run
