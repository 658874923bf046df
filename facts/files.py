"""Where a world's files are read from: a folder on disk, or a git tree at a revision.

The loader (facts/reading.py) reads every file, include and folder listing
through one of these, so that a world read from git's object store (``provlog
diff HEAD~1 world``) is checked exactly as the same files on disk: the same
includes, the same refusals (E150-E155), the same ``file:line:col`` (a
revision's files are named ``REV:path``, as ``git show`` takes them).

    >>> tree = GitTree("HEAD")                             # doctest: +SKIP
    >>> load_world("facts/worlds/example", files=tree)     # doctest: +SKIP

:class:`Disk` reads the file system (paths are ``pathlib.Path``);
:class:`GitTree` reads one commit's tree through ``git ls-tree`` and ``git
cat-file`` (paths are repository-relative ``PurePosixPath``), never a checkout.
"""
from __future__ import annotations

import errno
import os
import posixpath
import stat
import subprocess
from pathlib import Path, PurePosixPath
from typing import Callable, Dict, List, Optional, Set, Tuple

class TooBig(Exception):
    """A file over the loader's limit (``size``: its size, if known before reading)."""

    def __init__(self, size: Optional[int]):
        super().__init__(size)
        self.size = size


class ReadFiles(list):
    """The names of the files a world was read from (``FactSet.files``), with ``digests``: the SHA-256
    of the bytes the loader read, by resolved path. The stored model keys a store on these, not on the
    files as they are later, so a file edited while the world derives never gets an old answer its
    new key (logic/store/key.py).

        >>> ReadFiles(["w.facts"], {"/abs/w.facts": "ab12"}).digests
        {'/abs/w.facts': 'ab12'}
    """

    def __init__(self, names=(), digests: Optional[Dict[str, str]] = None):
        super().__init__(names)
        self.digests: Dict[str, str] = dict(digests or {})


#: ``refuse(entry, code, message)``: how a listing reports an entry it cannot take
Refuse = Callable[[object, str, str], None]


class Disk:
    """The file system; names are relative to ``root`` (the working directory) when inside it."""

    def __init__(self, root: Path):
        self.root = root

    def name(self, path) -> str:
        try:
            return os.path.relpath(path, self.root)
        except ValueError:  # pragma: no cover - other drive on Windows
            return str(path)

    def resolve(self, path) -> Path:
        return Path(path).resolve()

    def is_dir(self, path) -> bool:
        return Path(path).is_dir()

    def exists(self, path) -> bool:
        return Path(path).exists()

    def join(self, path, rel: str) -> Path:
        return Path(path).parent / rel

    def inside(self, path, top) -> bool:
        return path == top or top in path.parents

    def read(self, path, limit: int) -> bytes:
        """The bytes of a regular file; OSError (a folder, a FIFO, unreadable) or TooBig (over ``limit``)."""
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):  # a folder, a FIFO, /dev/zero: nothing to read, or no end to it
            raise OSError(0, "a folder, not a file" if stat.S_ISDIR(st.st_mode)
                          else "not a regular file (a FIFO, device or socket)")
        if st.st_size > limit:
            raise TooBig(st.st_size)
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
        if len(data) > limit:  # pragma: no cover - grew while being read
            raise TooBig(None)
        return data

    def listing(self, folder, refuse: Refuse) -> List[Path]:
        """Every ``.facts`` entry under ``folder``, in path order; each entry that cannot be read is
        refused (E150), a symlink leading out of the folder too (E154). Entries named ``*.facts`` are
        returned whatever they are: :meth:`read` refuses those that are not regular files."""
        folder = Path(folder)
        top = folder.resolve()
        files: List[Path] = []
        seen: Set[Path] = {top}  # folders listed (a symlink back up is read once)
        todo = [folder]
        while todo:
            d = todo.pop()
            try:
                entries = sorted(os.scandir(d), key=lambda e: e.name)
            except OSError as e:
                refuse(d, "E150", f"cannot read folder: {e.strerror}")
                continue
            for e in entries:
                path = Path(e.path)
                is_facts = e.name.endswith(".facts")
                if e.is_symlink():
                    try:
                        target = path.resolve(strict=True)
                    except (OSError, RuntimeError) as err:  # RuntimeError: a loop, before Python 3.13
                        loop = isinstance(err, RuntimeError) or err.errno == errno.ELOOP
                        refuse(path, "E150", f"symlink {'loops' if loop else 'points to nothing (dangling)'}: "
                                             f"{os.readlink(path)!r}")
                        continue
                    is_dir = target.is_dir()
                    if target != top and top not in target.parents:
                        if is_facts or is_dir:
                            refuse(path, "E154", f"symlink leads outside the world folder, to {self.name(target)!r}; "
                                                 "a world is the files under its folder: copy or move them in")
                        continue
                    if is_dir and not is_facts:
                        if target not in seen:
                            seen.add(target)
                            todo.append(path)
                        continue
                elif e.is_dir(follow_symlinks=False) and not is_facts:
                    seen.add(path.resolve())
                    todo.append(path)
                    continue
                if is_facts:
                    files.append(path)
        return sorted(files)


class GitError(Exception):
    """A revision or repository git cannot read (the message says what git said)."""


#: Every git call runs with configuration that runs nothing: no system or user config file, no
#: hook, fsmonitor, ssh or proxy command, credential helper, pager or prompt, no network (a partial
#: clone's missing object is an error, not a fetch). The repository's own config is still read
#: (git needs its format), and these ``-c`` settings override whatever it says.
_CLOSED = ("-c", "core.fsmonitor=", "-c", "core.sshCommand=", "-c", "core.hooksPath=/dev/null",
           "-c", "core.gitProxy=", "-c", "core.askPass=", "-c", "credential.helper=", "-c", "core.pager=cat",
           "-c", "protocol.allow=never", "-c", "core.alternateRefsCommand=", "-c", "uploadpack.packObjectsHook=",
           "-c", "diff.external=", "-c", "safe.bareRepository=explicit", "--no-pager", "--no-replace-objects")


def _git_env() -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GIT_") and k not in ("SSH_ASKPASS", "PAGER", "EDITOR", "VISUAL")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0",
               GIT_PAGER="cat", PAGER="cat", GIT_OPTIONAL_LOCKS="0", GIT_NO_LAZY_FETCH="1",
               GIT_ASKPASS="/bin/false", SSH_ASKPASS="/bin/false", GIT_SSH_COMMAND="/bin/false",
               GIT_PROTOCOL_FROM_USER="0", GIT_ALLOW_PROTOCOL="")
    return env


def git(args: List[str], cwd=None, data: Optional[bytes] = None) -> bytes:
    """``git ARGS`` in ``cwd`` (configuration closed: :data:`_CLOSED`); its output, or GitError with its
    first line of stderr."""
    try:
        run = subprocess.run(["git", *_CLOSED, *args], cwd=cwd, input=data, capture_output=True, check=False,
                             env=_git_env(), stdin=None if data is not None else subprocess.DEVNULL)
    except OSError as e:
        raise GitError(f"cannot run git: {e.strerror}") from None
    if run.returncode != 0:
        said = run.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(said[0] if said else f"git {' '.join(args)} failed")
    return run.stdout


def commit_of(rev: str, cwd) -> str:
    """The commit id ``rev`` names in the repository holding ``cwd``; GitError if it names none."""
    top = git(["rev-parse", "--show-toplevel"], cwd).decode().strip()
    try:
        return git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
                   cwd).decode().strip()
    except GitError:
        raise GitError(f"{rev!r} is not a revision of the repository at {top}") from None


_LINK, _TREE, _MODULE = "120000", "040000", "160000"
_HOPS = 40  # symlinks followed in a row before one is called a loop (as Linux's ELOOP)
_ROOT = ("040000", "tree", "", 0)


class GitTree:
    """One commit's tree, read from git's object store; paths are repository-relative.

    ``rev`` is whatever ``git rev-parse`` takes (``HEAD~1``, ``main``, a commit id); names read
    ``REV:path`` as the user wrote REV. Only the paths the loader asks about are read: a folder's
    entries by one ``git ls-tree -r`` of that folder, a single path's by ``git ls-tree`` of it, and the
    ``.facts`` files and symlinks of a folder listed in one ``git cat-file --batch``; never the rest of
    the tree, so a large file elsewhere in the repository costs nothing.
    """

    def __init__(self, rev: str, cwd=None):
        self.rev = rev
        cwd = os.fspath(cwd or os.getcwd())
        self.top = Path(git(["rev-parse", "--show-toplevel"], cwd).decode().strip())
        self.prefix = git(["rev-parse", "--show-prefix"], cwd).decode().strip()  # cwd inside the repository
        self.commit = commit_of(rev, cwd)
        self.entries: Dict[str, Tuple[str, str, str, int]] = {}  # path -> (mode, type, object id, size)
        self._asked: Set[str] = set()  # paths whose entry was asked of git (found or not)
        self._listed: Set[str] = set()  # folders listed whole (every entry under them is in entries)
        self._blobs: Dict[str, bytes] = {}
        self._want: Set[str] = set()  # blobs to read in the next batch

    def _ls(self, args: List[str]) -> None:
        out = git(["ls-tree", "-z", "-l", "--full-tree", *args], self.top)
        for item in out.split(b"\0"):
            if item:
                meta, _, path = item.partition(b"\t")
                mode, kind, oid, size = meta.decode().split()
                p = path.decode("utf-8", "surrogateescape")
                self.entries[p] = (mode, kind, oid, int(size) if size.isdigit() else 0)
                self._asked.add(p)

    def _under_listed(self, p: str) -> bool:
        return any(p == d or p.startswith(d + "/") or d == "." for d in self._listed)

    def _get(self, p: str) -> Optional[Tuple[str, str, str, int]]:
        """The entry at repository path ``p`` (no symlink followed), asked of git once."""
        if p in ("", "."):
            return _ROOT
        if p not in self._asked and not self._under_listed(p):
            self._asked.add(p)
            self._ls([self.commit, "--", f":(literal){p}"])
        return self.entries.get(p)

    def _list(self, folder: str) -> None:
        """Every entry under ``folder`` (one ``ls-tree -r``); its ``.facts`` blobs and links read next."""
        if folder in self._listed:
            return
        self._ls(["-r", "-t", self.commit] + ([] if folder in ("", ".") else ["--", f":(literal){folder}"]))
        self._listed.add("." if folder in ("", ".") else folder)
        under = "" if folder in ("", ".") else folder + "/"
        self._want |= {e[2] for p, e in self.entries.items() if p.startswith(under) and e[1] == "blob"
                       and (e[0] == _LINK or p.endswith(".facts"))}

    # -- paths --------------------------------------------------------------------------------
    def path(self, given: str) -> PurePosixPath:
        """A path as written on the command line: relative to the working directory (``./x`` or ``x``
        given beside a revision) or, after ``REV:``, to the repository's top (as git reads it)."""
        return PurePosixPath(posixpath.normpath(given)) if given else PurePosixPath(".")

    def from_cwd(self, given: str) -> PurePosixPath:
        """A working-directory path (the other side's ``facts/worlds/example``) inside the tree."""
        return self.path(posixpath.join(self.prefix, given))

    def name(self, path) -> str:
        return f"{self.rev}:{path}"

    def _entry(self, path) -> Optional[Tuple[str, str, str, int]]:
        return self._get(str(path))

    def resolve(self, path) -> PurePosixPath:
        """``path`` with ``..`` folded and symlinks followed; OSError if a link loops; ValueError if it
        leaves the repository."""
        parts = list(PurePosixPath(posixpath.normpath(str(path))).parts)
        done: List[str] = []
        hops = 0
        while parts:
            part = parts.pop(0)
            if part == "..":
                if not done:
                    raise ValueError("leads outside the repository")
                done.pop()
                continue
            if part == ".":
                continue
            here = posixpath.join(*done, part)
            got = self._get(here)
            if got is not None and got[0] == _LINK:
                hops += 1
                if hops > _HOPS:
                    raise OSError(errno.ELOOP, "symlink loops")
                target = self._blob(got[2]).decode("utf-8", "surrogateescape")
                if target.startswith("/"):
                    raise ValueError("an absolute symlink leads outside the repository")
                parts = list(PurePosixPath(target).parts) + parts
                continue
            done.append(part)
        return PurePosixPath(*done) if done else PurePosixPath(".")

    def is_dir(self, path) -> bool:
        try:
            got = self._entry(self.resolve(path))
        except (OSError, ValueError):
            return False
        return got is not None and got[1] == "tree"

    def exists(self, path) -> bool:
        try:
            return self._entry(self.resolve(path)) is not None
        except (OSError, ValueError):
            return False

    def join(self, path, rel: str) -> PurePosixPath:
        return PurePosixPath(path).parent / rel

    def inside(self, path, top) -> bool:
        return path == top or top in path.parents or str(top) == "."

    # -- reading ------------------------------------------------------------------------------
    def read(self, path, limit: int) -> bytes:
        got = self._entry(path)
        if got is None:
            raise OSError(errno.ENOENT, "No such file or directory")
        mode, kind, oid, size = got
        if kind == "tree":
            raise OSError(0, "a folder, not a file")
        if kind != "blob" or mode == _LINK:
            raise OSError(0, "not a regular file (a submodule)")
        if size > limit:  # known from the listing: never read
            raise TooBig(size)
        data = self._blob(oid)
        if len(data) > limit:  # pragma: no cover - the listing gave its size
            raise TooBig(len(data))
        return data

    def digest(self, path) -> Optional[str]:
        """What a store keys a file by: its blob id (the content, whatever the commit)."""
        got = self._entry(path)
        return None if got is None else f"git:{got[2]}"

    def _blob(self, oid: str) -> bytes:
        if oid not in self._blobs:
            # the listed folders' .facts files and links in one process: a world is read whole anyway
            want = sorted((self._want | {oid}) - set(self._blobs))
            self._want.clear()
            self._blobs.update(_cat(self.top, want))
        return self._blobs[oid]

    def listing(self, folder, refuse: Refuse) -> List[PurePosixPath]:
        """As :meth:`Disk.listing`, over the tree: every ``.facts`` entry under ``folder``."""
        top = self.resolve(folder)
        under = "" if str(top) == "." else f"{top}/"
        self._list(str(top))
        files: List[PurePosixPath] = []
        for p in sorted(self.entries):
            if not p.startswith(under):
                continue
            mode, kind, _, _ = self.entries[p]
            name = posixpath.basename(p)
            is_facts = name.endswith(".facts")
            path = PurePosixPath(p)
            if mode == _LINK:
                try:
                    target = self.resolve(path)
                    found = self._entry(target)
                    if found is None:
                        raise FileNotFoundError
                except (OSError, ValueError) as err:
                    link = self._blob(self.entries[p][2]).decode("utf-8", "surrogateescape")
                    if isinstance(err, ValueError):
                        refuse(path, "E154", f"symlink leads outside the world folder, to {link!r}; "
                                             "a world is the files under its folder: copy or move them in")
                    else:
                        loop = getattr(err, "errno", None) == errno.ELOOP
                        refuse(path, "E150", f"symlink {'loops' if loop else 'points to nothing (dangling)'}: {link!r}")
                    continue
                is_dir = found[1] == "tree"
                if not self.inside(target, top):
                    if is_facts or is_dir:
                        refuse(path, "E154", f"symlink leads outside the world folder, to {self.name(target)!r}; "
                                             "a world is the files under its folder: copy or move them in")
                    continue
                if is_dir and not is_facts:
                    continue  # its files are listed under their own paths, inside the folder
                if is_facts:
                    files.append(path)
            elif is_facts:
                files.append(path)
        return files


def _cat(cwd: Path, oids: List[str]) -> Dict[str, bytes]:
    """The contents of ``oids``, by ``git cat-file --batch`` (one process for all)."""
    out = git(["cat-file", "--batch"], cwd, "".join(o + "\n" for o in oids).encode())
    got: Dict[str, bytes] = {}
    i = 0
    for oid in oids:
        nl = out.index(b"\n", i)
        head = out[i:nl].split()
        if len(head) < 3:  # "<oid> missing"
            raise GitError(f"object {oid} is missing from the repository")
        size = int(head[2])
        got[oid] = out[nl + 1: nl + 1 + size]
        i = nl + 1 + size + 1
    return got


class TreePath:
    """A world in a revision: ``path`` in ``tree`` (what ``load_world`` and the store take in place of a
    file-system path). ``str()`` is its name, ``REV:path``.

        >>> TreePath(GitTree("HEAD"), "facts/worlds/example")     # doctest: +SKIP
        HEAD:facts/worlds/example
    """

    def __init__(self, tree: GitTree, path):
        self.tree = tree
        self.path = tree.path(str(path))

    def __str__(self) -> str:
        return self.tree.name(self.path)

    __repr__ = __str__

    def listed(self) -> List[str]:
        """The names of the files the world is read from before includes (as the loader lists them)."""
        t = self.tree
        if t.is_dir(self.path):
            return [t.name(q) for q in t.listing(self.path, lambda *a: None)]
        return [t.name(self.path)]

    def digest(self, name: str) -> str:
        """A file's blob id, by its name (``REV:path``); ``missing`` if the tree has none."""
        rev, _, path = name.partition(":")
        got = self.tree.digest(PurePosixPath(path)) if rev == self.tree.rev else None
        return got or "missing"
