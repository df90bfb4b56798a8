"""verify across interpreters: the original on TF 2.15, the migrated program on TF 2.21 (Keras 3)."""
import subprocess
import sys
import types

import pytest

from harness_support import SEED_INIT, SEED_LOSSES, tf221_python
from harness_programs import seed_migrated_variant
from tf2migrate.harness.compare import tolerance
from tf2migrate.harness.capture import versions


@pytest.mark.slow
def test_seed_pair_is_equivalent_across_versions_and_says_which_tolerance(seed_pair, verify):
    original, migrated = seed_pair
    result = verify(original, migrated, init_values=SEED_INIT, migrated_python=tf221_python())
    assert result.verdict == "EQUIVALENT", result.reason
    assert result.original.losses == SEED_LOSSES
    assert result.migrated.versions["tensorflow"].startswith("2.21")
    assert result.migrated.versions["keras"].startswith("keras 3.")
    assert (result.comparison.rtol, result.comparison.atol) == (tolerance.CROSS_RTOL, tolerance.CROSS_ATOL)
    assert "cross-version defaults" in result.reason and "TF 2.21" in result.reason


@pytest.mark.slow
def test_wrong_learning_rate_diverges_across_versions(seed_pair, verify, tmp_path):
    original, _ = seed_pair
    wrong = seed_migrated_variant(tmp_path, "learning_rate=0.05", "learning_rate=0.1", "wrong_lr.py")
    result = verify(original, wrong, init_values=SEED_INIT, migrated_python=tf221_python())
    assert result.verdict == "DIVERGED", result.reason
    assert result.comparison.first_diverged_step == 2
    assert result.exit_code == 1


@pytest.mark.slow
def test_cli_strict_tolerance_stays_available_across_versions(seed_pair, tmp_path):
    import json

    import numpy as np
    from click.testing import CliRunner

    from tf2migrate.cli.verify_cmd import verify as verify_command

    init = str(tmp_path / "init.npz")
    np.savez(init, **{k: np.asarray(v, dtype=np.float32) for k, v in SEED_INIT.items()})
    report = str(tmp_path / "out.json")
    out = CliRunner().invoke(verify_command, [*seed_pair, "--init", init, "--migrated-python", tf221_python(),
                                              "--tolerance", "strict", "--json", report])
    assert out.exit_code == 0, out.output
    assert "tolerance: rtol 1e-05, atol 1e-05: strict defaults, as asked, although the original ran on TF 2.15" \
        in out.output
    assert "migrated: " + tf221_python() in out.output and "TF 2.21.0" in out.output
    data = json.load(open(report))
    assert data["migrated_run"]["versions"]["tensorflow"] == "2.21.0" and data["rtol"] == 1e-5


@pytest.mark.slow
def test_an_interpreter_without_tensorflow_is_incomparable(seed_pair, verify, tmp_path):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "bare")], check=True)
    bare = str(tmp_path / "bare" / "bin" / "python")
    original, migrated = seed_pair
    result = verify(original, migrated, migrated_python=bare, timeout=120)
    assert result.verdict == "INCOMPARABLE"
    assert result.comparison.failed_side == "migrated"
    assert f"cannot run under {bare}" in result.reason
    assert "TensorFlow is not installed" in result.reason
    assert result.original.status == "ok"    # the original ran unaligned-waiting nobody: it is not held up


def test_a_missing_interpreter_is_a_usage_error(seed_pair, verify, tmp_path):
    from tf2migrate.harness.api import VerifyUsageError

    with pytest.raises(VerifyUsageError, match="--migrated-python .*no such executable"):
        verify(*seed_pair, migrated_python=str(tmp_path / "nope" / "python"))


def test_unsupported_tensorflow_version_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorflow", types.SimpleNamespace(__version__="2.12.1"))
    with pytest.raises(versions.Unsupported, match=r"TensorFlow 2\.12\.1 is not supported .*2\.15 to 2\.21"):
        versions.import_tensorflow()


def test_estimator_on_tf216_plus_is_unsupported_with_the_way_out():
    tf = types.SimpleNamespace(__version__="2.21.0")
    with pytest.raises(versions.Unsupported, match="TF 2.15 interpreter"):
        versions.check_estimator(tf, True)
    versions.check_estimator(tf, False)
    versions.check_estimator(types.SimpleNamespace(__version__="2.15.1"), True)


def _side(tf, keras):
    return types.SimpleNamespace(versions={"tensorflow": tf, "keras": keras})


def test_tolerance_choice():
    old, new = _side("2.15.1", "keras 2.15.0"), _side("2.21.0", "keras 3.15.1")
    assert tolerance.choose(None, None, "auto", old, old)[:2] == (1e-5, 1e-5)
    rtol, atol, note = tolerance.choose(None, None, "auto", old, new)
    assert (rtol, atol) == (tolerance.CROSS_RTOL, tolerance.CROSS_ATOL) and "cross-version defaults" in note
    assert tolerance.choose(None, None, "strict", old, new)[:2] == (1e-5, 1e-5)
    assert tolerance.choose(3e-4, None, "auto", old, new)[:2] == (3e-4, tolerance.CROSS_ATOL)
    assert "given by the user" in tolerance.choose(3e-4, None, "auto", old, new)[2]
    # the same TF with another Keras (tf-keras vs Keras 3) is a cross-version run too
    assert tolerance.cross_version(_side("2.21.0", "tf_keras 2.21.0"), new)


def test_a_program_that_selects_legacy_keras_gets_it(monkeypatch):
    # setenv first so that monkeypatch restores the variable's absence afterwards: `honour_legacy_switch` sets it
    # in this process, and every later child (TF 2.15 has no tf_keras) would inherit it
    monkeypatch.setenv("TF_USE_LEGACY_KERAS", "0")
    monkeypatch.delenv("TF_USE_LEGACY_KERAS")
    assert not versions.honour_legacy_switch("import tensorflow as tf\n")
    assert "TF_USE_LEGACY_KERAS" not in __import__("os").environ
    late = 'import os\nimport tensorflow as tf\nos.environ["TF_USE_LEGACY_KERAS"] = "1"\n'
    assert not versions.honour_legacy_switch(late)   # too late: TensorFlow was imported before it
    assert "TF_USE_LEGACY_KERAS" not in __import__("os").environ
    assert versions.honour_legacy_switch('import os\nos.environ["TF_USE_LEGACY_KERAS"] = "1"\n')
    assert __import__("os").environ["TF_USE_LEGACY_KERAS"] == "1"
