"""Shared pieces of the harness tests: paths, the seed numbers, and the leak check (no child process or
listening port of the harness may remain, checked with psutil against the PIDs and ports runs reported)."""
import os
import sys

import psutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED_DIR = os.path.join(ROOT, "fixtures", "programs", "seed_estimator")
SEED_LOSSES = [0.09953763335943222, 0.08104918897151947, 0.01259709894657135]
SEED_INIT = {"dense/kernel": [[-0.034573965], [0.012718745]], "dense/bias": [0.0]}
PYTHON = sys.executable

_seen = {"pids": set(), "ports": set()}
MUTANTS = {}   # test_mutants.py: "<pair>-<mutant>" -> (verdict, reason), for the mutation score
RECORDINGS = {"run": 0, "reused": 0, "seconds_saved": 0.0}   # conftest.py: originals run / reused (recordings=)
PAIRS = {}     # test_fixture_programs.py: case id -> (verdict, max rel diff, max abs diff, tolerance), printed
TF221_ENV = "TF2MIGRATE_TF221_PYTHON"


def tf221_python():
    """The TF 2.21 interpreter of the cross-version tests: `.ci/run` creates it and sets TF2MIGRATE_TF221_PYTHON.
    Locally, without the variable, the test is skipped and says how to get it; a variable naming no
    interpreter is an error, never a skip."""
    import pytest

    path = os.environ.get(TF221_ENV)
    if not path:
        pytest.skip(f"{TF221_ENV} is not set: `bash .ci/run` creates a TF 2.21 venv and sets it "
                    f"(or point it at a python with tensorflow-cpu==2.21.0 and tf-keras==2.21.0)")
    assert os.access(path, os.X_OK), f"{TF221_ENV}={path} is not an executable interpreter"
    return path


def remember(result):
    """Record what a verify started, for the leak check after the test."""
    for side in [result.migrated] + list(result.sides.original_runs):
        if side is not None:
            _seen["pids"].update(side.pids)
    _seen["ports"].update(result.ports)
    return result


def listening_ports():
    return {c.laddr.port for c in psutil.net_connections(kind="tcp") if c.status == psutil.CONN_LISTEN}


def assert_nothing_left(pids=(), ports=()):
    from tf2migrate.harness.running import processes

    assert processes.live_pids() == []
    alive = [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != psutil.STATUS_ZOMBIE]
    assert alive == [], f"harness processes still alive: {alive}"
    children = [c for c in psutil.Process().children(recursive=True) if c.status() != psutil.STATUS_ZOMBIE]
    assert children == [], f"child processes left: {children}"
    left = set(ports) & listening_ports()
    assert not left, f"ports still listening: {sorted(left)}"
