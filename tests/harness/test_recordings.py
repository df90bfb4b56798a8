"""Issue 18 (CI time): an original's recording depends only on its program, arguments, environment,
interpreter, the harness and how it is run, so `verify(..., recordings=DIR)` runs it once and reuses it."""
import pytest

from harness_programs import keras_mlp, tf1_mlp, write

pytestmark = pytest.mark.slow

REUSED = "recorded once for this session, reused (recordings=)"


def test_an_original_is_recorded_once_and_reused_until_an_input_changes(verify, tmp_path):
    folder = str(tmp_path / "kept")
    original, migrated = tf1_mlp(tmp_path, 4), keras_mlp(tmp_path, 4)
    first = verify(original, migrated, recordings=folder)
    assert first.verdict == "EQUIVALENT" and REUSED not in first.original.notes, first.reason
    (tmp_path / "mutants").mkdir()   # not beside the original: its folder's modules are part of the key
    with open(migrated) as f:
        mutant = write(tmp_path, "mutants/mutant.py", f.read().replace("Adam(0.01", "Adam(0.03"))
    again = verify(original, mutant, recordings=folder)
    assert REUSED in again.original.notes and again.original.losses == first.original.losses
    assert again.verdict == "DIVERGED", again.reason   # the reused recording still tells a mistake apart
    assert REUSED not in verify(original, migrated, recordings=folder, steps=3).original.notes   # --steps
    with open(original, "a") as f:
        f.write("\n# edited\n")
    assert REUSED not in verify(original, migrated, recordings=folder).original.notes   # the program's text


def test_a_failed_original_is_not_kept(verify, tmp_path):
    folder = str(tmp_path / "kept")
    broken = write(tmp_path, "broken.py", "import tensorflow as tf\nraise RuntimeError('no')\n")
    for _ in range(2):
        result = verify(broken, keras_mlp(tmp_path, 4), recordings=folder)
        assert result.failed_side == "original" and REUSED not in result.original.notes
