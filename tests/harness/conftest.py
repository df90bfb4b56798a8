"""Fixtures of the harness tests; after every test, nothing the harness started may remain."""
import os

import pytest

from harness_support import SEED_DIR, _seen, assert_nothing_left, remember


@pytest.fixture(autouse=True)
def no_leaks():
    _seen["pids"].clear()
    _seen["ports"].clear()
    yield
    assert_nothing_left(_seen["pids"], _seen["ports"])


@pytest.fixture
def seed_pair():
    return os.path.join(SEED_DIR, "original.py"), os.path.join(SEED_DIR, "migrated.py")


@pytest.fixture
def verify():
    """`tf2migrate.verify` with quiet progress, remembering what it started."""
    import tf2migrate

    def run(*args, **kwargs):
        kwargs.setdefault("progress", lambda line: None)
        return remember(tf2migrate.verify(*args, **kwargs))

    return run
