"""Issue 19 point 8: Ctrl-C stops a rewrite, and its workers die with it.

SIGINT to the process group (what Ctrl-C sends) at the first file written on a 600-file tree: the pool used to
finish every queued file, then print 'Aborted!' and exit 1 with no summary; SIGKILL of the main process left
its workers idle forever. Now queued files are not started, every file is either as it was or wholly
rewritten, the summary says what was done and what was not started, and the exit code is 130.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import ROOT

SAMPLE = ROOT / "fixtures" / "experimental-run-v2" / "seed004_seq2seq.before.py"
FILES = 600


def _tree(tmp_path):
    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(SAMPLE, one / "m.py")
    done = subprocess.run([sys.executable, "-m", "tf2migrate", "rewrite", "--no-cache", str(one)], cwd=ROOT,
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    tree = tmp_path / "tree"
    tree.mkdir()
    for i in range(FILES):
        shutil.copy(SAMPLE, tree / f"m{i:03d}.py")
    return tree, SAMPLE.read_bytes(), (one / "m.py").read_bytes()


def _start(tree, jobs, output=subprocess.PIPE):
    proc = subprocess.Popen([sys.executable, "-m", "tf2migrate", "rewrite", "--no-cache", "-j", str(jobs), str(tree)],
                            cwd=ROOT, stdout=output, stderr=output, text=True, start_new_session=True)
    original = SAMPLE.read_bytes()
    deadline = time.time() + 120
    while not any(p.read_bytes() != original for p in tree.glob("m*.py")):   # the first file written (not its .tmp)
        assert proc.poll() is None and time.time() < deadline, proc.communicate()
        time.sleep(0.01)
    return proc


def _children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_the_run_leaves_whole_files_and_says_what_was_done(tmp_path, jobs):
    tree, before, after = _tree(tmp_path)
    proc = _start(tree, jobs)
    workers = _children(proc.pid)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    contents = [p.read_bytes() for p in sorted(tree.iterdir())]
    rewritten = sum(c == after for c in contents)
    assert proc.returncode == 130, err
    assert all(c in (before, after) for c in contents)   # whole, or not touched
    assert len(contents) == FILES   # no temporary file left behind
    assert 0 < rewritten < FILES // 2, f"{rewritten} of {FILES} files rewritten after Ctrl-C"
    assert (f"Aborted! tf2migrate: {rewritten} file{'s' * (rewritten != 1)} rewritten, 0 files unchanged, "
            f"0 files needing attention, 0 files failed; {FILES - rewritten} files not started (interrupted)") in err
    assert "Traceback" not in err
    assert [w for w in workers if _alive(w)] == []


def test_sigkill_of_the_main_process_leaves_no_worker(tmp_path):
    tree, _, _ = _tree(tmp_path)
    proc = _start(tree, 2, output=subprocess.DEVNULL)   # a pipe would stay open in orphaned workers
    workers = _children(proc.pid)
    assert len(workers) == 2
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.time() + 30
        while any(_alive(w) for w in workers) and time.time() < deadline:
            time.sleep(0.05)
        assert [w for w in workers if _alive(w)] == [], "workers outlived their SIGKILLed parent"
    finally:
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
