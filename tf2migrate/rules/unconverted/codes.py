"""TFM350-TFM352: an Estimator-world construct left in the file, by how much it matters.

Report only: each finding says why the construct was not converted and what replaces it in TF2. The
examples below are tests (tests/test_rule_examples.py): their `before` must be reported and left as is.
"""
from __future__ import annotations

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import RuleInfo

_WHY_GONE = ("TF 2.15 is the last TensorFlow with tf.estimator (tensorflow_estimator); tf.contrib went in TF "
             "2.0. A program that still uses them does not run on TF 2.16 or later, so every such line is "
             "reported as an error (`check` and `rewrite` exit 1 while one stands), whatever the reason it was not "
             "converted: ")

INFOS = (
    RuleInfo(
        code="TFM350", name="estimator-not-converted", fix="report only", severity=Severity.ERROR,
        summary="an Estimator (custom, canned, TPU, contrib.learn, model_to_estimator) left unconverted",
        message="Estimator not converted",
        why=_WHY_GONE + "the converter has no model for this kind of Estimator (TPUEstimator, BoostedTrees, "
            "DNNLinearCombined, Baseline, contrib.learn, ...), or it is built where the converter does not look "
            "(returned by a helper, in a nested block), or its conversion is blocked (TFM302 says by what, and the "
            "line that builds the Estimator gets this finding too). "
            "Rebuild the model in Keras and train it with compile/fit under a tf.distribute strategy "
            "(TPUStrategy for a TPUEstimator, with steps_per_execution = iterations_per_loop); for "
            "model_to_estimator, train the Keras model with fit directly.",
        before='import tensorflow as tf\n\ncolumns = [tf.feature_column.numeric_column("x")]\n'
               'estimator = tf.estimator.BoostedTreesRegressor(feature_columns=columns, n_batches_per_layer=1)\n'
               'estimator.train(input_fn=train_input_fn, max_steps=100)\n'),
    RuleInfo(
        code="TFM351", name="estimator-run-not-converted", fix="report only", severity=Severity.ERROR,
        summary="TrainSpec/EvalSpec/train_and_evaluate, RunConfig/TPUConfig, hooks or exporters left unconverted",
        message="Estimator training piece not converted",
        why=_WHY_GONE + "these drive an Estimator that was not converted, often one built in another module "
            "(`estimator = model.build_estimator(...)`). TrainSpec/EvalSpec/train_and_evaluate become "
            "model.fit/model.evaluate with the same input and steps; RunConfig becomes a tf.distribute strategy "
            "and Keras callbacks (ModelCheckpoint, BackupAndRestore); a session hook becomes a "
            "tf.keras.callbacks.Callback (a tf.train hook counts only where no MonitoredSession runs it); an "
            "exporter becomes model.save or tf.saved_model.save with a serving signature.",
        before='import tensorflow as tf\n\nfrom trainer import model\n\n'
               'estimator = model.build_estimator("/tmp/model")\n'
               'train_spec = tf.estimator.TrainSpec(input_fn=model.train_input_fn, max_steps=1000)\n'
               'eval_spec = tf.estimator.EvalSpec(input_fn=model.eval_input_fn)\n'
               'tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)\n'),
    RuleInfo(
        code="TFM352", name="estimator-api-left", fix="report only", severity=Severity.ERROR,
        summary="another tf.estimator name (EstimatorSpec, ModeKeys, heads, inputs, ...) left unconverted",
        message="Estimator API not converted",
        why=_WHY_GONE + "EstimatorSpec, ModeKeys, heads, numpy_input_fn and the other pieces of a model_fn or "
            "input_fn go away with the conversion of the Estimator program they belong to; where they stay, "
            "that program was not converted. Rewrite the function for Keras (`training=` instead of ModeKeys, "
            "a tf.data pipeline instead of numpy_input_fn).",
        before='import tensorflow as tf\n\n\ndef input_fn(mode):\n'
               '    dataset = tf.data.Dataset.range(8)\n'
               '    if mode == tf.estimator.ModeKeys.TRAIN:\n'
               '        dataset = dataset.shuffle(8).repeat()\n'
               '    return dataset.batch(2)\n'),
)
