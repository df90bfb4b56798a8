"""Fixtures of the harness tests; after every test, nothing the harness started may remain."""
import os

import pytest

from harness_support import MUTANTS, SEED_DIR, _seen, assert_nothing_left, remember


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


def pytest_terminal_summary(terminalreporter):
    """The mutation score of the proof (test_mutants.py), over the mutants that ran."""
    if not MUTANTS:
        return
    caught = [k for k, (verdict, _) in MUTANTS.items() if verdict in ("DIVERGED", "INCOMPARABLE")]
    terminalreporter.section("mutation score of verify")
    for name, (verdict, reason) in sorted(MUTANTS.items()):
        terminalreporter.write_line(f"{'caught ' if name in caught else 'ESCAPED'} {name}: {verdict} - {reason[:160]}")
    terminalreporter.write_line(f"mutation score: {len(caught)}/{len(MUTANTS)} caught")
