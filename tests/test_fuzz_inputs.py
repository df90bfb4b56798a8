"""A bounded sample of bench/fuzz_inputs.py (the full run, 1,000 files and every fixture, is in its closing
numbers): random bytes, encodings and cookies, line endings and nesting give no traceback, and no file
changes that must not."""
from __future__ import annotations

import importlib.util

from tests.conftest import ROOT


def test_a_fuzz_sample_gives_no_traceback_and_changes_no_file_that_must_stay(capsys):
    spec = importlib.util.spec_from_file_location("fuzz_inputs", ROOT / "bench" / "fuzz_inputs.py")
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    code = fuzz.main(["-n", "40", "--seed", "7", "--no-fixtures"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "tracebacks: 0" in out and "problems: 0" in out
