"""A Ctrl-C that comes after a file is written is raised once the caller has counted the file (engine/writer.py).

tests/test_interrupt.py showed the race from outside (600 files, SIGINT at the first one written: the file was
rewritten on disk and the summary said 0 rewritten, 600 not started); here it is made to happen every time.
"""
import os
import signal

import pytest

from tf2migrate.engine.writer import signals_deferred, write_atomic


@pytest.fixture(autouse=True)
def _python_handler():
    """Python's own Ctrl-C handler, whatever an earlier test installed (the harness's process handlers)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_an_interrupt_after_the_write_waits_for_the_end_of_the_block(tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes(b"x = 1\n")
    counted = []
    with pytest.raises(KeyboardInterrupt):
        with signals_deferred():
            write_atomic(str(path), b"x = 2\n", b"x = 1\n")
            os.kill(os.getpid(), signal.SIGINT)   # as the user's Ctrl-C, once the file is written
            counted.append(str(path))             # the runner appends the file's result here
    assert counted == [str(path)] and path.read_bytes() == b"x = 2\n"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler   # the handler is put back


def test_an_interrupt_before_any_write_stops_at_once(tmp_path):
    reached = []
    with pytest.raises(KeyboardInterrupt):
        with signals_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):   # the interrupt is raised within these
                pass
            reached.append(True)
    assert reached == []


def test_without_the_block_an_interrupt_after_the_write_is_raised_there(tmp_path):
    path = tmp_path / "m.py"
    path.write_bytes(b"x = 1\n")
    counted = []
    with pytest.raises(KeyboardInterrupt):
        write_atomic(str(path), b"x = 2\n", b"x = 1\n")
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass
        counted.append(str(path))
    assert counted == []
