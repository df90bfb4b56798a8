"""Nothing is silent, through the CLI: Estimator code that TF 2.16+ cannot run fails `check` and `rewrite`,
a canned Estimator left in TF1 code keeps TF1's loss, and the findings say what the code says.

(The survey of public TF1 programs: a `check` that exited 0 on `train_and_evaluate`, a canned estimator whose
loss silently became a mean, a TFM352 that missed `learn.Estimator(...)`, TFM607 beside a converted call.)
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

CANNED_NESTED = '''import tensorflow as tf


def build_estimator(model_dir, model_type, columns):
    if model_type == "deep":
        return tf.estimator.DNNClassifier(model_dir=model_dir, feature_columns=columns, hidden_units=[8])
    return tf.estimator.LinearClassifier(model_dir=model_dir, feature_columns=columns)
'''
# taxifare's trainer/model.py after `tf2migrate rewrite`: every rename done, the Estimator still there
AFTER_RENAMES = '''import tensorflow as tf


def train_and_evaluate(output_dir, feature_cols, train_input, eval_input):
    estimator = tf.compat.v1.estimator.DNNRegressor(model_dir=output_dir, feature_columns=feature_cols,
                                                    hidden_units=[32, 8])
    train_spec = tf.estimator.TrainSpec(input_fn=train_input, max_steps=100)
    eval_spec = tf.estimator.EvalSpec(input_fn=eval_input, steps=None)
    tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
'''
CONTRIB_LEARN = '''import tensorflow as tf

learn = tf.contrib.learn


def main():
    classifier = learn.Estimator(model_fn=my_model)
    classifier.fit(x, y, steps=100)
'''


def _cli(tmp_path, *args, files: dict) -> subprocess.CompletedProcess:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("")
    return subprocess.run([sys.executable, "-m", "tf2migrate", *args, "--no-cache", *files], cwd=tmp_path,
                          capture_output=True, text=True)


@pytest.mark.parametrize("source", [CANNED_NESTED, AFTER_RENAMES, CONTRIB_LEARN], ids=["canned", "renamed", "learn"])
def test_check_fails_on_estimator_code_as_the_check_hook_runs_it(tmp_path, source):
    """`.pre-commit-hooks.yaml`'s tf2migrate-check entry: an Estimator left in a file is an error (exit 1)."""
    done = _cli(tmp_path, "check", "--force-exclude", files={"model.py": source})
    assert done.returncode == 1, done.stderr
    assert "would rewrite" not in done.stderr or source is CANNED_NESTED


def test_rewrite_exits_1_while_an_estimator_is_left(tmp_path):
    done = _cli(tmp_path, "rewrite", files={"model.py": AFTER_RENAMES})
    assert done.returncode == 1, done.stderr
    assert (tmp_path / "model.py").read_text() == AFTER_RENAMES
    lines = [line for line in done.stderr.splitlines() if "TFM35" in line]
    assert {line.split()[1] for line in lines} == {"TFM350", "TFM351"}


def test_explain_says_the_estimator_findings_are_errors(tmp_path):
    for code in ("TFM302", "TFM308", "TFM350", "TFM351", "TFM352"):
        done = subprocess.run([sys.executable, "-m", "tf2migrate", "explain", code], capture_output=True, text=True,
                              cwd=ROOT)
        assert "Severity: error." in done.stdout, (code, done.stdout[:300])


def test_a_canned_estimator_left_in_tf1_code_keeps_tf1s_class(tmp_path):
    """TF2's tf.estimator.DNNClassifier averages the loss (x batch size smaller steps, verify: DIVERGED 16x)."""
    done = _cli(tmp_path, "rewrite", "--source", "tf1", files={"model.py": CANNED_NESTED})
    assert done.returncode == 1, done.stderr  # rewritten, and the Estimator is still an error
    out = (tmp_path / "model.py").read_text()
    assert "tf.compat.v1.estimator.DNNClassifier(model_dir=model_dir" in out
    assert "tf.compat.v1.estimator.LinearClassifier(model_dir=model_dir" in out
    told = _cli(tmp_path, "check", "--source", "tf1", files={"again.py": CANNED_NESTED})
    assert told.stderr.count("TFM666 [*]") == 2, told.stderr
    assert "averages the loss over the batch" in told.stderr


def test_an_ambiguous_file_is_told_not_guessed(tmp_path):
    done = _cli(tmp_path, "check", files={"model.py": CANNED_NESTED})
    assert done.returncode == 1
    assert done.stderr.count("TFM650") == 2 and "TFM666" not in done.stderr
    assert (tmp_path / "model.py").read_text() == CANNED_NESTED


def test_verify_tells_the_codemod_what_the_original_api_is():
    """`verify --original-api v1` runs the original as TF1: the codemod must take it for TF1 code too."""
    from tf2migrate.harness.running import codemod_sides

    for source, expected in (("tf1", "tf.compat.v1.estimator.DNNClassifier("), ("auto", "tf.estimator.DNNClassifier(")):
        path, code, _ = codemod_sides.rewrite_all("model.py", CANNED_NESTED, source)
        assert expected in code
        import os

        os.unlink(path)


def test_an_accepted_fix_is_applied_for_the_api_the_original_is_run_as(tmp_path):
    """`verify --accept-fix CODE --original-api v1`: the reference copy is rewritten as TF1 code too (it was
    rewritten as `auto`, so a fix that only applies to TF1 code was never accepted)."""
    from tf2migrate.harness.running import codemod_sides

    text = "import tensorflow as tf\n\ny = tf.nn.dropout(x, 0.5)\n"  # keep_prob in TF1, rate in TF2: ambiguous
    for source, applied, line in (("tf1", ["TFM651"], "rate=1 - (0.5)"), ("auto", [], "dropout(x, 0.5)")):
        _, code, done = codemod_sides.with_fixes("drop.py", text, ["TFM651"], str(tmp_path), source)
        assert done == applied and line in code


def test_tfm352_sees_the_estimator_built_through_a_namespace_alias(tmp_path):
    done = _cli(tmp_path, "check", files={"iris.py": CONTRIB_LEARN})
    assert "no Estimator is built in this file" not in done.stderr
    est = [line for line in done.stderr.splitlines() if ":7:" in line and "TFM350" in line]
    assert est and "`tf.contrib.learn.Estimator`" in est[0], done.stderr
    alias = [line for line in done.stderr.splitlines() if ":3:" in line and "TFM352" in line]
    assert alias and "the Estimator on line 7 is not converted" in alias[0], done.stderr


def test_tfm604_export_savedmodel_names_what_still_runs(tmp_path):
    source = "import tensorflow as tf\n\nest.export_savedmodel(base, serving_fn, strip_default_attrs=True)\n"
    done = _cli(tmp_path, "check", files={"export.py": source})
    line = next(line for line in done.stderr.splitlines() if "TFM604" in line)
    assert "strip_default_attributes" not in line and "`strip_default_attrs`" in line
    assert "rename the method" not in line and "tf.saved_model.save" in line


def test_no_tfm607_beside_the_rule_that_converted_the_call(tmp_path):
    source = ("import tensorflow as tf\nsess = tf.Session()\nit = dataset.make_one_shot_iterator().get_next()\n"
              "other = reader.make_one_shot_iterator(queue)\n")
    done = _cli(tmp_path, "check", files={"input.py": source})
    by_line = {}
    for line in done.stderr.splitlines():
        if line.startswith("input.py:"):
            by_line.setdefault(int(line.split(":")[1]), []).append(line.split()[1])
    assert by_line[3] == ["TFM657"]
    assert by_line[4] == ["TFM607"]  # not a form TFM657 converts: still reported


def test_the_tf_keras_switch_does_not_import_os_twice():
    from tf2migrate.engine.api import rewrite_text

    source = (ROOT / "fixtures" / "programs" / "est_seed_ps_partitioner" / "original.py").read_text(encoding="utf-8")
    out = rewrite_text(source, "ps.py").code
    assert "TF_USE_LEGACY_KERAS" in out
    assert [line for line in out.splitlines() if line.strip() == "import os"] == ["import os"]
    assert out.index("import os") < out.index("os.environ")


TRIPLET = '''import tensorflow as tf


def model_fn(features, labels, mode, params):
    output = tf.math.l2_normalize(tf.layers.dense(features, 4), axis=1)
    loss = tf.contrib.losses.metric_learning.triplet_semihard_loss(labels, output)
    train_op = tf.train.RMSPropOptimizer(0.05).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)


estimator = tf.estimator.Estimator(model_fn)
estimator.train(train_input_fn, max_steps=10)
'''


def test_a_contrib_loss_without_tf2_equivalent_names_its_port():
    """cloudml-samples' triplet-loss TPU template: TF2 has no core or Keras triplet loss, so 'see the migration
    guide' named no way out; the finding names TensorFlow Addons' port (and that Addons ends at TF 2.15)."""
    from tf2migrate.engine.api import rewrite_text

    result = rewrite_text(TRIPLET, "triplet.py")
    blocker = next(d for d in result.diagnostics if d.code == "TFM302")
    assert (blocker.line, "tfa.losses.triplet_semihard_loss") == (6, next(
        w for w in blocker.message.replace("`", " ").split() if w.startswith("tfa.")))
    assert "no TF2 core or Keras equivalent" in blocker.message
