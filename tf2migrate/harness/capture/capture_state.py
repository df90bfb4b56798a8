"""What a run holds besides its losses: own initial values, non-trainable layer state, evaluate results.

TF2 layer state is tracked where Keras 2 creates weights (`track_state`, called by `capture_keras`). TF1 layers
(`tf.compat.v1.layers.batch_normalization`, Keras layers in a graph) create theirs through the v1
`Layer.add_weight`, wrapped here; the TF1 capture hooks read those variables in their own session, at
step 0 (`read_initial`) and when training ends (`read_final`). The result of every `evaluate` call
(Estimator or Keras) is recorded as {metric: value}.
"""
import functools
import importlib
import weakref

from tf2migrate.harness.capture import capture_eval, metric_kinds
from tf2migrate.harness.capture.recorder import clean_name
from tf2migrate.harness.capture.values import initializer_name, numpy_value

_state_by_graph = weakref.WeakKeyDictionary()


def install(recorder, keras):
    """`keras`: the `versions.Keras` behind `tf.keras` (Keras 3 has no v1 layers)."""
    import tensorflow as tf

    if keras.major == 2:
        _wrap_v1_layers(recorder, tf, keras.root)
    _wrap_keras_evaluate(recorder, tf)
    try:
        _wrap_estimator_evaluate(recorder, tf)
    except ImportError:  # no tensorflow_estimator (TF 2.16+): no Estimator to wrap
        pass


def _wrap_v1_layers(recorder, tf, keras_root):
    base_layer_v1 = importlib.import_module(f"{keras_root}.src.engine.base_layer_v1")

    original = base_layer_v1.Layer.add_weight

    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=None, *args, **kwargs):
        var = original(self, name, shape, dtype, initializer, regularizer, trainable, *args, **kwargs)
        if tf.executing_eagerly() or isinstance(self, tf.keras.metrics.Metric):
            return var
        if getattr(var, "trainable", True):
            if hasattr(var, "name"):
                recorder.initializers.setdefault(clean_name(var.name), initializer_name(initializer))
                from tf2migrate.harness.capture import init_laws

                init_laws.record(recorder, var.name, initializer, var.shape.as_list(), var.dtype.is_floating)
        else:
            _state_by_graph.setdefault(var.graph, []).append(var)
        return var

    base_layer_v1.Layer.add_weight = add_weight


def track_state(layer, var, recorder, tf, name=None):
    """Non-trainable layer state (batch-norm moving mean and variance, ...): its step-0 value now, its
    final value when the run ends. Metrics are layers too, but their counters are not model state."""
    if isinstance(layer, tf.keras.metrics.Metric):
        return
    name = name or clean_name(var.name)  # Keras 3 names a variable by its weight alone: the caller says
    recorder.state_vars.setdefault(name, var)
    with tf.init_scope():
        try:
            recorder.add_own_initial(name, numpy_value(var))
        except Exception:  # noqa: BLE001 - lazily initialised: compared at the end only
            pass


def state_variables(graph):
    return list(_state_by_graph.get(graph, []))


def read_initial(recorder, session, variables):
    if variables:
        for var, value in zip(variables, session.run(variables)):
            recorder.add_own_initial(var.name, value)


def read_final(recorder, session, variables, run=None):
    if not variables:
        return
    try:
        values = (run or session.run)(variables)
    except Exception as exc:  # noqa: BLE001 - a closed or failed session: say so, do not fail the run
        recorder.notes.append(f"could not read the non-trainable state at the end: {type(exc).__name__}")
        return
    for var, value in zip(variables, values):
        recorder.state_arrays[clean_name(var.name)] = value


def _metrics(result, names=None):
    import numpy as np

    if isinstance(result, dict):
        items = result.items()
    elif isinstance(result, (list, tuple)) and names and len(names) == len(result):
        items = zip(names, result)
    elif names and np.size(result) == 1:
        items = [(names[0], result)]
    else:
        return {}
    out = {}
    for key, value in items:
        if key != "global_step" and np.size(value) == 1:
            try:
                out[str(key)] = float(np.asarray(value).reshape(-1)[0])
            except (TypeError, ValueError):
                continue
    return out


def _wrap_keras_evaluate(recorder, tf):
    Model = tf.keras.Model
    original = Model.evaluate

    @functools.wraps(original)  # capture_eval.py binds the arguments by Keras' signature
    def evaluate(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        recorder.eval_results.append(_metrics(result, list(getattr(self, "metrics_names", []) or [])))
        recorder.metric_kinds.update(metric_kinds.keras_metrics(self))
        return result

    Model.evaluate = evaluate


def _wrap_estimator_evaluate(recorder, tf):
    from tensorflow_estimator.python.estimator import estimator as est_lib

    original = est_lib.Estimator.evaluate

    def evaluate(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        recorder.eval_results.append(capture_eval.estimator_result(_metrics(result)))
        return result

    est_lib.Estimator.evaluate = evaluate
