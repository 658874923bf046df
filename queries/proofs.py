"""Proofs of a value (part of :class:`~provlog.queries.api.World`): why a value is what it is, and
why it is not another (explain/why.py builds them, explain/render.py prints them)."""
from __future__ import annotations

from typing import Any, Dict, Optional

from .locking import _locked
from .records import DEFAULT_POLICY


class WorldProofs:
    """The proof of a value as a DAG, text, json or dot; and what stops another value."""

    # -- explanations ----------------------------------------------------------------------------------
    @_locked
    def explain(self, org: str, dim: str, policy: str = DEFAULT_POLICY):
        """The proof DAG of a value: ``(root, graph)``, the graph a ``networkx.DiGraph``."""
        root, g = self._proof(org, dim, policy)
        return root, g.to_networkx()

    def _proof(self, org: str, dim: str, policy: str):
        """``(root, ProofGraph)``: the renderers' input (networkx is imported only for :meth:`explain`)."""
        from ..explain import explain_value

        self._check(org, dim, policy)
        ex = explain_value(self.derivation, org, dim, policy)
        return ex.root, ex.graph

    @_locked
    def why(self, org: str, dim: str, policy: str = DEFAULT_POLICY, fmt: str = "text",
            depth: Optional[int] = None, start: Optional[int] = None) -> str:
        """The proof of a value as text (a tree), json (the DAG) or dot."""
        from ..explain import to_dot, to_json, to_text
        import json as _json

        root, g = self._proof(org, dim, policy)
        if fmt == "json":
            return _json.dumps(dict(to_json(g, root, depth, start), fingerprint=self.fingerprint()), indent=2,
                               sort_keys=True, ensure_ascii=False)
        if fmt == "dot":
            return to_dot(g, root, depth, start)
        return to_text(g, root, depth=depth, start=start)

    @_locked
    def why_not(self, org: str, dim: str, n: int, policy: str = DEFAULT_POLICY) -> Dict[str, Any]:
        """For each way the value could be ``n``: what blocks it, the facts involved, what would
        lift it (the shape of docs/json.md, "why-not")."""
        from ..explain import why_not

        self._check(org, dim, policy)
        return why_not(self.derivation, org, dim, n, policy)
