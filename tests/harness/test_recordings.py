"""Issue 18 (CI time): an original's recording depends only on its program, arguments, environment,
interpreter, the harness and how it is run, so `verify(..., recordings=DIR)` runs it once and reuses it."""
import pytest

from harness_programs import keras_mlp, tf1_mlp, write



REUSED = "recorded once for this session, reused (recordings=)"


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_failed_original_is_not_kept(verify, tmp_path):
    folder = str(tmp_path / "kept")
    broken = write(tmp_path, "broken.py", "import tensorflow as tf\nraise RuntimeError('no')\n")
    for _ in range(2):
        result = verify(broken, keras_mlp(tmp_path, 4), recordings=folder)
        assert result.comparison.failed_side == "original" and REUSED not in result.original.notes


@pytest.mark.parametrize("field", ["own_initial", "final_state", "plain_state"])
def test_every_array_file_of_a_recording_is_kept_with_it(tmp_path, field):
    """A reused recording must not point into the first run's folder, which verify removes: every SideResult field
    that names an .npz is copied (plain_state, issue 18's own tf.Variables, was not: its check then saw nothing)."""
    import dataclasses
    import os
    import shutil

    from tf2migrate.harness.running import recordings
    from tf2migrate.harness.compare.align import save_values
    from tf2migrate.harness.running.runner import SideResult

    run = tmp_path / "run"
    run.mkdir()
    names = {f.name for f in dataclasses.fields(SideResult)}
    array_fields = [name for name in names if name in ("own_initial", "final_state", "plain_state")]
    assert field in array_fields
    paths = {}
    for name in array_fields:
        paths[name] = str(run / f"{name}.npz")
        save_values(paths[name], [("w", [1.0, 2.0])])
    blank = {"str": "", "list": [], "dict": {}, "float": 0.0, "int": 0, "bool": False}
    required = {f.name: blank.get(getattr(f.type, "__name__", str(f.type)), None) for f in dataclasses.fields(SideResult)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    result = SideResult(**{**required, "label": "original", "status": "ok", "losses": [1.0], **paths})
    recordings.store(str(tmp_path / "kept"), "k", result, str(run / "init.npz"))
    shutil.rmtree(run)
    loaded = recordings.load(str(tmp_path / "kept"), "k", str(tmp_path / "init.npz"))
    assert os.path.exists(getattr(loaded, field)) and os.path.exists(getattr(loaded, field) + ".names.json")
