"""The real pre-commit runs this repository's hooks (`.pre-commit-hooks.yaml`) on a TF1 file.

`pre-commit try-repo` clones the hook repository, builds the hook's virtualenv by pip-installing it
(hatchling, libcst and click come from the package registry) and runs the hook in a temporary git
repository that holds the user's code.

try-repo takes the uncommitted changes of tracked files into account, but not untracked ones (a new
`.pre-commit-hooks.yaml` that nobody has committed yet would be missing). So the hooks are tried from a
snapshot: a one-commit git repository of this checkout's working tree (tracked and untracked files,
minus the git-ignored ones). What is tested is exactly the code on disk, committed or not.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import TF1_SAMPLE as TF1_SOURCE

ROOT = Path(__file__).resolve().parent.parent


IDENTITY = {
    "GIT_AUTHOR_NAME": "tf2migrate tests",
    "GIT_AUTHOR_EMAIL": "tests@tf2migrate.invalid",
    "GIT_COMMITTER_NAME": "tf2migrate tests",
    "GIT_COMMITTER_EMAIL": "tests@tf2migrate.invalid",
}


def _git(*args, cwd, env):
    return subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", *args],
        cwd=cwd, env=env, check=True, capture_output=True, text=True,
    )


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    base = tmp_path_factory.mktemp("precommit")
    out = dict(os.environ)
    out.update(IDENTITY)
    out["PRE_COMMIT_HOME"] = str(base / "pre-commit-home")  # never the user's own store
    out["TF2MIGRATE_CACHE_DIR"] = str(base / "tf2migrate-cache")  # the hook's cache, inherited by it
    out.pop("PRE_COMMIT", None)
    out.pop("GIT_DIR", None)  # when the suite itself runs inside a git hook
    out.pop("GIT_INDEX_FILE", None)
    return out


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory, env) -> Path:
    """A committed snapshot of this checkout's working tree, for `pre-commit try-repo`."""
    assert (ROOT / ".pre-commit-hooks.yaml").is_file(), "the hook manifest is missing"
    assert (ROOT / ".git").exists(), f"{ROOT} is not a git checkout"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, env=env, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    snap = tmp_path_factory.mktemp("hook-repo")
    for rel in filter(None, listed):
        src = ROOT / rel
        if not src.is_file():  # deleted in the working tree, or a submodule
            continue
        dst = snap / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    _git("init", "-q", cwd=snap, env=env)
    _git("add", "-A", cwd=snap, env=env)
    _git("commit", "-q", "-m", "snapshot of the working tree", cwd=snap, env=env)
    return snap


@pytest.fixture
def user_repo(tmp_path, env) -> Path:
    """The user's project: a git repository with one committed TF1 file."""
    repo = tmp_path / "project"
    repo.mkdir()
    _git("init", "-q", cwd=repo, env=env)
    (repo / "train.py").write_text(TF1_SOURCE)
    _git("add", "train.py", cwd=repo, env=env)
    _git("commit", "-q", "-m", "TF1 code", cwd=repo, env=env)
    return repo


def try_repo(hook_repo: Path, hook: str, repo: Path, env) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--files", "train.py",
         "--color", "never"],
        cwd=repo, env=env, capture_output=True, text=True, timeout=900,
    )
    proc.log = f"exit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    return proc


def expected_rewrite(tmp_path: Path, env) -> str:
    """What the in-tree tf2migrate makes of TF1_SOURCE, run directly (no pre-commit)."""
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "train.py").write_text(TF1_SOURCE)
    subprocess.run([sys.executable, "-m", "tf2migrate", "rewrite", "--no-cache", "train.py"],
                   cwd=probe, env=env, check=True, capture_output=True)
    return (probe / "train.py").read_text()


def test_rewrite_hook_fails_and_rewrites_then_passes(hook_repo, user_repo, env, tmp_path):
    target = user_repo / "train.py"

    first = try_repo(hook_repo, "tf2migrate", user_repo, env)
    assert first.returncode == 1, first.log
    assert "files were modified by this hook" in first.stdout, first.log
    after = target.read_text()
    assert "strategy.run(step, args=(1.0,))" in after
    assert "experimental_run_v2" not in after
    assert "fixed_size_partitioner" not in after
    assert "tf.distribute.experimental.partitioners.FixedShardsPartitioner(" in after
    assert after == expected_rewrite(tmp_path, env), "the hook and the command disagree"
    compile(after, "train.py", "exec")
    # pre-commit saw the change through git: the working tree differs from the commit
    diff = _git("diff", "--name-only", cwd=user_repo, env=env).stdout.split()
    assert diff == ["train.py"]

    second = try_repo(hook_repo, "tf2migrate", user_repo, env)
    assert second.returncode == 0, second.log
    assert "Passed" in second.stdout, second.log
    assert target.read_text() == after


def test_check_hook_fails_and_writes_nothing(hook_repo, user_repo, env):
    target = user_repo / "train.py"
    before = target.read_bytes()

    proc = try_repo(hook_repo, "tf2migrate-check", user_repo, env)
    assert proc.returncode == 1, proc.log
    assert "Failed" in proc.stdout, proc.log
    assert "files were modified by this hook" not in proc.stdout, proc.log
    assert "would rewrite train.py" in proc.stdout, proc.log  # the hook's own output, shown on failure
    assert "TFM101" in proc.stdout and "TFM201" in proc.stdout, proc.log
    assert target.read_bytes() == before
    assert _git("status", "--porcelain", cwd=user_repo, env=env).stdout == ""

    # once the code is TF2, the check hook passes
    subprocess.run([sys.executable, "-m", "tf2migrate", "rewrite", "--no-cache", "train.py"],
                   cwd=user_repo, env=env, check=True, capture_output=True)
    _git("commit", "-q", "-am", "TF2 code", cwd=user_repo, env=env)
    clean = try_repo(hook_repo, "tf2migrate-check", user_repo, env)
    assert clean.returncode == 0, clean.log
    assert "Passed" in clean.stdout, clean.log
