"""Issue 19 point 5, large files: memory grows with the file, not with the file times LibCST's tree of it.

A generated table on one line was parsed by LibCST whole (a statement of fewer than 4 lines always was): on
55c7997 a 1 MB table with one TF1 call peaked 790 MB above a 1 KB one (3.4 GB for 5.5 MB); now about 180 MB
(Python's `ast` of the file and the text). Peak RSS of a child `rewrite`, from `wait4` (bench/large_file.py,
which also measures time: speed targets live there, never in a test)."""
from __future__ import annotations

import importlib.util

from tests.conftest import ROOT

MB_PER_MB = 400  # a bound twice what it takes now, half what it took


def _bench():
    spec = importlib.util.spec_from_file_location("large_file", ROOT / "bench" / "large_file.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_one_megabyte_table_on_one_line_is_rewritten_in_memory_linear_in_its_size(tmp_path):
    bench = _bench()
    peaks = {}
    for size in (1_000, 1_000_000):
        path = tmp_path / f"table{size}.py"
        path.write_text(bench.table(size))
        run = bench.measure(path)
        assert run["exit"] == 0 and "1 file rewritten" in run["err"], run["err"]
        assert path.read_text().endswith("\nx = tf.cast(TABLE[0][0], dtype=tf.float32)\n")
        peaks[size] = run["rss_mb"]
    grown = (peaks[1_000_000] - peaks[1_000]) / (999_000 / 1e6)
    assert grown < MB_PER_MB, f"{grown:.0f} MB of memory per MB of source ({peaks})"
