"""The TFM3xx codes: what each says, why, and a before/after example (`tf2migrate explain TFM3xx`)."""
from __future__ import annotations

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import RuleInfo
from tf2migrate.rules.estimator import examples

INFO = Severity.INFO
WARNING_NOTES = {"TFM320", "TFM323", "TFM336", "TFM331", "TFM335", "TFM349", "TFM353", "TFM354"}  # notes of a converted program that a user must read
NO_EXAMPLE = {"TFM324", "TFM325"}  # bugs of the converter: no input is meant to give them (test_estimator_safety)
NO_EXAMPLE |= {"TFM345"}  # two modules given together: its examples are tests/test_input_modules.py


def _info(code, name, summary, message, why, fix="automatic", severity=INFO, example=None):
    before, after = examples.PAIRS.get(example or code, ("", ""))
    return RuleInfo(code=code, name=name, summary=summary, message=message, severity=severity, fix=fix,
                    why=why, before=before, after=after)


INFOS = (
    _info("TFM301", "estimator-to-keras", "Estimator + model_fn + train_and_evaluate -> Keras model, compile, fit",
          "Estimator program converted to a Keras model compiled and trained with fit/evaluate",
          "tf_upgrade_v2 leaves Estimator, TrainSpec, EvalSpec and train_and_evaluate untouched. The model_fn's "
          "layers become a Keras Sequential model, its loss, optimizer and eval metrics become compile() "
          "arguments, and the specs become fit() and evaluate() with the same step counts and the same input "
          "functions, so the same batches arrive in the same order. The whole program is converted or nothing. "
          "It may stand at the top level of the module or in one function's body (`def main():`); there the "
          "runs stay in the function and the model_fn's builder takes the model_fn's place.",
          severity=Severity.WARNING),
    _info("TFM302", "estimator-blocked", "a construct blocks the Estimator conversion (the file is left as it was)",
          "this blocks the Estimator conversion", "The Estimator program is converted as a whole or not at all: "
          "a half-converted program would not run. Each line that blocks is reported with what to do; fix or "
          "rewrite it, then run tf2migrate again. An error: the Estimator it blocks does not run on TF 2.16+.",
          fix="report only", severity=Severity.ERROR),
    _info("TFM303", "optimizer-tf1-numbers", "TF1 optimizer -> Keras optimizer with TF1's hyperparameters spelled out",
          "optimizer converted with TF1's hyperparameters written out",
          "Keras defaults differ from TF1: Adagrad adds epsilon=1e-7 and TF1 none; Adam and Adadelta use 1e-7 "
          "where TF1 uses 1e-8 (5.6 % and 50 % off after 400 steps). The converted optimizer states TF1's values "
          "(api-mapping section 4)."),
    _info("TFM304", "rmsprop-slot", "RMSPropOptimizer -> RMSpropTF1, a Keras RMSprop whose mean-square slot starts at 1",
          "RMSProp converted to RMSpropTF1 (slot starts at 1.0 as in TF1)",
          "TF1's RMSProp starts its mean-square accumulator at 1.0, Keras at 0.0: plain RMSprop is 82 % off after "
          "400 steps. The migrated file defines a small RMSprop subclass that sets the slot to 1.0 in build(), "
          "which Keras 2.15, tf-keras and Keras 3 all call."),
    _info("TFM305", "lr-schedule", "tf1.train.*_decay(lr, global_step, ...) -> tf.keras.optimizers.schedules.*",
          "learning-rate decay converted to a Keras schedule",
          "A Keras schedule is evaluated at optimizer.iterations, which counts steps from 0 exactly like the "
          "Estimator's global step, so every step gets the same learning rate."),
    _info("TFM306", "eval-metrics", "eval_metric_ops of tf1.metrics.* -> compile(metrics=[...])",
          "eval metric converted to a Keras metric with the same name",
          "A Keras metric sees (labels, model output): accuracy of argmax(logits) becomes "
          "SparseCategoricalAccuracy, auc of sigmoid(logits) AUC(from_logits=True). The TF1 key is kept as "
          "the metric name, so evaluate(return_dict=True) answers with the same keys. TF1 summaries are dropped "
          "(use the TensorBoard callback)."),
    _info("TFM307", "hooks-to-callbacks", "StopAtStepHook / LoggingTensorHook / CheckpointSaverHook / "
          "SummarySaverHook -> step count / LambdaCallback / ModelCheckpoint / TensorBoard",
          "session hook converted", "SessionRunHooks do not exist in Keras: StopAtStepHook becomes the step "
          "count of fit, LoggingTensorHook on the loss a LambdaCallback that prints the logs, "
          "CheckpointSaverHook(save_steps) a ModelCheckpoint with that save_freq and SummarySaverHook(save_steps) "
          "a TensorBoard callback with that update_freq. The model_fn's EstimatorSpec(training_hooks=...) go to "
          "every fit, like the hooks passed to train()."),
    _info("TFM308", "custom-session-hook", "a user's SessionRunHook subclass: rewrite it as a Keras Callback",
          "custom SessionRunHook: rewrite it as a tf.keras.callbacks.Callback",
          "begin -> on_train_begin, before_run -> on_train_batch_begin, after_run -> on_train_batch_end, "
          "end -> on_train_end. The hook usually reads graph tensors through SessionRunArgs, which do not exist "
          "in Keras, so it cannot be converted automatically and blocks the Estimator conversion (an error: the "
          "Estimator it blocks does not run on TF 2.16+).", fix="report only", severity=Severity.ERROR),
    _info("TFM309", "strategy-scope", "RunConfig(train_distribute=S) / TF_CONFIG cluster -> with S.scope(): build model",
          "the model is built and compiled in the strategy's scope",
          "In TF2 the strategy is not a RunConfig setting: model, optimizer and compile must run inside "
          "strategy.scope(). A TF_CONFIG cluster with ps tasks becomes ParameterServerStrategy over a "
          "TFConfigClusterResolver, workers alone MultiWorkerMirroredStrategy. --strategy overrides the choice."),
    _info("TFM310", "ps-coordinator", "TF1's chief trained; TF2's ParameterServerStrategy chief only coordinates",
          "the TF2 chief does not train: run one more worker to keep the number of trainers",
          "In TF1 train_and_evaluate made the chief and every worker train. In TF2 the chief is the coordinator "
          "and dispatches steps to the workers: a cluster of chief + N workers trains with N workers unless one "
          "is added. The migrated program makes worker and ps tasks serve and join, as TF1 did for the ps.",
          fix="report only"),
    _info("TFM311", "partitioner-to-strategy", "variable_scope(partitioner=P) -> ParameterServerStrategy(variable_partitioner=P2)",
          "the partitioner moved to the strategy", "TF2 has one partitioner per ParameterServerStrategy "
          "(api-mapping section 1). Without a parameter server, partitioning changes no number and is dropped."),
    _info("TFM312", "canned-estimator", "DNN/Linear Regressor/Classifier with numeric columns -> Keras model",
          "canned estimator converted to the equivalent Keras model",
          "One Keras Input per numeric column (joined with Concatenate in DenseFeatures' order: by key), one "
          "Dense per hidden unit count, a logits Dense; under --target tf-keras a Sequential model starting with "
          "DenseFeatures(columns) (Keras 3 has none, TFM320). TF1's canned estimators sum the loss over the batch "
          "and default to Adagrad(0.05) (DNN) or Ftrl(0.2) (linear: optimizer='Ftrl' at 0.2, whatever the number of "
          "columns). Columns built at run time (a comprehension, or an empty list appended numeric columns in a "
          "loop) are kept as written and read by DenseFeatures (tf-keras, TFM320). A linear estimator's categorical "
          "columns (vocabulary, hash bucket, identity, bucketized, crossed) written in its list become "
          "indicator_column(column) there: DenseFeatures + Dense(1, zeros) keeps TF1's one weight per category "
          "(an id outside the vocabulary adds nothing). A TF1 optimizer given as optimizer= becomes the Keras one "
          "with TF1's numbers (TFM303)."),
    _info("TFM313", "forward-pass-shim", "model_fn forward pass that does not convert -> Keras layer with track_tf1_style_variables",
          "forward pass kept verbatim in a Keras layer (model-mapping shim)",
          "tf.compat.v1.keras.utils.track_tf1_style_variables lets a layer's call create tf1.get_variable and "
          "tf1.layers variables and tracks them as Keras weights. Used when the forward pass reads only features "
          "and everything after it converts: a non-sequential model (towers, concatenations), a loop of layers, "
          "tf1.get_variable. params reach the layer's constructor, and `mode == ModeKeys.TRAIN` becomes its "
          "`training` argument; any other use of the mode or of labels keeps the model_fn from converting. "
          "Replace it by native Keras layers when you can."),
    _info("TFM314", "predict-batched", "estimator.predict(...) -> model.predict(...) + the PREDICT dict, unbatched",
          "predict yields one prediction per example: a generator unbatches model.predict's batch",
          "Estimator.predict yields one dict per example; model.predict returns the whole output. The model_fn's "
          "PREDICT dict is computed from it by a function (by predict_step on the Model subclass path, TFM321), so "
          "the keys stay, and a generator (`examples_of`) yields it back one example at a time, with NumPy values, "
          "as Estimator.predict did: loops, zip, list and next over the result keep working (a PREDICT tensor "
          "yields its rows). Use the batched dict itself when the program wants batches. Under "
          "steps_per_execution > 1 (TPUEstimator's iterations_per_loop), `predict_all` counts the prediction "
          "input's batches first: Keras cannot predict over a dataset of unknown size then."),
    _info("TFM315", "checkpoint-callbacks", "RunConfig(model_dir, save_checkpoints_steps) -> ModelCheckpoint",
          "checkpoint settings became a ModelCheckpoint callback",
          "Keras writes checkpoints from a callback. Unlike an Estimator it does not resume from model_dir by "
          "itself: use BackupAndRestore for that. keep_checkpoint_max and summary settings have no equivalent. A "
          "model_dir read from a flag or a variable may be None at run time (the Estimator's default: it then "
          "wrote to a temporary folder nothing read again): the callback is added only when it is not None."),
    _info("TFM316", "early-stopping", "stop_if_no_decrease_hook -> EarlyStopping on the validation metric",
          "early-stopping hook converted to EarlyStopping",
          "TF1 evaluated after every checkpoint and stopped when the metric had not improved for N steps. "
          "Training is split into epochs of save_checkpoints_steps steps with validation_data, and the patience "
          "is counted in those epochs."),
    _info("TFM317", "tpu-estimator", "TPUEstimator + tpu.RunConfig(TPUConfig) -> TPUStrategy behind the same "
          "use_tpu switch, compile(steps_per_execution=iterations_per_loop)",
          "TPUEstimator converted to Keras under TPUStrategy (the default strategy when use_tpu is false)",
          "TPUStrategy over the program's own TPUClusterResolver (connected and initialized first) replaces the "
          "TPUEstimator when its use_tpu switch is true, the default strategy when it is false, as TPUEstimator "
          "then trained on the CPU. iterations_per_loop becomes steps_per_execution. The model_fn and the input "
          "functions get the params TPUEstimator gave them: the user's, batch_size (the global train batch, "
          "eval_batch_size for evaluation) and use_tpu. CrossShardOptimizer is dropped: Keras sums the replicas' "
          "gradients. eval_metrics=(metric_fn, tensors) becomes compile metrics like eval_metric_ops; host_call "
          "and scaffold_fn are reported, not converted. As Google's templates write it: a `tpu_config = "
          "TPUConfig(...)` name is read as the call, `export_to_tpu` is dropped (the model is saved once, for CPU "
          "serving), and `if params[\"use_tpu\"]: return TPUEstimatorSpec(...) else: return EstimatorSpec(...)` "
          "describes one model. A model_fn on the default path (TFM321) runs under TPUStrategy too: its loss is "
          "divided by the replicas as CrossShardOptimizer did, and its params[\"batch_size\"] is one core's batch, "
          "as TPUEstimator gave its model_fn; a save_checkpoints_steps of the TPU branch alone is kept for it "
          "(`K if use_tpu else \"epoch\"`)."),
    _info("TFM319", "loss-penalty", "loss + wd * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()]) "
          "-> model.add_loss(lambda: ... model.trainable_variables)",
          "weight decay added to the loss became a model loss over the model's variables",
          "Keras adds the losses a model collects (add_loss) to the compiled loss at every step, after it: the same "
          "sum as TF1's, in the same order. The penalty is kept as written, over model.trainable_variables "
          "instead of the graph's tf.trainable_variables()."),
    _info("TFM318", "exporters-to-save", "EvalSpec(exporters=[FinalExporter]) / export_saved_model -> model.export",
          "the model is saved as a SavedModel", "Keras writes the SavedModel itself: model.export(path) (model.save "
          "under --target tf-keras; Keras 3's save writes only .keras/.h5 files) after the last evaluation, in the "
          "folder TF1 exported to (model_dir/export/<name>, or export_dir_base), without "
          "TF1's timestamped subfolder. Its serving_default signature calls the model on its input; the "
          "serving_input_receiver_fn (TF1 placeholders) goes when nothing else uses it."),
    _info("TFM320", "keras-target", "the Keras the output is written for: keras3 (default) or tf-keras",
          "this file is written for tf-keras (Keras 2)",
          "--target keras3 (the default, also `target = \"keras3\"` in [tool.tf2migrate]) writes only APIs that "
          "Keras 3 (tf.keras on TF 2.16+) and TF 2.15's Keras 2 both have: RMSpropTF1 sets its slot in build() "
          "(Keras 3's add_variable_from_reference takes other arguments), numeric feature columns become Keras "
          "Inputs joined by Concatenate in a functional model (Keras 3 has no DenseFeatures), every optimizer keeps "
          "TF1's numbers as under Keras 2. Two things have no Keras 3 form: the model-mapping shim "
          "(track_tf1_style_variables, TFM313) and fit under ParameterServerStrategy. A file that needs one is "
          "written for tf-keras and this finding says why. --target tf-keras writes Keras 2 code (DenseFeatures) "
          "for every file. A tf-keras file sets TF_USE_LEGACY_KERAS=1 before TensorFlow is imported when the "
          "tf-keras package is installed: on TF 2.16+ `pip install tf-keras` (matching the TF version), on TF 2.15 "
          "nothing is needed.", severity=Severity.WARNING, fix="automatic"),
    _info("TFM321", "model-fn-to-model-subclass", "model_fn that is no layer chain -> tf.keras.Model subclass "
          "keeping its own code (call, train_step, test_step, predict_step)",
          "model_fn converted to a Keras Model subclass that keeps its forward pass, loss and metrics as written",
          "When the model_fn is not a chain of layers with a Keras loss (TFM301) and its forward pass cannot be "
          "cut off alone (TFM313), its own statements are kept: the forward pass (what reads features, params "
          "and `mode == ModeKeys.TRAIN`) in `call`, decorated with track_tf1_style_variables (the model-mapping "
          "shim: tf1.layers and tf1.get_variable variables become Keras weights, so tf-keras is needed on TF 2.16+, "
          "TFM320); the loss as written (one_hot labels, tf.nn.l2_loss terms, `loss += ...`) in `train_step`, "
          "which applies the optimizer with TF1's numbers; the eval_metric_ops as the Keras metrics computing the "
          "same numbers from the same arguments in `test_step`; the PREDICT dict in `predict_step`. Each step "
          "runs the model_fn's statements for its mode (`if mode == ...` resolved). Without a strategy, or "
          "under a mirrored or multi-worker one: each replica runs the step on its own batch and, as TF1's "
          "optimizer did, the loss is divided by the number of replicas before their gradients are summed. "
          "Under TPUStrategy (a TPUEstimator, TFM317) the loss is divided by the replicas as CrossShardOptimizer did, in "
          "both branches of a `use_tpu` switch. Anything else (graph collections, other metrics, a parameter-server "
          "strategy, a loss reduced "
          "with Reduction.SUM under a strategy) is reported and the program left as it was. Replace it by "
          "native Keras code when you can."),
    _info("TFM336", "still-tf1-under-shim", "what a model_fn kept in a Keras Model subclass still runs TF1-style "
          "under the shim: refactor it next", "model_fn kept as written; these parts still run TF1-style under the shim",
          "The default conversion of a model_fn (TFM321) keeps its statements as written, which is TF's recommended "
          "first step of a migration: the forward pass runs in `call` under track_tf1_style_variables (the "
          "model-mapping shim), the loss in `train_step`. It runs the same numbers, but the shim has no Keras 3 form "
          "(TFM320) and is meant to be a stage, not the end. This warning, and a comment above `call`, name what "
          "still runs TF1-style, in the order it appears: tf1.layers, tf1.get_variable and variable scopes, tf1.losses, "
          "and the program's own helper functions the forward pass calls (they build layers under the shim too). "
          "Replace them by Keras layers and losses, one at a time, checking the numbers with `tf2migrate verify`, then "
          "drop the shim.", severity=Severity.WARNING, fix="report only", example="TFM321"),
    _info("TFM333", "model-to-estimator", "model_to_estimator(keras_model=model) -> the Keras model, trained with "
          "fit", "model_to_estimator converted: the runs train the Keras model it wrapped",
          "`tf.keras.estimator.model_to_estimator` wrapped a compiled Keras model in an Estimator that trained a "
          "clone of it from its weights, with its compile's loss, metrics and optimizer; TF 2.16 removed it. The "
          "Estimator's statement goes and its runs (train_and_evaluate, train, evaluate) become fit and evaluate of "
          "the model itself; a TF1 optimizer given to compile, which TF2's Keras does not take, becomes the Keras "
          "optimizer with TF1's numbers (TFM303). Under a strategy (`train_distribute=`, or "
          "`experimental_distribute=DistributeConfig(train_distribute=...)`) the model is cloned in the strategy's "
          "scope as TF1 cloned it, with the same weights and compile, under the Estimator's name. Other arguments "
          "(keras_model_path, custom_objects, checkpoint_format, ...) are reported."),
    _info("TFM335", "estimator-wrapper", "est = add_metrics(est, fn) -> Keras metrics in compile; forward_features "
          "dropped, said", "forward_features dropped: the Keras model predicts its output alone",
          "TF1 wrapped a built canned estimator to add evaluation metrics (`tf.contrib.estimator.add_metrics`, "
          "`tf.estimator.add_metrics`) or to copy input features, such as an instance key, into its predictions "
          "(`forward_features`). The metric function's `{name: tf.metrics.X(labels, predictions[\"predictions\"])}` "
          "becomes the Keras metric computing the same number from the model's output, compiled with the model "
          "(TFM306), so evaluate reports it under the same name. forward_features changed only what predict returned: "
          "the Keras model predicts its output alone, and this warning says so; predict the keys alongside by hand "
          "where a batch prediction needs them. A wrapper of an Estimator with a model_fn, or a metric function on a "
          "classifier's predictions, is reported.", severity=Severity.WARNING, example="TFM335"),
    _info("TFM323", "logged-tensors-not-kept", "LoggingTensorHook of graph tensors -> a LambdaCallback printing "
          "Keras' logs", "LoggingTensorHook logged graph tensors by name, which Keras does not have: the "
          "LambdaCallback prints the loss and metrics every N batches instead; log those tensors from a "
          "tf.keras.callbacks.Callback if you need them",
          "A LoggingTensorHook prints the tensors it names (`{\"probabilities\": \"softmax_tensor\"}`) every N "
          "steps. Keras has no graph tensors by name: the converted program keeps the periodic log, of the "
          "logs Keras keeps (the loss and the metrics), and this warning says which log was lost. Training is "
          "not affected.", severity=Severity.WARNING),
    _info("TFM324", "estimator-converter-failed", "the Estimator converter failed on this program: it is left as "
          "it was, the file's other edits are kept", "the Estimator converter failed here: this Estimator program is "
          "left as it was", "An internal error of the Estimator converter (a bug: please report it with the file) "
          "used to fail the whole file (TFM999): nothing written, not even the safe renames of the other rules, and "
          "none of their findings. The converter's failure is now confined to the program it was converting: the "
          "file gets every other rule's edits and findings, the Estimator program stays as written, and the other "
          "TFM35x findings say what is left. An error: the Estimator does not run on TF 2.16+.",
          fix="report only", severity=Severity.ERROR),
    _info("TFM325", "estimator-output-checked", "a converted Estimator program that would not run is not written: "
          "the file keeps the other rules' edits", "the Estimator conversion was not written: its output would not run",
          "After a conversion the new module is checked before it is written: no name may be used that the "
          "conversion left undefined (pyflakes' undefined names of the output, less those the input already had), "
          "and nothing may consume a shape only the Estimator returned. A conversion that fails is not written: "
          "the file is rewritten again without it, so it keeps every other rule's edits and findings, and this "
          "finding, at the Estimator, says what would have failed. Before, such an output was written with "
          "'0 files needing attention' and failed at run time (NameError). An error: the Estimator does not run "
          "on TF 2.16+; convert the reported line by hand or write it as the converter reads it.",
          fix="report only", severity=Severity.ERROR),
    _info("TFM327", "keras-layers-made-once", "Keras layers made in a model_fn's forward pass -> made once by the "
          "Keras Model subclass (made_once)", "the Keras layers this model_fn makes in its forward pass are made once, "
          "at the model's first call, and kept in the model (made_once)",
          "TF1 built a model_fn's graph once per mode, so `tf.keras.layers.Dense(128)(x)` written in it made one "
          "layer. Kept in `call` as written (TFM321), the layer would be made anew at every trace, which tf.function "
          "refuses ('only supports singleton tf.Variables created on the first call'). Each Keras layer (or a class "
          "of the module derived from a Keras class) constructed directly in the forward pass is written "
          "`self.made_once(key, lambda: <construction>)`: made at the first call, kept in the model's `keras_made` "
          "dict (its weights are the model's, they train and are saved), the same object at every later call. "
          "One made in a loop, a comprehension, a lambda or a helper function would be one layer per pass: that is "
          "reported (TFM302) and the program left as it was. Next step: make these layers in `__init__`."),
    _info("TFM326", "shim-partitioned-lookup", "embedding_lookup(partition_strategy=\"mod\") of a partitioned "
          "variable in a forward pass the Keras shim would keep: not converted",
          "embedding_lookup reads a partitioned variable shard by shard (\"mod\"): the Keras shim keeps it whole",
          "The shim (TFM313) drops `variable_scope(partitioner=P)`: TF2's get_variable takes no partitioner, and "
          "without a parameter server splitting a variable changes no number, as long as its rows are read in "
          "order. TF1's embedding_lookup over the shards read id i from shard i % n at row i // n "
          "(partition_strategy=\"mod\", the default), which is not row i of the whole variable: the converted "
          "model would compute other numbers from the same initial values (measured: DIVERGED at the first step). "
          "With partition_strategy=\"div\" the shards are read in order and the program converts.",
          fix="report only", severity=Severity.ERROR),
    _info("TFM330", "canned-results", "what a canned estimator's evaluate/predict gave back -> Keras metrics and "
          "the head's PREDICT dict", "the canned estimator's evaluate key is a Keras metric of the same name",
          "A canned estimator's evaluate reported its head's metrics beside `loss`: `accuracy` (class ids against "
          "labels) and `average_loss` (the per-example loss averaged over all examples). A key the program reads "
          "becomes a compiled Keras metric of that name computing the same number from the logits "
          "(SparseCategoricalAccuracy, BinaryAccuracy(threshold=0) for two classes, the loss's own metric class "
          "from_logits), so model.evaluate(return_dict=True) answers it. Its predict yielded the head's dict per "
          "example (logits, probabilities, class_ids, classes, all_class_ids, all_classes; logistic for two "
          "classes; predictions for a regressor): `predictions_of` computes it from model.predict's logits and "
          "`examples_of` unbatches it (TFM314). Other keys (auc, precision, label/mean...) still block."),
    _info("TFM331", "input-fn-other-module", "an input function imported from another module -> Keras iterates "
          "what it returns: it must return its dataset", "the input function comes from another module: check that "
          "it returns its tf.data.Dataset",
          "The Estimator called its input function and accepted a dataset or the tensors of an iterator's "
          "get_next() (TF's get-started iris_data.py returns `dataset.make_one_shot_iterator().get_next()`). Keras' "
          "fit, evaluate and predict iterate what the function returns: a dataset, as the converter makes the "
          "input functions of the converted file return (TFM301), but from an iterator's tensors they would take "
          "one batch for the whole input. A function of another module is not read by this conversion, so the "
          "call is written as for a dataset and this warning says what to check there.",
          severity=Severity.WARNING, fix="report only"),
    _info("TFM322", "estimator-other-module", "an Estimator built by a helper of another module: rewrite the "
          "whole package", "the Estimator comes from another module: pass the whole package to tf2migrate rewrite",
          "Trainer packages build the Estimator in one module (`model.build_estimator(config, params)` in model.py) "
          "and train it in another (task.py). The two convert together: the model_fn becomes `build_model(params)` "
          "in model.py and task.py calls `model.build_model(...)` in the strategy's scope. That needs both files in "
          "one run (`tf2migrate rewrite trainer/`); a run given only one of them cannot convert either without "
          "leaving the other broken, so it changes neither and says so at the helper's call (or its `return`).",
          fix="report only", severity=Severity.WARNING),
    _info("TFM348", "replicate-model-fn", "tf.contrib.estimator.replicate_model_fn switched on by the program -> "
          "a MirroredStrategy made where it was switched on", "replicate_model_fn's towers became a MirroredStrategy "
          "made where the program chose them (the default strategy otherwise); TowerOptimizer dropped",
          "TF1's multi-GPU towers (`model_function = replicate_model_fn(model_fn, loss_reduction=MEAN)` under "
          "`if flags.multi_gpu:`, TowerOptimizer around the optimizer in the model_fn) split each batch over the "
          "GPUs and averaged the towers' gradients. TF2 has neither; a tf.distribute.MirroredStrategy splits the "
          "batch Keras gives it, and the converted step divides the loss by the replicas before their gradients "
          "are summed: the same average. The alias `model_function = model_fn` becomes the default strategy, the "
          "switch's assignment the mirrored one, and the model is built in the scope of the one chosen. Another "
          "loss reduction (the towers' losses summed) or `devices=` blocks (TFM302).",
          example="TFM348"),
    _info("TFM349", "hooks-other-module", "hooks returned by a function of a module the conversion does not read "
          "-> the run converted without them, said", "the hooks that function returns are not run: write the ones "
          "that matter as Keras callbacks",
          "`train(hooks=train_hooks)` with `train_hooks = hooks_helper.get_train_hooks(...)` (Google's official "
          "models): the hooks are built by a module that is not in the file, so none of them can be read and made "
          "a callback. Keras' fit takes callbacks; the run is converted without the hooks (the statement that "
          "builds them stays) and this warning names the function. Logging and profiling hooks change no number; "
          "a hook that stops training, saves checkpoints or changes the model must be written as a "
          "tf.keras.callbacks.Callback.", severity=Severity.WARNING, fix="report only", example="TFM349"),
    _info("TFM345", "input-fn-module-returns-dataset", "an input function of another module given with the program "
          "returns its dataset, not an iterator's tensors", "the input function returns its dataset: Keras iterates it",
          "TF's get-started iris_data.py, beside premade_estimator.py, returns `dataset.make_one_shot_iterator()"
          ".get_next()` from its input functions. The Estimator accepted those tensors; Keras' fit takes them as one "
          "batch of x (DenseFeatures: 'We expected a dictionary here'), so the converted program could not run. "
          "Given with the program (the folder, or the package), that module's rewrite makes such a function "
          "return its dataset, exactly when the program converts and uses the function only as input_fn= (nothing "
          "else calls it; one program per function). The program notes it at the call; where the module could "
          "not follow (another caller, another shape), the program blocks (TFM302) with that cause. Given alone, "
          "the program keeps TFM331's warning."),
    _info("TFM353", "canned-results-read-whole", "a canned estimator's evaluate results printed or iterated whole -> "
          "the head's metrics Keras computes compiled, the others named", "the program reads evaluate's results "
          "whole: the keys Keras does not give back are named; add the metrics it needs by hand",
          "A canned estimator's evaluate returned its head's metrics beside loss and global_step (measured on TF "
          "2.15's estimator: a binary classifier's accuracy, accuracy_baseline, auc, auc_precision_recall, "
          "average_loss, label/mean, precision, prediction/mean and recall; a multi-class one's accuracy and "
          "average_loss; a regressor's average_loss, label/mean and prediction/mean). Keras' "
          "evaluate(return_dict=True) gives back loss and the compiled metrics. A key the program reads by name is "
          "compiled (TFM330) or blocks (TFM302); a program that prints, iterates or passes on the whole dict "
          "(`for key in sorted(results)`, `print(est.evaluate(...))`) reads every key: accuracy and average_loss "
          "are compiled under those names, and this warning names the keys the migrated program no longer prints. "
          "It runs; add the metrics it needs to the model by hand. A model_fn's eval_metric_ops are compiled under "
          "their keys, so only global_step is missing there: not noted.", severity=Severity.WARNING,
          fix="report only", example="TFM353"),
    _info("TFM354", "best-exporter-saved-after-evaluation", "EvalSpec(exporters=BestExporter(...)) -> the model saved "
          "after its evaluation, in TF1's export folder", "BestExporter exported after each evaluation of a lower "
          "loss; the converted program evaluates once, after training, and saves the model it evaluated there",
          "A BestExporter exported a SavedModel after each evaluation whose loss was the lowest so far (the first "
          "always exports) to model_dir/export/<name>/<timestamp>. train_and_evaluate becomes fit, then one "
          "evaluate, and the model it evaluated is saved with model.export (model.save under --target tf-keras) to "
          "model_dir/export/<name>, as a Final or LatestExporter is (TFM318): TF1's best export when TF1 evaluated "
          "once, as a short local run does. With several evaluations TF1 kept the export of the lowest loss, and "
          "the converted program keeps its last model: save from a callback that watches val_loss to keep the "
          "best. A compare_fn, event_file_pattern, assets_extra or as_text of its own blocks (TFM302).",
          severity=Severity.WARNING, example="TFM354"),
)
