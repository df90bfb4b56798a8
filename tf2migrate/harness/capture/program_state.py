"""Child side of `compare/plain_state.py`: the program's own `tf.Variable`s outside Keras layers and the results
of the Keras metrics it makes itself, read when the program ends (`recorder.plain_arrays`, `metric_results`)."""
import os
import sys

from tf2migrate.harness.capture.libraries import library_dirs
from tf2migrate.harness.capture.metric_kinds import kind_of_keras
from tf2migrate.harness.capture.recorder import clean_name
from tf2migrate.harness.capture.values import numpy_value


def install(recorder, tf):
    from tensorflow.python.ops import variables

    made, metrics = [], []
    variable_call = variables.Variable._variable_call

    def _variable_call(cls, *args, **kwargs):
        var = variable_call.__func__(cls, *args, **kwargs)
        if var is not None and tf.compat.v1.executing_eagerly_outside_functions() \
                and _made_by_program(sys._getframe(1), library_dirs()):
            made.append(var)
        return var

    variables.Variable._variable_call = classmethod(_variable_call)
    Metric = tf.keras.metrics.Metric
    metric_init = Metric.__init__

    def __init__(self, *args, **kwargs):
        metric_init(self, *args, **kwargs)
        if _made_by_program(sys._getframe(1), library_dirs(), metric=True):
            metrics.append(self)

    Metric.__init__ = __init__

    def read():
        for i, var in enumerate(made):
            name = clean_name(getattr(var, "name", "Variable"))
            try:
                recorder.plain_arrays[f"{i}:{name}"] = numpy_value(var)
            except Exception:  # noqa: BLE001 - e.g. on a server that has gone: the comparison counts it missing
                recorder.notes.append(f"could not read the final value of the program's variable {name}")
        for metric in metrics if tf.executing_eagerly() else []:
            try:
                value = float(metric.result())
            except Exception:  # noqa: BLE001 - a metric that is not a scalar, or was never updated
                continue
            recorder.metric_results[metric.name] = {"kind": kind_of_keras(metric), "value": value}

    recorder.finalizers.append(read)


def _made_by_program(frame, libraries, metric=False):
    """The first caller outside the libraries is the program's code, and the libraries between were only making
    the object: not Keras making a layer's weight or an optimizer its slots (the first caller outside TensorFlow
    is then Keras), nor `compile` its metrics (in Keras' compile code)."""
    tf_dir = libraries[0] if libraries else ""
    keras_made = False
    while frame is not None:
        name = os.path.abspath(frame.f_code.co_filename)
        if not name.startswith(libraries):
            return not keras_made
        if not name.startswith(tf_dir) and not metric:
            return False
        keras_made |= metric and (frame.f_code.co_name == "compile" or name.endswith("compile_utils.py"))
        frame = frame.f_back
    return False
