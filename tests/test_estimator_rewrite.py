"""Estimator -> Keras (TFM3xx): the program fixtures, the never-half-convert rule, --strategy, suppression.

Each `fixtures/programs/est_*/migrated.py` is the reviewed output of `tf2migrate rewrite` on its
`original.py`; the harness's own test verifies the pairs train the same (`verify.toml`).
"""
from __future__ import annotations

import tomllib

import pytest

from tf2migrate.engine.api import Selection, rewrite_text
from tests.conftest import ROOT
from tests.program_pairs import expected, is_pair, rewrite_again, rewrite_pair

PAIRS = sorted(p for p in (ROOT / "fixtures" / "programs").glob("est_*") if is_pair(p))
SEED = (ROOT / "fixtures" / "programs" / "est_seed_local" / "original.py").read_text(encoding="utf-8")


def test_there_are_enough_program_pairs():
    assert len(PAIRS) >= 12


def _selection(folder) -> Selection:
    """The rewrite options of a pair: `rewrite.toml` (e.g. `strategy = "multi-worker"`), else the defaults."""
    options = folder / "rewrite.toml"
    return Selection(**tomllib.loads(options.read_text(encoding="utf-8"))) if options.exists() else Selection()


@pytest.mark.parametrize("folder", PAIRS, ids=lambda p: p.name)
def test_program_pair_is_the_rewrite(folder):
    """A script pair, or a package pair (every file of `migrated/` against the rewritten `original/` tree)."""
    tree, codes = rewrite_pair(folder, _selection(folder))
    assert tree == expected(folder, tree)
    for name, code in tree.items():
        compile(code, str(folder / name), "exec")
    assert "TFM301" in codes
    assert rewrite_again(folder, tree, _selection(folder)) == tree, "second rewrite is not a no-op"


BLOCKED = '''import tensorflow.compat.v1 as tf1


class StepCounter(tf1.train.SessionRunHook):
    def after_run(self, run_context, run_values):
        print(run_values)


def model_fn(features, labels, mode):
    net = tf1.contrib.layers.fully_connected(features, 8)
    tf1.add_to_collection("nets", net)
    logits = tf1.layers.dense(net, 1)
    loss = tf1.losses.mean_squared_error(labels, logits)
    optimizer = tf1.train.AdagradOptimizer(0.05)
    train_op = optimizer.minimize(loss, global_step=tf1.train.get_global_step())
    return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


estimator = tf1.estimator.Estimator(model_fn=model_fn)
estimator.train(input_fn=train_input_fn, steps=10, hooks=[StepCounter()])
'''


def test_unsupported_constructs_leave_the_program_byte_identical():
    # the generated TF1 -> TF2 tables (TFM6xx) would rename tf1.train.SessionRunHook: not what this is about
    result = rewrite_text(BLOCKED, "blocked.py", Selection(ignore=("TFM6",)))
    assert result.code == BLOCKED
    blocking = [d for d in result.diagnostics if d.code in ("TFM302", "TFM308")]
    lines = [d.line for d in blocking]
    assert sorted(lines) == [10, 11, 20]  # contrib, collection, custom hook: one diagnostic per line
    assert all(not d.fixed for d in blocking)
    assert "tf.contrib" in next(d.message for d in blocking if d.line == 10)
    assert "on_train_batch_end" in next(d.message for d in blocking if d.line == 20)


def _converter(result) -> list:
    """The converter's own findings (TFM35x report every Estimator line it leaves: tests/test_never_silent.py)."""
    return [d for d in result.diagnostics if not d.code.startswith("TFM35")]


def test_estimator_used_elsewhere_blocks_instead_of_half_converting():
    source = SEED + "print(estimator.model_dir)\n"
    result = rewrite_text(source, "seed.py")
    assert result.code == source
    assert [d.code for d in _converter(result) if not d.fixed] == ["TFM302"]
    never_silent = {d.line for d in result.diagnostics if d.code.startswith("TFM35")}
    reported = never_silent | {d.line for d in _converter(result)}
    assert {i + 1 for i, line in enumerate(source.splitlines()) if "tf1.estimator." in line} <= reported


def test_shim_when_the_forward_pass_does_not_convert():
    source = (ROOT / "fixtures" / "programs" / "est_shim" / "original.py").read_text(encoding="utf-8")
    result = rewrite_text(source, "shim.py")
    assert "@tf.compat.v1.keras.utils.track_tf1_style_variables" in result.code
    assert 'weights = tf1.get_variable("weights", [2, 1])' in result.code
    assert "TFM313" in {d.code for d in result.diagnostics}


@pytest.mark.parametrize("strategy,expected", [
    ("parameter-server", "strategy = tf.distribute.experimental.ParameterServerStrategy(cluster_resolver)"),
    ("multi-worker", "strategy = tf.distribute.MultiWorkerMirroredStrategy()"),
    ("mirrored", "strategy = tf.distribute.MirroredStrategy()"),
])
def test_strategy_option_on_the_seed(strategy, expected):
    result = rewrite_text(SEED, "seed.py", Selection(strategy=strategy))
    assert expected in result.code
    assert "with strategy.scope():\n    model = _build_model()\n" in result.code
    compile(result.code, "seed.py", "exec")
    assert rewrite_text(result.code, "again.py", Selection(strategy=strategy)).code == result.code


def test_strategy_none_builds_no_strategy_even_when_runconfig_names_one():
    source = (ROOT / "fixtures" / "programs" / "est_mirrored_runconfig" / "original.py").read_text(encoding="utf-8")
    result = rewrite_text(source, "mirrored.py", Selection(strategy="none"))
    assert "tf.distribute" not in result.code and "scope()" not in result.code
    assert "model = build_model()\n" in result.code


def test_parameter_server_chief_coordinates_and_tasks_serve():
    result = rewrite_text(SEED, "seed.py", Selection(strategy="parameter-server"))
    assert 'if cluster_resolver.task_type in ("worker", "ps"):' in result.code
    assert "server.join()" in result.code
    # every TF1 training task read the whole input once: as many passes as TF2 has workers
    assert ('    train_dataset.repeat(),\n'
            '    steps_per_epoch=len(train_dataset) * cluster_resolver.cluster_spec().num_tasks("worker"),\n') in result.code
    assert "model.evaluate(eval_dataset, steps=len(eval_dataset), return_dict=True)" in result.code
    assert "TFM310" in {d.code for d in result.diagnostics}


def test_skip_file_leaves_an_estimator_program_alone():
    source = "# tf2migrate: skip-file\n" + SEED
    result = rewrite_text(source, "seed.py")
    assert result.code == source
    assert result.diagnostics == []


def test_skip_comment_on_the_estimator_line():
    source = SEED.replace("estimator = tf1.estimator.Estimator(model_fn=_model_fn)",
                          "estimator = tf1.estimator.Estimator(model_fn=_model_fn)  # tf2migrate: skip[TFM301]")
    assert rewrite_text(source, "seed.py").code == source


HEAD = "import tensorflow.compat.v1 as tf1\n\n\n"
MODEL_FN = '''def model_fn(features, labels, mode):
    logits = tf1.layers.dense(features, 1)
    loss = tf1.losses.mean_squared_error(labels, logits)
    train_op = tf1.train.AdamOptimizer().minimize(loss, global_step=tf1.train.get_global_step())
    return tf1.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


'''


def test_training_in_a_loop_keeps_the_loop_and_the_optimizer_numbers():
    source = HEAD + MODEL_FN + '''est = tf1.estimator.Estimator(model_fn)
for epoch in range(3):
    est.train(input_fn, steps=10)
    print(est.evaluate(eval_fn))
'''
    result = rewrite_text(source, "loop.py")
    assert "optimizer = tf.keras.optimizers.Adam(0.001, epsilon=1e-8)" in result.code
    assert ("for epoch in range(3):\n    model.fit(input_fn(), steps_per_epoch=10)\n"
            "    print(model.evaluate(eval_fn(), return_dict=True))\n") in result.code
    assert rewrite_text(result.code, "again.py").code == result.code


def test_max_steps_in_a_loop_blocks():
    source = HEAD + MODEL_FN + '''est = tf1.estimator.Estimator(model_fn)
for epoch in range(3):
    est.train(input_fn, max_steps=10)
'''
    result = rewrite_text(source, "loop.py")
    assert result.code == source
    assert [(d.line, d.code) for d in _converter(result)] == [(13, "TFM302")]


def test_cond_on_the_mode_blocks():
    source = HEAD + MODEL_FN.replace("    logits = tf1.layers.dense(features, 1)\n", (
        "    x = tf1.cond(tf1.equal(mode, 'train'), lambda: features * 2, lambda: features)\n"
        "    logits = tf1.layers.dense(x, 1)\n")) + "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n"
    result = rewrite_text(source, "cond.py")
    assert result.code == source
    assert [(d.line, d.code) for d in _converter(result)] == [(5, "TFM302")]
    assert "tf.cond" in result.diagnostics[0].message


def test_canned_linear_classifier_states_tf1_defaults():
    source = HEAD + '''cols = [tf1.feature_column.numeric_column("a"), tf1.feature_column.numeric_column("b")]
est = tf1.estimator.LinearClassifier(feature_columns=cols, n_classes=3)
est.train(input_fn=lambda: make_input(True), steps=20)
'''
    result = rewrite_text(source, "linear.py")
    assert 'tf.keras.layers.Dense(3, kernel_initializer="zeros")' in result.code
    assert "tf.keras.optimizers.Ftrl(0.2, initial_accumulator_value=0.1)" in result.code
    assert 'SparseCategoricalCrossentropy(from_logits=True, reduction="sum")' in result.code
    assert "model.fit(make_input(True), steps_per_epoch=20)" in result.code


def test_canned_estimator_argument_without_equivalent_blocks():
    source = HEAD + '''cols = [tf1.feature_column.numeric_column("a")]
est = tf1.estimator.DNNClassifier(hidden_units=[4], feature_columns=cols, optimizer="Adam")
est.train(input_fn=input_fn, steps=20)
'''
    result = rewrite_text(source, "dnn.py")
    assert result.code == source
    assert [d.code for d in _converter(result)] == ["TFM302"]
    # the blocker says why; TFM350 that the Estimator built on that line does not run on TF 2.16+
    assert [(d.line, d.code) for d in result.diagnostics if d.code == "TFM350"] == [
        (next(d.line for d in result.diagnostics if d.code == "TFM302"), "TFM350")]


def test_generated_names_do_not_collide_with_the_users():
    source = HEAD + "RMSpropTF1 = 1\nmodel = 2\n\n\n" + MODEL_FN.replace(
        "tf1.train.AdamOptimizer()", "tf1.train.RMSPropOptimizer(0.1)") + (
        "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n")
    result = rewrite_text(source, "names.py")
    assert "class RMSpropTF1_2(tf.keras.optimizers.RMSprop):" in result.code
    assert "model_2 = build_model()" in result.code
    compile(result.code, "names.py", "exec")


def test_estimator_in_main_is_converted_in_place():
    source = HEAD + MODEL_FN + '''def main():
    est = tf1.estimator.Estimator(model_fn=model_fn)
    est.train(input_fn, steps=1)


main()
'''
    result = rewrite_text(source, "main.py")
    assert (12, "TFM301") in [(d.line, d.code) for d in result.diagnostics]
    main = result.code[result.code.index("def main():"):]
    assert main.startswith("def main():\n    model = ") and "    model.fit(" in main and main.endswith("\n\n\nmain()\n")
    assert "Estimator" not in result.code and "def model_fn" not in result.code   # the builder replaced it
    compile(result.code, "main.py", "exec")
    assert rewrite_text(result.code, "main.py").code == result.code


def test_estimator_in_an_if_block_of_main_is_converted_in_place():
    source = HEAD + MODEL_FN + '''def main(train):
    if train:
        est = tf1.estimator.Estimator(model_fn=model_fn)
        est.train(input_fn, steps=1)
'''
    result = rewrite_text(source, "main.py")
    assert (13, "TFM301") in [(d.line, d.code) for d in result.diagnostics]
    main = result.code[result.code.index("def main(train):"):]
    assert main == "def main(train):\n    if train:\n        model = build_model()\n        model.fit(input_fn(), steps_per_epoch=1)\n"
    assert rewrite_text(result.code, "main.py").code == result.code


def test_estimator_in_a_nested_block_or_two_functions_is_reported_not_converted():
    nested = HEAD + MODEL_FN + '''def main(train):
    if train:
        est = tf1.estimator.Estimator(model_fn=model_fn)
        est.train(input_fn, steps=1)
    else:
        print("not trained")
'''
    two = HEAD + MODEL_FN + '''def a():
    est = tf1.estimator.Estimator(model_fn=model_fn)
    est.train(input_fn, steps=1)


def b():
    est = tf1.estimator.Estimator(model_fn=model_fn)
    est.train(input_fn, steps=1)
'''
    for source, lines in ((nested, [13]), (two, [12, 17])):
        result = rewrite_text(source, "main.py")
        assert result.code == source
        assert [(d.line, d.code) for d in _converter(result)] == [(line, "TFM302") for line in lines]


def test_a_second_estimator_blocks():
    source = HEAD + MODEL_FN + '''est = tf1.estimator.Estimator(model_fn=model_fn)
other = tf1.estimator.Estimator(model_fn=model_fn)
est.train(input_fn, steps=1)
other.train(input_fn, steps=1)
'''
    result = rewrite_text(source, "two.py")
    assert result.code == source
    assert 12 in [d.line for d in result.diagnostics if d.code == "TFM302"]


def test_end_of_line_comments_of_replaced_statements_are_kept():
    source = HEAD + MODEL_FN + '''est = tf1.estimator.Estimator(model_fn)  # one model for the whole run
est.train(input_fn, steps=1)  # a single step: a smoke test
'''
    result = rewrite_text(source, "comments.py")
    assert "model = build_model()  # one model for the whole run\n" in result.code
    assert "model.fit(input_fn(), steps_per_epoch=1)  # a single step: a smoke test\n" in result.code
    assert rewrite_text(result.code, "comments.py").code == result.code


def test_a_loss_on_something_other_than_the_labels_is_kept_in_a_model_subclass():
    source = HEAD + MODEL_FN.replace("mean_squared_error(labels, logits)", "mean_squared_error(labels * 2, logits)") + (
        "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n")
    result = rewrite_text(source, "labels.py")
    assert "            loss = tf1.losses.mean_squared_error(labels * 2, logits)\n" in result.code  # in train_step
    assert [d.code for d in result.diagnostics if d.code in ("TFM302", "TFM321")] == ["TFM321"]


def test_nested_layers_are_sequential_and_a_layer_loop_becomes_a_comprehension():
    source = HEAD + MODEL_FN.replace("    logits = tf1.layers.dense(features, 1)\n", (
        "    net = tf1.layers.dense(tf1.layers.dense(features, 8), 4)\n"
        "    for units in [3, 2]:\n"
        "        net = tf1.layers.dense(net, units)\n"
        "    logits = tf1.layers.dense(net, 1)\n")) + "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n"
    result = rewrite_text(source, "loop.py")
    assert ("    model = tf.keras.Sequential([\n        tf.keras.layers.Dense(8),\n        tf.keras.layers.Dense(4),\n"
            "        *[tf.keras.layers.Dense(units) for units in [3, 2]],\n        tf.keras.layers.Dense(1),\n    ])\n"
            ) in result.code


def test_a_loop_that_is_not_one_layer_per_pass_stays_in_the_shim():
    loop = ("    net = features\n"
            "    for units in [3, 2]:\n"
            "        net = tf1.layers.dense(net, units)\n"
            "        net = tf1.layers.dropout(net, 0.1)\n")
    source = HEAD + MODEL_FN.replace("    logits = tf1.layers.dense(features, 1)\n", (
        loop + "    logits = tf1.layers.dense(net, 1)\n")) + "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n"
    result = rewrite_text(source, "loop.py")
    assert "TFM313" in {d.code for d in result.diagnostics}
    # unnamed tf1.layers in the shim: call re-enters the variable scope, so that Keras' second trace reuses
    # `dense`'s variables instead of making `dense_2`'s (a failure at the first step before, issue 17)
    assert "".join("        " + line for line in loop.splitlines(keepends=True)) in result.code
    assert "with tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope()):\n" in result.code


def test_a_helper_that_returns_the_estimator_is_read_through_its_call():
    helper = '''def build_estimator(config=None, params=None):
    """A docstring."""
    return tf1.estimator.Estimator(model_fn, config=config, params=params)


'''
    source = HEAD + MODEL_FN + helper + "est = build_estimator(params={'n': 1})\nest.train(input_fn, steps=1)\n"
    result = rewrite_text(source, "helper.py")
    assert "def build_estimator" not in result.code and "model = build_model({'n': 1})\n" in result.code
    computed = HEAD + MODEL_FN + helper.replace("params=params", "params=dict(params)") + (
        "est = build_estimator(params={'n': 1})\nest.train(input_fn, steps=1)\n")
    result = rewrite_text(computed, "helper.py")
    assert result.code == computed
    assert [(d.line, d.code) for d in result.diagnostics if d.code == "TFM302"] == [(13, "TFM302")]
    used_twice = source + "other = build_estimator()\n"
    assert rewrite_text(used_twice, "helper.py").code == used_twice


@pytest.mark.parametrize("hook,converted", [
    ("tf1.train.LoggingTensorHook({'loss': loss}, every_n_iter=2)", True),
    ("tf1.train.LoggingTensorHook({'logits': logits}, every_n_iter=2)", True),  # the log of logits: TFM323
    ("tf1.train.LoggingTensorHook({'loss': loss}, every_n_secs=2)", False),
    ("tf1.train.ProfilerHook(save_steps=2, output_dir='/tmp/p')", False),
    ("tf1.train.SummarySaverHook(save_secs=5, output_dir='/tmp/s', summary_op=tf1.summary.merge_all())", False),
])
def test_training_hooks_of_the_model_fn_become_callbacks_or_block(hook, converted):
    source = HEAD + MODEL_FN.replace("train_op=train_op)", f"train_op=train_op, training_hooks=[{hook}])") + (
        "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n")
    # the TF1 -> TF2 tables (TFM6xx) rename a blocked program's hooks (tf.estimator.LoggingTensorHook): not this test
    result = rewrite_text(source, "hooks.py", Selection(ignore=("TFM6",)))
    assert (result.code != source) == converted
    if converted:
        assert "LambdaCallback" in result.code
        lost = [d for d in result.diagnostics if d.code == "TFM323"]
        assert len(lost) == ("logits" in hook) and all(d.severity.value == "warning" for d in lost)
    else:
        assert [d.line for d in result.diagnostics if d.code == "TFM302"] == [8]


SWITCH = HEAD + MODEL_FN + '''def main(distributed):
    if distributed:
        est = tf1.estimator.Estimator(model_fn, config=tf1.estimator.RunConfig(tf_random_seed=1))
    else:
        est = tf1.estimator.Estimator(model_fn)
    est.train(input_fn, steps=1)
'''


def test_an_estimator_chosen_by_if_else_keeps_the_switch():
    result = rewrite_text(SWITCH, "switch.py")
    assert ("    if distributed:\n        tf.random.set_seed(1)\n        model = build_model()\n"
            "    else:\n        model = build_model()\n    model.fit(input_fn(), steps_per_epoch=1)\n") in result.code
    assert [d.line for d in result.diagnostics if d.code == "TFM301"] == [13, 15]
    assert rewrite_text(result.code, "again.py").code == result.code


@pytest.mark.parametrize("change,why", [
    ("est = tf1.estimator.Estimator(other_fn)", "`model_fn` is used in a way"),  # the alias `other_fn = model_fn`
    ("est = tf1.estimator.Estimator(model_fn, config=tf1.estimator.RunConfig(train_distribute="
     "tf1.distribute.experimental.ParameterServerStrategy()))", "different Keras programs outside it"),
])
def test_if_else_branches_that_need_different_programs_block(change, why):
    source = SWITCH.replace("est = tf1.estimator.Estimator(model_fn)\n    est.train", change + "\n    est.train")
    source = source.replace("est.train(input_fn, steps=1)", "est.train(input_fn)")  # PS: a step count from the input
    if "other_fn" in change:
        source = source.replace("def main(", "other_fn = model_fn\n\n\ndef main(")
    result = rewrite_text(source, "switch.py")
    assert result.code == source
    assert any(why in d.message for d in result.diagnostics if d.code == "TFM302")


def test_if_else_of_two_model_fns_converts_each_to_a_builder_of_its_own():
    other = MODEL_FN.replace("model_fn", "other_fn").replace("dense(features, 1)", "dense(features, 2)")
    source = SWITCH.replace("def main(", other + "def main(").replace(
        "est = tf1.estimator.Estimator(model_fn)\n", "est = tf1.estimator.Estimator(other_fn)\n")
    result = rewrite_text(source, "switch.py")
    assert "def build_model():\n    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])" in result.code
    assert "def build_model_2():\n    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])" in result.code
    assert ("    if distributed:\n        tf.random.set_seed(1)\n        model = build_model()\n"
            "    else:\n        model = build_model_2()\n    model.fit(input_fn(), steps_per_epoch=1)\n") in result.code
    assert "EstimatorSpec" not in result.code
    assert rewrite_text(result.code, "again.py").code == result.code


def test_export_saved_model_becomes_model_save_and_its_path_blocks():
    serving = "def serving_fn():\n    x = tf1.placeholder(tf1.float32, [None, 2])\n    return x\n\n\n"
    source = HEAD + MODEL_FN + serving + "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n"
    result = rewrite_text(source + "est.export_saved_model('/tmp/export', serving_fn)\n", "export.py")
    # Keras 3's save writes only .keras/.h5: the SavedModel comes from export (Keras 2.13+ has it too)
    assert result.code.endswith("model.fit(input_fn(), steps_per_epoch=1)\nmodel.export('/tmp/export')\n")
    legacy = rewrite_text(source + "est.export_saved_model('/tmp/export', serving_fn)\n", "export.py",
                          Selection(target="tf-keras"))
    assert legacy.code.endswith("model.fit(input_fn(), steps_per_epoch=1)\nmodel.save('/tmp/export')\n")
    assert "def serving_fn" not in result.code and "TFM318" in {d.code for d in result.diagnostics}
    kept = source + "est.export_saved_model('/tmp/export', serving_fn)\nserving_fn()\n"
    assert "def serving_fn" in rewrite_text(kept, "export.py").code  # still used: kept
    assigned = source + "path = est.export_saved_model('/tmp/export', serving_fn)\n"
    assert rewrite_text(assigned, "export.py").code == assigned


TPU_MODEL_FN = '''def model_fn(features, labels, mode, params):
    logits = tf1.layers.dense(features, 3)
    loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf1.train.AdamOptimizer().minimize(loss, global_step=tf1.train.get_global_step())
METRIC_FN
    return tf1.estimator.tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op, eval_metrics=(metric_fn, [labels, logits]))


est = tf1.estimator.tpu.TPUEstimator(model_fn, use_tpu=False, train_batch_size=4, eval_batch_size=2)
est.evaluate(input_fn, steps=1)
'''


@pytest.mark.parametrize("metric_fn,converted", [
    ("    def metric_fn(labels, logits):\n        return {'acc': tf1.metrics.accuracy(labels, tf1.argmax(logits, 1))}\n",
     True),
    ("    def metric_fn(y, scores):\n        predicted = tf1.argmax(scores, 1)\n"
     "        return {'acc': tf1.metrics.accuracy(labels=y, predictions=predicted)}\n", True),
    ("    def metric_fn(labels, logits):\n        return {'iou': tf1.metrics.mean_iou(labels, tf1.argmax(logits, 1), 3)}\n",
     False),
])
def test_tpu_eval_metrics_of_a_metric_fn(metric_fn, converted):
    source = HEAD + TPU_MODEL_FN.replace("METRIC_FN\n", metric_fn)
    result = rewrite_text(source, "tpu.py")
    if converted:
        assert "metrics=[tf.keras.metrics.SparseCategoricalAccuracy(name='acc')]" in result.code
        assert [d.line for d in result.diagnostics if d.code == "TFM306"] == [10 if "predicted" in metric_fn else 9]
        assert "model.evaluate(input_fn(), steps=1, return_dict=True)" in result.code
        assert "tf.distribute" not in result.code  # use_tpu=False: no strategy at all
    else:
        assert result.code == source


def test_input_functions_return_their_dataset_and_params_comments_stay():
    source = HEAD + MODEL_FN + '''def input_fn(n):
    dataset = tf1.data.Dataset.range(n).batch(2)
    return dataset.make_one_shot_iterator().get_next()


est = tf1.estimator.Estimator(
    model_fn,
    params={
        # the width
        "units": 3,
    })
est.train(input_fn=lambda: input_fn(4), steps=1)
'''
    result = rewrite_text(source, "input.py")
    assert "    dataset = tf.data.Dataset.range(n).batch(2)\n    return dataset\n" in result.code
    assert [(d.line, d.col) for d in result.diagnostics if "returns its dataset" in d.message] == [(13, 12)]
    assert 'model = build_model({\n    # the width\n    "units": 3,\n})\n' in result.code


def test_arithmetic_with_a_number_on_the_input_is_a_lambda_layer():
    source = HEAD + MODEL_FN.replace("    logits = tf1.layers.dense(features, 1)\n",
                                     "    image = features / 255.\n    logits = tf1.layers.dense(image, 1)\n")
    result = rewrite_text(source + "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n", "x.py")
    assert "tf.keras.layers.Lambda(lambda features: features / 255.),\n" in result.code
    other = source.replace("features / 255.", "features / labels") + (
        "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n")
    assert rewrite_text(other, "x.py").code == other  # not a constant: no layer (and labels: no shim either)


def test_a_run_assigned_from_a_multi_line_input_expression_stays_one_statement():
    source = HEAD + MODEL_FN + '''est = tf1.estimator.Estimator(model_fn)
result = est.evaluate(
    input_fn=lambda: make_input(x, y,
                                batch))
'''
    result = rewrite_text(source, "x.py")
    assert "result = model.evaluate(make_input(x, y,\n                                batch), return_dict=True)\n" in result.code
    compile(result.code, "x.py", "exec")


def test_the_shim_takes_params_and_the_training_flag_but_no_other_use_of_mode():
    forward = ("    a = tf1.layers.dense(features['a'], params['units'])\n"
               "    b = tf1.layers.dense(features['b'], params['units'])\n"
               "    net = tf1.layers.dropout(tf1.concat([a, b], 1), 0.5, training=mode == tf1.estimator.ModeKeys.TRAIN)\n"
               "    logits = tf1.layers.dense(net, 1)\n")
    source = HEAD + MODEL_FN.replace("(features, labels, mode)", "(features, labels, mode, params)").replace(
        "    logits = tf1.layers.dense(features, 1)\n", forward) + (
        "est = tf1.estimator.Estimator(model_fn, params={'units': 2})\nest.train(input_fn, steps=1)\n")
    result = rewrite_text(source, "shim.py")
    assert "    def call(self, features, training=None):\n        params = self.params\n" in result.code
    assert "0.5, training=training)\n" in result.code and "model = tf.keras.Sequential([ModelFnLayer(params)])" in result.code
    predict = source.replace("mode == tf1.estimator.ModeKeys.TRAIN", "mode == tf1.estimator.ModeKeys.PREDICT")
    assert rewrite_text(predict, "shim.py").code == predict


@pytest.mark.parametrize("penalty,converted", [
    ("    loss = loss + 0.1 * tf1.add_n([tf1.nn.l2_loss(v) for v in tf1.trainable_variables()])\n", True),
    ("    loss += 0.1 * tf1.add_n([tf1.nn.l2_loss(v) for v in tf1.trainable_variables()])\n", True),
    # a penalty reading a tensor, or one the loss does not get: the loss as written, in a Model subclass (TFM321)
    ("    loss += 0.1 * tf1.nn.l2_loss(logits) * tf1.add_n(tf1.trainable_variables())\n", False),
    ("    total = loss + 0.1 * tf1.add_n([tf1.nn.l2_loss(v) for v in tf1.trainable_variables()])\n", False),
])
def test_weight_decay_added_to_the_loss(penalty, converted):
    source = HEAD + MODEL_FN.replace("    train_op", penalty + "    train_op") + (
        "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n")
    result = rewrite_text(source, "decay.py")
    assert result.code != source
    assert ("TFM321" in {d.code for d in result.diagnostics}) == (not converted)
    if not converted:
        assert "tf1.trainable_variables()" not in result.code and "self.trainable_variables" in result.code
    if converted:
        assert "    model.add_loss(lambda: 0.1 * tf.add_n([tf.nn.l2_loss(v) for v in model.trainable_variables]))\n" \
            in result.code


def test_a_strategy_chosen_by_if_else_is_made_where_the_program_chose_it():
    source = HEAD + MODEL_FN + '''def main(gpus):
    if gpus > 1:
        strategy = tf1.distribute.MirroredStrategy()
    else:
        strategy = None
    config = tf1.estimator.RunConfig(train_distribute=strategy)
    est = tf1.estimator.Estimator(model_fn, config=config)
    est.train(input_fn, steps=1)
'''
    result = rewrite_text(source, "strategy.py")
    assert ("    if gpus > 1:\n        strategy = tf.distribute.MirroredStrategy()\n    else:\n"
            "        strategy = tf.distribute.get_strategy()\n    with strategy.scope():\n        model = build_model()\n"
            "    model.fit(strategy.distribute_datasets_from_function(lambda _: input_fn()), steps_per_epoch=1)\n"
            ) in result.code
    assert rewrite_text(result.code, "again.py").code == result.code
    unknown = source.replace("strategy = None", "strategy = make_strategy()")
    assert rewrite_text(unknown, "strategy.py").code == unknown


def test_a_strategy_chosen_in_an_expression_needing_several_statements_blocks():
    source = HEAD + MODEL_FN + '''strategy = tf1.distribute.experimental.ParameterServerStrategy() if ps else None
est = tf1.estimator.Estimator(model_fn, config=tf1.estimator.RunConfig(train_distribute=strategy))
est.train(input_fn, steps=1)
'''
    result = rewrite_text(source, "x.py")
    assert result.code == source
    assert any("write the choice as an if/else" in d.message for d in result.diagnostics)


def test_the_general_path_reports_a_learning_rate_computed_in_the_model_fn():
    source = HEAD + MODEL_FN.replace("mean_squared_error(labels, logits)", "mean_squared_error(labels * 2, logits)").replace(
        "    train_op", "    lr = tf1.train.exponential_decay(0.1, tf1.train.get_global_step(), 10, 0.9)\n    train_op").replace(
        "AdamOptimizer()", "AdamOptimizer(lr)") + "est = tf1.estimator.Estimator(model_fn)\nest.train(input_fn, steps=1)\n"
    result = rewrite_text(source, "lr.py")
    assert result.code == source
    assert any("learning rate computed in the model_fn" in d.message for d in result.diagnostics if d.code == "TFM302")
