"""Which TensorFlow names belong to the Estimator world that TF 2.16 removed, and what each one is.

Kept free of LibCST: the pre-pass wakes the rule with `WORDS`. A name is judged by its canonical path
(`engine/imports.py`: `tf1.estimator.X`, `tensorflow_estimator.estimator.X` and `tf.compat.v1.estimator.X`
are all `tf.estimator.X`), so every namespace and every alias of it is covered without a list of names:
everything under `tf.estimator` (tensorflow_estimator's whole public API), `tf.keras.estimator`,
`tf.contrib.learn`, `tf.contrib.estimator` and TF 1.x's `tensorflow.python.estimator`; the TPUEstimator names of `tf.contrib.tpu`; and TF1's session
hooks (`tf.train.*Hook`), which outside a `MonitoredSession` only ever drive an Estimator.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

ESTIMATOR, RUN, PIECE = "TFM350", "TFM351", "TFM352"  # most to least important: one finding per line

NAMESPACES = ("tf.estimator", "tf.keras.estimator", "tf.contrib.learn", "tf.contrib.estimator",
              "tf.python.estimator")  # where TF 1.x code also imported it from
TPU_NAMES = frozenset({"TPUEstimator", "TPUEstimatorSpec", "RunConfig", "TPUConfig", "InputPipelineConfig",
                       "export_estimator_savedmodel", "tpu_estimator"})
SESSION_HOOKS = frozenset({"SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
                           "CheckpointSaverListener"})
MONITORED = frozenset({"tf.train.MonitoredSession", "tf.train.MonitoredTrainingSession",
                       "tf.train.SingularMonitoredSession"})
HOOK_NAMES = frozenset({"CheckpointSaverHook", "FeedFnHook", "FinalOpsHook", "GlobalStepWaiterHook",
                        "LoggingTensorHook", "NanTensorHook", "ProfilerHook", "StepCounterHook", "StopAtStepHook",
                        "SummarySaverHook"})
# symbol words: they wake the rule only where they name TensorFlow through the file's imports
WORDS = frozenset({"estimator", "learn", "model_to_estimator"}) | TPU_NAMES | SESSION_HOOKS | HOOK_NAMES

_LOOPS = {"train_and_evaluate", "TrainSpec", "EvalSpec"}
_CONFIGS = {"RunConfig", "TPUConfig", "InputPipelineConfig"}
_WARM = {"WarmStartSettings", "VocabInfo"}
_RUNNERS = {"learn_runner", "Experiment"}


@dataclass(frozen=True)
class Kind:
    code: str
    todo: str
    gone: str = "removed in TF 2.16"


def kind(canonical: str) -> Optional[Kind]:
    """What a canonical name is, or None when it is not part of the Estimator world."""
    leaf = _leaf(canonical)
    if leaf is None:
        return None
    gone = "tf.contrib is gone since TF 2.0" if canonical.startswith("tf.contrib.") else "removed in TF 2.16"
    if canonical.startswith("tf.train."):  # still in tf.compat.v1.train (TFM609), but only a MonitoredSession runs it
        gone = "TF 2.16+ keeps session hooks only in tf.compat.v1.train, for a MonitoredSession (no Estimator runs them)"
    if _is_boosted_trees(leaf):  # `boosted_trees_classifier_train_in_memory` builds and trains one
        return Kind(ESTIMATOR, gone=gone, todo="TF2 has no boosted trees in TensorFlow or Keras: rebuild the model "
                                               "by hand (TensorFlow Decision Forests' GradientBoostedTreesModel is "
                                               "their successor, in another library)")
    if leaf == "model_to_estimator":
        return Kind(ESTIMATOR, gone=gone, todo="train the Keras model with fit instead")
    if leaf.startswith("TPUEstimator") and not leaf.endswith("Spec"):
        return Kind(ESTIMATOR, gone=gone, todo="use tf.distribute.TPUStrategy and Keras (steps_per_execution = "
                               "iterations_per_loop)")
    if _is_estimator(leaf):
        return Kind(ESTIMATOR, gone=gone, todo="rebuild it as a Keras model trained with fit under a tf.distribute strategy")
    if leaf in _LOOPS or leaf in _RUNNERS:
        return Kind(RUN, gone=gone, todo="train with model.fit and evaluate with model.evaluate (same input, same steps)")
    if leaf in _CONFIGS:
        return Kind(RUN, gone=gone, todo="use a tf.distribute strategy and Keras callbacks (ModelCheckpoint, "
                         "BackupAndRestore)")
    if leaf in _WARM:
        return Kind(RUN, gone=gone, todo="restore the weights with tf.train.Checkpoint before training")
    if "Hook" in leaf or leaf in SESSION_HOOKS or leaf.startswith(("stop_if_", "make_stop", "make_early")):
        return Kind(RUN, gone=gone, todo="Keras has no session hooks, use a tf.keras.callbacks.Callback")
    if "Exporter" in leaf or canonical.startswith("tf.estimator.export") or "serving_input" in leaf:
        return Kind(RUN, gone=gone, todo="export with model.save or tf.saved_model.save and a serving signature")
    return Kind(PIECE, gone=gone, todo="it goes away with the conversion of its Estimator program")


def is_boosted_trees(canonical: str) -> bool:
    return _is_boosted_trees(canonical.rsplit(".", 1)[-1])


def _is_boosted_trees(leaf: str) -> bool:
    return leaf.startswith("BoostedTrees") or (leaf.startswith("boosted_trees_") and leaf.endswith("_in_memory"))


def _is_estimator(leaf: str) -> bool:
    if not leaf[:1].isupper() or leaf.endswith(("Spec", "Head", "Output", "Exporter", "Hook", "Config")):
        return False
    return "Estimator" in leaf or leaf.endswith(("Classifier", "Regressor")) or leaf.startswith("KMeans") \
        or leaf == "SKCompat"


def _leaf(canonical: str) -> Optional[str]:
    """The name that says what a reference is: `ModeKeys` in `tf.estimator.ModeKeys.TRAIN`."""
    parts = canonical.split(".")
    if canonical.startswith("tf.contrib.tpu."):
        found = [p for p in parts[3:] if p in TPU_NAMES]
        return found[-1] if found else None
    if canonical.startswith("tf.train.") and len(parts) >= 3:
        return parts[2] if parts[2] in HOOK_NAMES or parts[2] in SESSION_HOOKS else None
    for space in NAMESPACES:
        if canonical == space or canonical.startswith(space + "."):
            rest = parts[len(space.split(".")):]
            if space == "tf.estimator" and rest[:1] in (["tpu"], ["experimental"], ["export"], ["inputs"]):
                rest = rest[1:] if len(rest) > 1 else rest
            if space.startswith(("tf.contrib.", "tf.python.")):  # deep private paths: the first class tells
                named = [p for p in rest if p[:1].isupper() or p in _RUNNERS or p == "model_to_estimator"]
                return named[0] if named else (rest[-1] if rest else space.rsplit(".", 1)[1])
            return rest[0] if rest else space.rsplit(".", 1)[1]
    return None


def needs_monitored_check(canonical: str) -> bool:
    """A `tf.train` hook: reported only in a module that runs no MonitoredSession."""
    return canonical.startswith("tf.train.")
