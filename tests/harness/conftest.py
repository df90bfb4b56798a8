"""Fixtures of the harness tests; after every test, nothing the harness started may remain."""
import os

import pytest

from harness_support import MUTANTS, PAIRS, RECORDINGS, SEED_DIR, _seen, assert_nothing_left, remember


@pytest.fixture(autouse=True)
def no_leaks():
    _seen["pids"].clear()
    _seen["ports"].clear()
    yield
    assert_nothing_left(_seen["pids"], _seen["ports"])


@pytest.fixture
def seed_pair():
    return os.path.join(SEED_DIR, "original.py"), os.path.join(SEED_DIR, "migrated.py")


@pytest.fixture(scope="session")
def recordings(tmp_path_factory):
    """Where the session keeps each original's recording (harness/running/recordings.py): a pair's entries and all its
    mutants run their original once. TF2MIGRATE_TEST_RECORDINGS=0 runs every original every time."""
    if os.environ.get("TF2MIGRATE_TEST_RECORDINGS") == "0":
        return None
    return str(tmp_path_factory.mktemp("recordings"))


@pytest.fixture
def verify(recordings):
    """`tf2migrate.verify` with quiet progress, remembering what it started; originals recorded once a session."""
    import tf2migrate

    def run(*args, **kwargs):
        kwargs.setdefault("progress", lambda line: None)
        kwargs.setdefault("recordings", recordings)
        result = remember(tf2migrate.verify(*args, **kwargs))
        if result.original is not None and result.original.status == "ok":
            reused = any(n.startswith("recorded once for this session") for n in result.original.notes)
            RECORDINGS["reused" if reused else "run"] += 1
            RECORDINGS["seconds_saved"] += result.original.seconds if reused else 0.0
        return result

    return run


def pytest_terminal_summary(terminalreporter):
    """The differences measured per program pair (on TF 2.15, and with the migrated side on TF 2.21), then the
    mutation score of the proof (test_mutants.py), over the pairs and mutants that ran."""
    if RECORDINGS["reused"]:
        terminalreporter.write_line(f"originals: {RECORDINGS['run']} run, {RECORDINGS['reused']} reused from their "
                                    f"first recording (recordings=), {RECORDINGS['seconds_saved']:.0f} s of original "
                                    f"runs not repeated")
    if PAIRS:
        terminalreporter.section("program pairs: largest differences per step")
        for case, (verdict, rel, abs_, tolerance) in sorted(PAIRS.items()):
            terminalreporter.write_line(f"{case}: {verdict} max rel {rel:.3g} max abs {abs_:.3g} ({tolerance[:70]})")
        cross = [v[1] for k, v in PAIRS.items() if "-tf221-" in k and v[0] == "EQUIVALENT"]
        if cross:
            terminalreporter.write_line(f"largest cross-version relative difference: {max(cross):.3g}")
    if not MUTANTS:
        return
    caught = [k for k, (verdict, _) in MUTANTS.items() if verdict in ("DIVERGED", "INCOMPARABLE")]
    terminalreporter.section("mutation score of verify")
    for name, (verdict, reason) in sorted(MUTANTS.items()):
        terminalreporter.write_line(f"{'caught ' if name in caught else 'ESCAPED'} {name}: {verdict} - {reason[:160]}")
    terminalreporter.write_line(f"mutation score: {len(caught)}/{len(MUTANTS)} caught")
