"""The Estimator converter never costs a file its other edits, and never writes a program that cannot run
(issue 17, points 5 and 6).

A crash of the converter is one finding on the Estimator (TFM324), not TFM999 for the whole file.
"""
from __future__ import annotations

from tf2migrate.engine.api import rewrite_text

# three real TPUEstimator files crashed the rewrite so (TFM999 "'NoneType' object has no attribute 'visit'"):
# an input_fn taking params, read for its blockers while the model_fn blocks, was called with no params name
TFRECORD_PARAMS = '''import tensorflow as tf
def model_fn(features, labels, mode, params):
  loss = tf.reduce_mean(features)
  return tf.estimator.EstimatorSpec(mode=mode, loss=loss)
def input_fn(params):
  return tf.data.TFRecordDataset(["train.tfrecord"]).batch(params["batch_size"])
estimator = tf.estimator.Estimator(model_fn=model_fn, params={"batch_size": 8})
estimator.train(input_fn=input_fn, max_steps=100)
'''

PROGRAM = '''import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
out = strategy.experimental_run_v2(lambda: 1.0)


def model_fn(features, labels, mode):
    logits = tf.layers.dense(features, 1)
    loss = tf.losses.mean_squared_error(labels, logits)
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


estimator = tf.estimator.Estimator(model_fn=model_fn)
'''  # a table rename beside an Estimator program, which each test then runs

WITH_RENAMES = PROGRAM + "estimator.train(input_fn=train_input_fn, steps=10)\n"


def _codes(result) -> list:
    return sorted(f"{d.line}:{d.code}" for d in result.diagnostics)


def test_blocked_model_fn_with_an_input_fn_of_params_is_reported_not_a_crash():
    result = rewrite_text(TFRECORD_PARAMS, "f.py")
    assert result.code == TFRECORD_PARAMS
    codes = _codes(result)  # blocked where the default path cannot keep it (line 2 or 3), never a crash
    assert any(c.endswith(":TFM302") for c in codes) and "7:TFM350" in codes
    assert not any(c.endswith((":TFM324", ":TFM999")) for c in codes)


def test_a_crash_of_the_converter_keeps_the_other_rules_edits_and_findings(monkeypatch):
    from tf2migrate.rules.estimator import convert

    def broken(*args, **kwargs):
        raise AttributeError("'NoneType' object has no attribute 'visit'")

    converted = rewrite_text(WITH_RENAMES, "f.py")
    assert "model.fit(" in converted.code  # the program converts when nothing breaks
    monkeypatch.setattr(convert, "one", broken)
    result = rewrite_text(WITH_RENAMES, "f.py")
    assert "strategy.run(lambda: 1.0)" in result.code  # the table rename is kept
    assert "tf.estimator.Estimator(model_fn=model_fn)" in result.code  # the program is left as written
    assert "keras" not in result.code  # and nothing of the conversion was imported or written
    codes = _codes(result)
    assert "4:TFM101" in codes and "8:TFM606" in codes and "14:TFM324" in codes
    assert "11:TFM352" in codes  # what is left of the Estimator world is still reported, pointing to TFM324
    assert "TFM301" not in " ".join(codes)
    crash = next(d for d in result.diagnostics if d.code == "TFM324")
    assert "AttributeError" in crash.message and crash.severity.value == "error"


KEPT_RESULT = PROGRAM + """train_spec = tf.estimator.TrainSpec(input_fn=train_input_fn, max_steps=10)
eval_spec = tf.estimator.EvalSpec(input_fn=train_input_fn, steps=1)
result = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
"""


def test_an_output_using_a_name_the_conversion_removed_is_not_written(monkeypatch):
    """The shape of issue 17's `result = train_and_evaluate(...)`: a run left as written after its estimator and
    specs went (a NameError, written with exit 0). Any such slip of the converter is caught before writing."""
    from tf2migrate.rules.estimator.writing import program_statements

    assert "TFM301" in {d.code for d in rewrite_text(KEPT_RESULT, "f.py").diagnostics}
    monkeypatch.setattr(program_statements, "run_statements", lambda orig, stmt, *rest: [stmt])  # the slip
    result = rewrite_text(KEPT_RESULT, "f.py")
    assert "strategy.run(lambda: 1.0)" in result.code and "tf.compat.v1.layers.dense" in result.code
    assert "tf.estimator.Estimator(model_fn=model_fn)" in result.code and "keras" not in result.code
    codes = _codes(result)
    assert "14:TFM325" in codes and "4:TFM101" in codes and "TFM301" not in " ".join(codes)
    vetoed = next(d for d in result.diagnostics if d.code == "TFM325")
    assert "`estimator`, `eval_spec`, `train_spec`" in vetoed.message
    assert "`result = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)`" in vetoed.message
    assert rewrite_text(result.code, "f.py").code == result.code  # a second run changes nothing


def test_names_the_input_already_left_undefined_do_not_count():
    from tf2migrate.rules.estimator.writing.output_check import problem

    before = "import tensorflow as tf\nx = train_input_fn\n"
    assert problem(before, "import tensorflow as tf\nx = train_input_fn\ny = tf.keras\n", "f.py") is None
    assert "`model`" in problem(before, "x = train_input_fn\nmodel.fit(x)\n", "f.py")


def test_reads_of_model_predict_as_per_example_dicts_are_found():
    from tf2migrate.rules.estimator.writing.output_check import problem

    models = frozenset({"model"})
    before = "import numpy as np\n"
    shapes = {
        'preds = model.predict(ds)\ny = [p["class"] for p in preds]\n': '`p[\'class\']` reads one example',
        'for p in model.predict(ds):\n    print(p["probabilities"])\n': '`p[\'probabilities\']` reads one example',
        'preds = model.predict(ds)\nfirst = next(preds)\n': '`next(preds)`: model.predict returns one batch',
    }
    for after, said in shapes.items():
        assert said in problem(before, "ds = 1\n" + after, "f.py", models), after
    fine = ['preds = examples_of(model.predict(ds))\ny = [p["class"] for p in preds]\n',  # unbatched
            'preds = model.predict(ds)\ny = [p[0] for p in preds]\n',  # rows of an array
            'preds = other.predict(ds)\ny = [p["class"] for p in preds]\n']  # not a converted model
    for after in fine:
        assert problem(before, "ds = 1\nexamples_of = other = model = list\n" + after, "f.py", models) is None, after


def test_predictions_read_per_example_from_a_general_path_model_are_unbatched(monkeypatch):
    """Issue 17: a custom model_fn on the general path (TFM321) and `[p["class"] for p in predictions]`: the
    predictions were model.predict's one dict of arrays (TypeError: string indices must be integers)."""
    from tests.conftest import ROOT
    from tf2migrate.rules.estimator.syntax import templates
    from tf2migrate.rules.estimator.writing import runs

    source = (ROOT / "fixtures/programs/est_general_predict_loop/original.py").read_text(encoding="utf-8")
    result = rewrite_text(source, "f.py")
    assert "predictions = examples_of(model.predict(test_input_fn()))" in result.code
    assert "TFM314" in {d.code for d in result.diagnostics}

    method = runs.Runs.method

    def batched(self, call):  # what the general path wrote before: model.predict's batch, as it is
        if call.func.attr.value != "predict":
            return method(self, call)
        made = templates.call(f"{self.w.model_var}.predict", [self.dataset(call.args[0].value)])
        return [templates.statement("{call}", self.w, call=made)]

    monkeypatch.setattr(runs.Runs, "method", batched)
    result = rewrite_text(source, "f.py")
    assert "classifier = tf.estimator.Estimator(model_fn=my_model)" in result.code  # not converted, renames kept
    vetoed = [d for d in result.diagnostics if d.code == "TFM325"]
    assert len(vetoed) == 1 and "`p['class']` reads one example's prediction" in vetoed[0].message


def test_the_check_reads_only_what_the_converter_wrote():
    """Cheap: pyflakes is imported only for a file whose Estimator program was converted."""
    import subprocess
    import sys

    from tests.conftest import ROOT, TF1_SAMPLE

    code = ("import sys\nfrom tf2migrate.engine.api import rewrite_text\n"
            "assert 'strategy.run(' in rewrite_text(sys.argv[1], 'f.py').code\n"
            "before = 'pyflakes' in sys.modules\n"
            "rewrite_text(sys.argv[2], 'g.py')\n"
            "print(before, 'pyflakes' in sys.modules, 'tensorflow' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code, TF1_SAMPLE, KEPT_RESULT], capture_output=True, text=True,
                          cwd=ROOT)
    assert done.stdout.split() == ["False", "True", "False"], done.stderr


def test_a_conversion_that_does_not_compile_is_not_written(monkeypatch):
    from tf2migrate.rules.estimator.writing import output_check

    problem = output_check.problem

    def broken(before, after, path, models=frozenset()):  # as if the converter had written a syntax error
        return problem(before, after + "def (:\n", path, models)

    monkeypatch.setattr(output_check, "problem", broken)
    result = rewrite_text(KEPT_RESULT, "f.py")
    assert "strategy.run(lambda: 1.0)" in result.code and "keras" not in result.code
    vetoed = [d for d in result.diagnostics if d.code == "TFM325"]
    assert len(vetoed) == 1 and "its output does not compile (invalid syntax" in vetoed[0].message
