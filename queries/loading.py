"""World loading (part of :class:`~provlog.queries.api.World`): from files or text, from and to
the stored model (logic/store/, docs/store.md), and the fingerprint a published number rests on."""
from __future__ import annotations

import os
import sqlite3
from typing import Any, Dict, List, Optional, Union

from ..facts import load_text, load_world
from ..logic import Derivation


class WorldLoading:
    """The loading half of :class:`~provlog.queries.api.World` (its constructor is there)."""

    # -- loading ---------------------------------------------------------------------------
    @classmethod
    def load(cls, path: Union[str, os.PathLike], strict: bool = False, as_of: Optional[str] = None,
             freeze: bool = False, store: Union[None, bool, str, os.PathLike] = None, progress=None,
             rulebooks: Optional[Dict[str, Any]] = None) -> "World":
        """Load a ``.facts`` file or folder; raises :class:`LoadError` listing every error.

        ``store``: None or False reads and writes no store; True the default one (``.provlog/`` in the
        world's folder); a path that store file. A store made from exactly these inputs answers without
        parsing or deriving; otherwise the world is loaded, and its first derivation is stored
        (docs/store.md). The world derives on first use. ``origin``: the path it was loaded from
        (a what-if reads its files again, queries/diff.py).
        """
        w = cls._load(path, strict, as_of, freeze, store, progress, rulebooks)
        w.origin = path
        return w

    @classmethod
    def _load(cls, path, strict, as_of, freeze, store, progress, rulebooks) -> "World":
        if not store:
            return cls(load_world(path, strict=strict), as_of=as_of, name=str(path), freeze=freeze, lazy=True,
                       progress=progress, rulebooks=rulebooks)
        from ..logic import store as S

        target = S.default_path(path) if store is True else S.Path(store)
        try:
            before = S.inputs(path, strict, as_of)
        except OSError:
            before = None  # unreadable: the loader says what is wrong
        if before is not None:
            opened = S.open_store(target, lambda files: S.inputs(path, strict, as_of, files))
            if opened is not None:
                return cls._from_store(opened, as_of, str(path), rulebooks)
            w = cls._reread(target, path, strict, as_of, before) if rulebooks is None else None
            if w is not None:
                return w
        facts = load_world(path, strict=strict)
        w = cls(facts, as_of=as_of, name=str(path), freeze=freeze, lazy=True, progress=progress, rulebooks=rulebooks)
        if before is not None:
            w._store = (target, (path, strict, before))
        return w

    #: every store a World of this process was read from (the CLI removes one found damaged)
    opened_stores: List = []

    @classmethod
    def _from_store(cls, opened, as_of: Optional[str], name: str, rulebooks=None) -> "World":
        from ..logic import store as S

        facts = S.StoredFacts(opened)
        w = cls(facts, as_of=as_of, name=name, lazy=True, rulebooks=rulebooks)
        w._read_store(opened, facts)
        return w

    @classmethod
    def _reread(cls, target, path, strict: bool, as_of: Optional[str], before) -> Optional["World"]:
        """The world from its previous store and the lines of its one changed file (logic/reread.py,
        logic/edit_delta.py), its store written; None if only a whole load can say (the caller loads)."""
        from ..facts import LoadError
        from ..logic import edit, edit_delta, reread
        from ..logic import store as S
        from ..logic import RULEBOOKS

        old = S.open_store(target, None, quiet=True)
        if old is None:
            return None
        try:
            delta = reread.read(old, before, strict)
            if delta is None:
                return None
            edited = edit_delta.update(target, old, delta, before, _rules_digest(RULEBOOKS), as_of)
        except (edit.Refused, LoadError, OSError, S.StoreError, sqlite3.Error, KeyError, ValueError, TypeError):
            return None  # loaded whole (and a damaged store derived whole)
        finally:
            old.con.close()
        opened = S.open_store(target, lambda files: S.inputs(path, strict, as_of, files))
        if opened is None:
            return None
        w = cls._from_store(opened, as_of, str(path))
        w.edited = edited
        return w

    def _read_store(self, opened, facts) -> None:
        """Answer from ``opened`` (its facts ``facts``: a StoredFacts)."""
        from ..logic import store as S
        from ..logic.program import DerivedSignal

        self.opened_stores.append(opened.path)
        self._store = opened
        as_of = self.as_of_given

        def live() -> Derivation:  # what only the engine answers (a pyDatalog goal): derive, once
            if not hasattr(self, "_live"):
                self._live = Derivation.run(facts.to_factset(), as_of)
            return self._live

        model = S.StoredModel(opened, live)
        self._derivation = Derivation.stored(facts, model, S.derived_signals(opened, DerivedSignal),
                                             S.StoredOrigins(opened, facts), live)

    def _edit_store(self, target, how) -> bool:
        """Write this world's store from its previous one, if they differ only in signals and cites
        (logic/edit.py: the orgs they touch are derived again, alone), and answer from it."""
        import sqlite3

        from ..logic import edit, reread
        from ..logic import store as S

        path, strict, before = how
        old = S.open_store(target, None, quiet=True)  # World.load opened it first, and said if it is damaged
        if old is None:
            return False
        try:
            now = S.inputs(path, strict, self.as_of_given, self.facts.files)
            if any(now["files"].get(n) != h for n, h in before["files"].items()) or now["listed"] != before["listed"]:
                return False  # a file changed while it was read
            self.edited = edit.update(target, old, self.facts, now, self.fingerprint(), self.as_of_given,
                                      reread.texts(now["files"]))
        except (edit.Refused, OSError, S.StoreError, sqlite3.Error, KeyError, ValueError, TypeError):  # derive whole
            return False
        finally:
            old.con.close()
        opened = S.open_store(target, lambda files: S.inputs(path, strict, self.as_of_given, files))
        if opened is None:
            return False
        self._read_store(opened, S.StoredFacts(opened))
        return True

    def _write_store(self, target, how) -> None:
        """Store this world's derivation, if its files are still the ones it was loaded from."""
        from ..logic import reread
        from ..logic import store as S

        path, strict, before = how
        try:
            now = S.inputs(path, strict, self.as_of_given, self.facts.files)
            if any(now["files"].get(n) != h for n, h in before["files"].items()) or now["listed"] != before["listed"]:
                return  # a file changed while it was read: store nothing
            S.write(target, self._derivation, now, self.fingerprint(), reread.texts(now["files"]))
        except (OSError, S.StoreError, sqlite3.Error) as e:  # a full disk, say: the answer stands
            S.warn(f"store not written to {target} ({e})")

    def export(self, target: Union[str, os.PathLike]) -> None:
        """Write this world's stored model to ``target`` (a SQLite file; docs/store.md)."""
        from ..logic import store as S

        if self._store is not None and not isinstance(self._store, tuple):
            S.copy(self._store, target)
            return
        inp = S.inputs(self.name, False, self.as_of_given, self.facts.files) if self.name else {}
        S.write(S.Path(target), self.derivation, inp, self.fingerprint())

    @classmethod
    def from_text(cls, text: str, name: str = "<text>", strict: bool = False, as_of: Optional[str] = None,
                  rulebooks: Optional[Dict[str, Any]] = None) -> "World":
        return cls(load_text(text, name, strict=strict), as_of=as_of, name=name, rulebooks=rulebooks)

    # -- reproducibility ----------------------------------------------------------------------------------
    def fingerprint(self) -> Dict[str, str]:
        """SHA-256 of the canonical facts (order and layout free) and of the rules.

        Any published number can be reproduced from a world whose facts hash the
        same, evaluated by rules that hash the same.
        """
        if self._store is not None and not isinstance(self._store, tuple):
            import json

            return json.loads(self._store.meta["fingerprint"])
        cached = self.__dict__.get("_fingerprint")  # a loaded world never changes
        if cached is not None:
            return dict(cached)
        import hashlib

        facts = "\n".join(sorted(f.canon() for f in self.facts)).encode("utf-8")
        self.__dict__["_fingerprint"] = {"facts": hashlib.sha256(facts).hexdigest(),
                                         "rules": _rules_digest(self.rulebooks)}
        return dict(self.__dict__["_fingerprint"])


def _rules_digest(rulebooks: Dict[str, Any]) -> str:
    """The fingerprint's hash of every rulebook's rules, the independence RULES first (the registry's order)."""
    import hashlib

    rules = "\n".join(f"{name}\t{r.clause}\t{r.text}" for name, book in rulebooks.items()
                      for r in book.rules.rules).encode("utf-8")
    return hashlib.sha256(rules).hexdigest()
