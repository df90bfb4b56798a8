"""`--target keras3` (default) and `--target tf-keras`: what each writes, and TFM320 whenever the output
needs Keras 2 (tf-keras on TF 2.16+). The programs themselves are verified on TF 2.15 and 2.21 by
tests/harness/test_fixture_programs.py."""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import Selection, rewrite_text
from tests.conftest import ROOT
from tests.test_cli import invoke

PROGRAMS = ROOT / "fixtures" / "programs"
SWITCH = 'os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")'


def _rewrite(name, **options):
    source = (PROGRAMS / name / "original.py").read_text(encoding="utf-8")
    result = rewrite_text(source, "original.py", Selection(**options))
    again = rewrite_text(result.code, "again.py", Selection(**options))
    assert again.code == result.code
    return result, {d.code: d for d in result.diagnostics}


def test_keras3_canned_estimator_reads_keras_inputs_not_feature_columns():
    result, codes = _rewrite("est_canned_linear")
    assert "DenseFeatures" not in result.code and "feature_column" not in result.code
    assert 'features = tf.keras.layers.Concatenate()([inputs["a"], inputs["b"]])' in result.code
    assert "TFM320" not in codes and SWITCH not in result.code


def test_tf_keras_target_keeps_dense_features_and_selects_keras_2():
    result, codes = _rewrite("est_canned_linear", target="tf-keras")
    assert "tf.keras.layers.DenseFeatures(columns)" in result.code
    assert SWITCH in result.code and 'if importlib.util.find_spec("tf_keras"):' in result.code
    # the switch runs before TensorFlow is imported
    assert result.code.index(SWITCH) < result.code.index("import tensorflow")
    assert "as asked (--target tf-keras)" in codes["TFM320"].message


def test_keras3_rmsprop_sets_its_slot_in_build():
    result, _ = _rewrite("est_opt_rmsprop")
    assert "def build(self, var_list):" in result.code and "add_variable_from_reference" not in result.code


@pytest.mark.parametrize("name,why", [
    ("est_shim", "the model-mapping shim (track_tf1_style_variables) has no Keras 3 form"),
    ("est_seed_strategy_ps", "Keras 3 cannot train with fit under ParameterServerStrategy"),
])
def test_keras3_falls_back_to_tf_keras_only_with_a_finding(name, why):
    options = {"strategy": "parameter-server"} if name.endswith("_ps") else {}
    result, codes = _rewrite(name, **options)
    assert SWITCH in result.code
    assert codes["TFM320"].message.startswith(why)
    assert codes["TFM320"].severity.value == "warning"


def test_tf_keras_target_switches_a_rewritten_custom_loop_and_leaves_clean_files():
    result, codes = _rewrite("seed002_custom_loop", target="tf-keras")
    assert SWITCH in result.code and "TFM320" in codes
    untouched = "import tensorflow as tf\nmodel = tf.keras.Sequential([])\n"
    assert rewrite_text(untouched, "clean.py", Selection(target="tf-keras")).code == untouched


def test_target_from_pyproject_and_a_bad_one_is_a_usage_error(tmp_path):
    program = tmp_path / "train.py"
    program.write_text((PROGRAMS / "est_canned_dnn" / "original.py").read_text(encoding="utf-8"))
    (tmp_path / "pyproject.toml").write_text('[tool.tf2migrate]\ntarget = "tf-keras"\n')
    out = invoke("rewrite", "--no-cache", str(program), cwd=tmp_path)
    assert out.exit_code == 0, out.output
    assert "DenseFeatures" in program.read_text() and SWITCH in program.read_text()
    (tmp_path / "pyproject.toml").write_text('[tool.tf2migrate]\ntarget = "keras4"\n')
    out = invoke("rewrite", "--no-cache", str(program), cwd=tmp_path)
    assert out.exit_code == 2 and "target must be one of keras3, tf-keras" in out.output
