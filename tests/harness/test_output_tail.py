"""Issue 19 point 12: a program's output goes to its log file, and only a bounded tail of it is read back
for the report (1 GiB of stdout gave a 2.19 GB peak: the whole log was read to show its last lines)."""
import tracemalloc

from tf2migrate.harness.running.runner import tail


def test_the_tail_of_a_huge_log_is_read_in_bounded_memory(tmp_path):
    log = tmp_path / "migrated.main.log"
    line = b"step output " + b"x" * 100 + b"\n"
    with open(log, "wb") as f:
        for _ in range(64):   # 64 MiB of output
            f.write(line * ((1 << 20) // len(line)))
        f.write(b"W0000 00:00 a TF log line the tail leaves out\n")
        f.write(b"Traceback (most recent call last):\nValueError: boom\n")
    tracemalloc.start()
    try:
        shown = tail(str(log))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert shown.endswith("Traceback (most recent call last):\nValueError: boom")
    assert len(shown.splitlines()) == 25 and "W0000" not in shown
    assert peak < 8 << 20, f"reading the tail of a 64 MiB log took {peak / 2**20:.0f} MiB"


def test_a_short_log_is_shown_whole_and_a_missing_one_is_empty(tmp_path):
    log = tmp_path / "original.main.log"
    log.write_bytes(b"one\r\ntwo\n\xff three\n")
    assert tail(str(log)) == "one\ntwo\n\ufffd three"
    assert tail(str(tmp_path / "none.log")) == ""
