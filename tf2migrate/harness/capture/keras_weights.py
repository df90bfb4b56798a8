"""The weights of a TF2 program's Keras layers, aligned and recorded (Keras 3's: capture_keras3.py).

Each trainable weight a layer creates takes the original's step-0 value when the aligner has one, and is
recorded with its initializer, its law and its own value; a weight that is not trainable is tracked as state.
`tf1.get_variable` under TF's model-mapping shim goes around `add_weight`, so its store is wrapped alike.
"""
import importlib
import inspect

from tf2migrate.harness.capture import init_laws
from tf2migrate.harness.capture.capture_state import track_state
from tf2migrate.harness.capture.own_values import own_value, shard_rows
from tf2migrate.harness.compare.partitions import sharded_name
from tf2migrate.harness.capture.recorder import clean_name
from tf2migrate.harness.capture.values import constant_initializer, initializer_name, numpy_value


def install(recorder, aligner, tf, keras_root):
    """Keras 2's (`keras_root`: `keras` or `tf_keras`); capture_keras.install picks capture_keras3 for Keras 3."""
    wrap_add_weight(tf.keras.layers.Layer, recorder, aligner, tf)
    wrap_shim_variables(recorder, aligner, tf, keras_root)


def wrap_add_weight(Layer, recorder, aligner, tf):
    original = Layer.add_weight
    signature = inspect.signature(original)

    def add_weight(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        a = bound.arguments
        trainable = a.get("trainable", None) is not False
        if not tf.compat.v1.executing_eagerly_outside_functions():
            return original(*bound.args, **bound.kwargs)
        if not trainable:
            var = original(*bound.args, **bound.kwargs)
            track_state(self, var, recorder, tf)
            return var
        wanted = f"{self.name}/{a.get('name')}"
        shape = tuple(tf.TensorShape(a.get("shape") or ()).as_list())
        value = aligner.take(wanted, shape) if aligner else None
        user_initializer = a.get("initializer")
        if value is not None:
            a["initializer"] = constant_initializer(value, tf)
        var = original(*bound.args, **bound.kwargs)
        name = clean_name(sharded_name(var) if type(var).__name__ == "ShardedVariable" else var.name)
        recorder.add_variable(name, shape)
        recorder.initializers.setdefault(name, initializer_name(user_initializer))
        init_laws.record(recorder, name, user_initializer, shape, tf.as_dtype(a.get("dtype") or tf.float32).is_floating,
                         shard_rows(var))
        if value is not None:
            recorder.aligned.append(name)
            # drawn after creation: a sharded variable's shards are drawn one by one, each with its own shape
            own = own_value({"dtype": a.get("dtype"), "initializer": user_initializer}, shape, tf, shard_rows(var))
            if own is not None:
                recorder.add_own_initial(name, own)
            return var
        record_step0(recorder, name, var, tf)
        return var

    Layer.add_weight = add_weight


def record_step0(recorder, name, var, tf):
    """A weight the aligner gave nothing: its own step-0 value is recorded (and written out with `init_out`),
    or a note says why it could not be read. Keras 3's capture (capture_keras3.py) records it the same way."""
    with tf.init_scope():
        try:
            step0 = numpy_value(var)
        except Exception:  # noqa: BLE001 - lazily initialised variable: no step-0 value to share
            recorder.notes.append(f"could not read the step-0 value of {name}")
            return
    recorder.add_own_initial(name, step0)
    if recorder.spec.get("init_out"):
        recorder.initial_values[name] = step0


def wrap_shim_variables(recorder, aligner, tf, keras_root):
    """`tf1.get_variable` inside a layer decorated with `track_tf1_style_variables` (TF's model-mapping shim)
    bypasses `add_weight`: its variable store is wrapped the same way."""
    variable_scope_shim = importlib.import_module(f"{keras_root}.src.legacy_tf_layers.variable_scope_shim")

    store = variable_scope_shim._EagerVariableStore
    original = store._get_single_variable

    def _get_single_variable(self, name, shape=None, dtype=tf.float32, initializer=None, *args, **kwargs):
        trainable = kwargs.get("trainable", None) is not False
        value = None
        if trainable and shape is not None and aligner:
            value = aligner.take(name, tuple(tf.TensorShape(shape).as_list()))
        if value is not None:
            initializer = constant_initializer(value, tf)
        var = original(self, name, shape, dtype, initializer, *args, **kwargs)
        if trainable and var.trainable:
            cleaned = clean_name(var.name)
            recorder.add_variable(cleaned, var.shape.as_list())
            if value is not None:
                recorder.aligned.append(cleaned)
        return var

    store._get_single_variable = _get_single_variable
