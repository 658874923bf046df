"""A store's key: the inputs it was made from (:func:`inputs`), this user's secret, and where it lives."""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Any, Dict, List, Optional, Sequence

from ...facts.files import TreePath
from .layout import SCHEMA

#: the package folders whose source decides what a store holds
_CODE = ("facts", "grammar", "logic")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _display(path: Path, root: Path) -> str:
    """A file's name as the loader prints it (relative to the working directory when inside it)."""
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path.resolve())


def _code_hash() -> str:
    """SHA-256 of the loader's and the rules' source (the subpackages beside this one's folder)."""
    h = hashlib.sha256()
    for folder in _CODE:
        base = Path(__file__).resolve().parents[2] / folder
        for p in sorted(base.rglob("*")):
            if p.suffix in (".py", ".lark") and "__pycache__" not in p.parts:
                h.update(str(p.relative_to(base)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def _version() -> str:
    from provlog.version import __version__  # setup.cfg's version (importlib.metadata would cost more than the card)

    return __version__


def listed_files(path: Path) -> List[Path]:
    """The files a world is read from before includes (as facts/loader.py load_world lists them)."""
    if path.is_dir():
        return sorted(q for q in path.rglob("*.facts") if q.is_file())
    return [path]


def inputs(path, strict: bool, as_of: Optional[str], files: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    """Everything a world's store depends on; ``files`` adds the files it read beyond the listed ones
    (includes, as recorded in a store). A file the loader read (``files.digests``, facts/files.py
    ReadFiles) counts with the bytes it read, not the bytes there now: a file edited while the world
    derived keys its store on what the answers were derived from. Raises OSError if a file cannot be read."""
    root = Path.cwd().resolve()
    if isinstance(path, TreePath):  # a revision's world: its files keyed by their blob ids (the content)
        listed, digest = path.listed(), path.digest
    else:
        listed = [_display(q, root) for q in listed_files(Path(path))]
        read = getattr(files, "digests", {})
        digest = lambda n: read.get(str((root / n).resolve())) or _sha((root / n).read_bytes())  # noqa: E731
    names = sorted(set(listed) | set(files or ()))
    return {
        "schema": SCHEMA, "version": _version(), "code": _code_hash(), "cwd": str(root), "world": str(path),
        # the date a world is read at: --as-of, else its own as-of statement (in its bytes), else today
        "strict": bool(strict), "as_of": as_of, "today": date.today().isoformat(), "listed": listed,
        "files": {n: digest(n) for n in names},
    }


def _salt_file() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "provlog" / "salt"


#: a secret shorter than this (the empty file a crash between create and write leaves) is made again
SECRET_BYTES = 32


def secret() -> bytes:
    """This user's secret, part of every key and of every checksum: a store made elsewhere (shipped
    beside a world, say) never matches, however well its inputs are copied. Made on first use, and
    again if it is empty or short (else anyone could compute the key); OSError if it cannot be."""
    path = _salt_file()
    try:
        got = path.read_bytes()
    except FileNotFoundError:
        got = None
    if got is not None and len(got) >= SECRET_BYTES:
        return got
    _make_secret(path, replace=got is not None)
    got = path.read_bytes()
    if len(got) < SECRET_BYTES:
        raise OSError(f"the store secret {path} is too short")
    return got


def _make_secret(path: Path, replace: bool) -> None:
    """Write a new secret to ``path`` whole or not at all (a temporary file, mode 0600, then renamed
    in); a first one is linked in only if no other process made one first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".salt.", dir=path.parent)  # mkstemp: owner-only, 0600
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(SECRET_BYTES))
            fh.flush()
            os.fsync(fh.fileno())
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:  # another process made it first: theirs is kept
                pass
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


def key_of(inp: Dict[str, Any]) -> str:
    """The key of a store: the inputs (``inputs``) with this user's secret (:func:`secret`)."""
    return hashlib.sha256(secret() + json.dumps(inp, sort_keys=True).encode()).hexdigest()


def default_path(world) -> Path:
    """``.provlog/`` in the world's folder (a folder world's own, a file world's parent); a revision's
    world (a TreePath) beside the same folder in the working tree (else at the repository's top)."""
    if isinstance(world, TreePath):
        here = world.tree.top / str(world.path)
        folder = here if here.is_dir() else here.parent if here.parent.is_dir() else world.tree.top
        return folder / ".provlog" / f"{PurePosixPath(world.path).name or 'world'}@rev-{_sha(str(world).encode())[:12]}.sqlite"
    p = Path(world)
    folder = p if p.is_dir() else p.parent
    return folder / ".provlog" / f"{p.resolve().name or 'world'}-{_sha(str(p.resolve()).encode())[:12]}.sqlite"
