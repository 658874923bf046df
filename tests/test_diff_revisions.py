"""provlog diff against git revisions under hostile use (issue 38): each side from its own store, a
name that is both a revision and a folder, a repository whose config would run programs, a large
blob beside the world, symlinks out of the world. Every repository is built here with git plumbing.

The world: a lab holding 20% of o1 (RULES F.1: 20% or more caps F at 0); the working tree holds
19.99%, where F.1 fails and F.4 (a lab's stake of 5% or more caps at 1) decides: F 0 -> 1.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from provlog.facts import LoadError, load_world
from provlog.facts import files as F
from provlog.queries.cli import main
from provlog.queries.diff import side

WORLD = """\
lab acme "Acme AI"
entity reg "Registry" kind=public
source s1 "https://registry.example/1" publisher=reg status=confirmed tier=1
org o1 "One Evals" type=nonprofit evaluated=yes
stake acme o1 20% src=s1 span="Acme AI holds 20% of the shares"
"""
MOVE = "value F standard: 0 -> 1"


def git(cwd, *args, data: bytes = None) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org", GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, input=data,
                          env=env).stdout.decode().strip()


def commit_tree(repo: Path, files: dict, message: str = "c", parent: str = None) -> str:
    """A commit of ``files`` (path -> bytes, or ("link", target)) made with plumbing alone: hash-object,
    update-index --index-info into a scratch index, write-tree, commit-tree; HEAD moved to it."""
    lines = []
    for path, body in files.items():
        mode, body = ("120000", body[1].encode()) if isinstance(body, tuple) else ("100644", body)
        oid = git(repo, "hash-object", "-w", "--stdin", data=body)
        lines.append(f"{mode} {oid}\t{path}\n")
    index = repo / ".git" / "scratch-index"
    env = dict(os.environ, GIT_INDEX_FILE=str(index))
    subprocess.run(["git", "update-index", "--index-info"], cwd=repo, check=True, env=env,
                   input="".join(lines).encode(), capture_output=True)
    tree = subprocess.run(["git", "write-tree"], cwd=repo, check=True, env=env, capture_output=True).stdout.decode().strip()
    index.unlink()
    commit = git(repo, "commit-tree", tree, "-m", message, *(["-p", parent] if parent else []))
    git(repo, "update-ref", "HEAD", commit)
    return commit


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """w/ at 20% committed (HEAD), 19.99% in the working tree; the working directory is the repository."""
    git(tmp_path, "init", "-q")
    commit_tree(tmp_path, {"w/a.facts": WORLD.encode()})
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "a.facts").write_text(WORLD.replace("20% src", "19.99% src"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_one_store_file_never_answers_both_sides(repo):
    # the bug: with --store x.sqlite both sides were read from it, "nothing moved", exit 0
    got = run("--store", "x.sqlite", "diff", "HEAD", "w", "--exit-code", "--policy", "standard")
    assert got.exit_code == 1 and MOVE in got.output, got.output + got.stderr
    assert (repo / "x.sqlite").is_file() and (repo / "x.old.sqlite").is_file()
    again = run("--store", "x.sqlite", "diff", "HEAD", "w", "--exit-code", "--policy", "standard")
    assert again.exit_code == 1 and MOVE in again.output  # warm: each side read from its own file
    same = run("--store", "x.sqlite", "diff", "HEAD:w", "HEAD:w", "--exit-code")
    assert same.exit_code == 0 and "nothing moved" in same.output


def test_a_name_both_a_branch_and_a_folder_is_ambiguous(repo):
    git(repo, "branch", "w")  # w is now a branch (at 20%) and a folder (19.99%)
    got = run("diff", "w", "HEAD:w")
    assert got.exit_code == 2 and "both a world path and a git revision" in got.stderr and "--" in got.stderr
    assert "Traceback" not in got.stderr
    # before --: a revision (w at branch w, 20%) against the folder after it (19.99%)
    got = run("diff", "--policy", "standard", "w", "--", "w")
    assert got.exit_code == 0 and MOVE in got.output and got.output.startswith("diff w:w -> w")
    # both after --: two paths (the same folder: nothing moves)
    got = run("diff", "--exit-code", "--", "w", "w")
    assert got.exit_code == 0 and "nothing moved" in got.output and got.output.startswith("diff w -> w")
    got = run("diff", "no-such", "--", "w")
    assert got.exit_code == 2 and "'no-such' is not a revision" in got.stderr
    got = run("diff", "HEAD", "--", "no-such")
    assert got.exit_code == 2 and "'no-such' (after --) is not a world" in got.stderr


def test_git_config_of_the_repository_runs_nothing(repo):
    # every setting that names a program git could run while reading a revision
    pwned = repo / "pwned"
    cmd = f"touch {pwned}"
    with open(repo / ".git" / "config", "a") as f:
        f.write(f'[core]\n\tfsmonitor = "{cmd}"\n\tsshCommand = "{cmd}"\n\tpager = "{cmd}"\n\tgitProxy = "{cmd}"\n'
                f'\taskPass = "{cmd}"\n\talternateRefsCommand = "{cmd}"\n[credential]\n\thelper = "!{cmd}"\n'
                f'[diff]\n\texternal = "{cmd}"\n')
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in ("post-checkout", "reference-transaction", "post-index-change"):
        (hooks / hook).write_text(f"#!/bin/sh\n{cmd}\n")
        (hooks / hook).chmod(0o755)
    got = run("--no-store", "diff", "HEAD", "w", "--policy", "standard")
    assert got.exit_code == 0 and MOVE in got.output, got.stderr
    assert not pwned.exists()


def test_the_environment_points_git_nowhere_else(repo, tmp_path_factory, monkeypatch):
    # GIT_DIR naming another repository (whose HEAD holds another world) is not what the world is read from
    other = tmp_path_factory.mktemp("other")
    git(other, "init", "-q")
    commit_tree(other, {"w/a.facts": WORLD.replace("20% src", "19.99% src").encode()})
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    got = run("--no-store", "diff", "HEAD", "w", "--policy", "standard")
    assert got.exit_code == 0 and MOVE in got.output


def test_only_the_world_s_blobs_are_read(repo, monkeypatch):
    # a large blob elsewhere in the revision is never asked of git (the world's paths alone are read)
    big = b"x" * 3_000_000
    head = git(repo, "rev-parse", "HEAD")
    commit_tree(repo, {"w/a.facts": WORLD.encode(), "data/big.bin": big, "other/z.facts": b"lab z \"Z\"\n"},
                parent=head)
    big_oid = git(repo, "hash-object", "--stdin", data=big)
    asked, listed = [], []
    cat, ls = F._cat, F.GitTree._ls
    monkeypatch.setattr(F, "_cat", lambda cwd, oids: asked.extend(oids) or cat(cwd, oids))
    monkeypatch.setattr(F.GitTree, "_ls", lambda self, args: listed.append(args) or ls(self, args))
    facts = load_world(side("HEAD", "w"))
    assert [f.kind for f in facts.facts][:2] == ["lab", "entity"]
    assert big_oid not in asked and len(asked) == 1  # w/a.facts alone
    assert all("data/big.bin" not in " ".join(a) for a in listed)
    assert any(a[-1] == ":(literal)w" for a in listed)  # the world's folder, not the whole tree


def test_a_revision_s_symlink_out_of_the_world_is_e154(repo):
    commit_tree(repo, {"w/a.facts": WORLD.encode(), "w/b.facts": ("link", "../secret.facts"),
                       "secret.facts": b'lab s "Secret"\n', "w/c.facts": b'include "../secret.facts"\n'},
                parent=git(repo, "rev-parse", "HEAD"))
    with pytest.raises(LoadError) as e:
        load_world(side("HEAD", "w"))
    assert {d.code for d in e.value.diagnostics} == {"E154"}
    assert {d.file for d in e.value.diagnostics} == {"HEAD:w/b.facts", "HEAD:w/c.facts"}
    got = run("--no-store", "diff", "HEAD", "w")
    assert got.exit_code == 1 and "E154" in got.stderr and "Secret" not in got.stderr + got.output
