"""What each evaluation metric computes, so the two sides' metrics are matched by that and not only by name.

A TF1 program names its metric with an `eval_metric_ops` key (`"rmse": tf.metrics.root_mean_squared_error`);
its migration may name the Keras metric otherwise (`MeanSquaredError()` reports `mean_squared_error`), or name
another computation alike. Each side records {name: {"kind", "own"}}: the kind is the TF1 metric function's
name, or the Keras metric class (or a compiled string's function) in the same spelling (`KINDS`: the renames
the converter writes, rules/estimator/planning/metrics.py and default_path/model_subclass.py METRICS); `own` is False for the metrics a
canned Estimator adds by itself (the migration need not keep those). Child side: `install`.
"""
import sys

from tf2migrate.harness.capture.libraries import library_dirs
from tf2migrate.harness.compare.vocabulary import LOSS

KINDS = {  # Keras class or compiled function -> the TF1 metric function computing the same number
    "Accuracy": "accuracy", "SparseCategoricalAccuracy": "accuracy", "BinaryAccuracy": "accuracy",
    "CategoricalAccuracy": "accuracy", "sparse_categorical_accuracy": "accuracy", "binary_accuracy": "accuracy",
    "categorical_accuracy": "accuracy", "MeanSquaredError": "mean_squared_error", "mse": "mean_squared_error",
    "RootMeanSquaredError": "root_mean_squared_error", "MeanAbsoluteError": "mean_absolute_error",
    "mae": "mean_absolute_error", "AUC": "auc", "Precision": "precision", "Recall": "recall", "Mean": "mean",
}
_tensor_kinds = {}   # (id of graph, tensor name) -> the TF1 metric function that made the tensor


def kind_of_keras(metric):
    """A Keras metric object's kind: its class, or the function a compiled string wraps."""
    cls = type(metric).__name__
    if cls == "MeanMetricWrapper" and getattr(metric, "_fn", None) is not None:
        fn = getattr(metric._fn, "__name__", cls)
        return KINDS.get(fn, fn)
    return KINDS.get(cls, cls)


def keras_metrics(model):
    """{name: kind} of the metrics a Keras model reports (Keras 3 holds the compiled ones in one container)."""
    out = {}
    for metric in list(getattr(model, "metrics", None) or []):
        inner = getattr(metric, "metrics", None) if type(metric).__name__ == "CompileMetrics" else None
        for m in (inner if inner is not None else [metric]):
            name = getattr(m, "name", None)
            if name:
                out[str(name)] = {"kind": LOSS if name == LOSS else kind_of_keras(m), "own": True}
    return out


def install(recorder):
    """TF1: tag the value tensor of every `tf1.metrics.*` call with the function's name, and read the kinds
    of the `eval_metric_ops` of every EstimatorSpec (the program's own when its code builds the spec)."""
    try:
        from tensorflow.python.ops import metrics_impl
        from tensorflow_estimator.python.estimator import model_fn as model_fn_lib
    except ImportError:  # TF 2.16+: no Estimator
        return
    import tensorflow as tf

    olds = {n: getattr(metrics_impl, n) for n in dir(tf.compat.v1.metrics)
            if not n.startswith("_") and callable(getattr(metrics_impl, n, None))}
    _replace_all(metrics_impl, olds, {n: _tagging(fn, n) for n, fn in olds.items()})
    Spec = model_fn_lib.EstimatorSpec
    new = Spec.__new__

    def __new__(cls, *args, **kwargs):
        spec = new(cls, *args, **kwargs)
        caller = sys._getframe(1).f_code.co_filename
        own = not caller.startswith(library_dirs())
        for key, op in (getattr(spec, "eval_metric_ops", None) or {}).items():
            kind = _kind_of_op(op)
            if kind and (own or str(key) not in recorder.metric_kinds):
                recorder.metric_kinds[str(key)] = {"kind": kind, "own": own}
        return spec

    Spec.__new__ = staticmethod(__new__)


def _replace_all(module, olds, news):
    """Each function everywhere a module already holds it (`tf.compat.v1.metrics`, the canned heads'
    `metrics_lib`): one pass over the modules for all of them (queue_inputs._replace does one per name)."""
    for name, new in news.items():
        setattr(module, name, new)
    for other in list(sys.modules.values()):
        try:
            held = vars(other)   # vars: no lazy loader is woken
        except TypeError:
            continue
        for name in olds.keys() & held.keys():
            if held[name] is olds[name]:
                setattr(other, name, news[name])


def _tagging(fn, name):
    def metric(*args, **kwargs):
        out = fn(*args, **kwargs)
        value = out[0] if isinstance(out, tuple) and out else None
        if hasattr(value, "graph") and hasattr(value, "name"):
            _tensor_kinds[(id(value.graph), value.name)] = name
        return out

    metric.__wrapped__ = fn
    return metric


def _kind_of_op(op):
    """An eval_metric_ops value: (value, update) from `tf1.metrics.*`, or a Keras metric object."""
    if isinstance(op, tuple) and op:
        value = op[0]
        try:
            return _tensor_kinds.get((id(value.graph), value.name))
        except AttributeError:
            return None
    return kind_of_keras(op) if hasattr(op, "update_state") else None
