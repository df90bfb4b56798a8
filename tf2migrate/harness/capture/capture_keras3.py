"""The Keras 3 form of `capture_keras.py` (TF 2.16+, where `tf.keras` is Keras 3): weight alignment
through `Layer.add_weight` and the per-step loss from `compute_loss` inside `train_step`.

Keras 3 differs from Keras 2 where the capture touches it: `add_weight` takes `shape` first and a keyword
`name`, and variables are named by their layer's path (recorded as `layer/weight`, the TF1 and Keras 2
form, or the whole path when two layers share a name). The step loss is taken as under Keras 2
(`capture_keras._wrap_train_step`), scaled for Keras 3's mean over replicas.
"""
import functools

from tf2migrate.harness.capture import capture_state, init_laws, keras_weights, own_values
from tf2migrate.harness.capture.recorder import clean_name
from tf2migrate.harness.capture.values import constant_initializer, initializer_name


def install(recorder, aligner, tf):
    _wrap_add_weight(tf.keras.layers.Layer, recorder, aligner, tf)


def _wrap_add_weight(Layer, recorder, aligner, tf):
    """As `keras_weights.wrap_add_weight`: align trainable weights, and record their own step-0 values,
    their initializers and the non-trainable layer state that the proof checks compare."""
    original = Layer.add_weight

    @functools.wraps(original)
    def add_weight(self, *args, **kwargs):
        if not tf.compat.v1.executing_eagerly_outside_functions():
            return original(self, *args, **kwargs)
        shape = tuple(tf.TensorShape(kwargs.get("shape", args[0] if args else None) or ()).as_list())
        wanted = clean_name(f"{self.name}/{kwargs.get('name')}")
        if kwargs.get("trainable", True) is False:
            var = original(self, *args, **kwargs)
            capture_state.track_state(self, var, recorder, tf, _unique(wanted, var, recorder.state_vars))
            return var
        user_initializer = kwargs.get("initializer", args[1] if len(args) > 1 else None)
        value = aligner.take(wanted, shape) if aligner else None
        own = None
        if value is not None:
            own = own_values.own_value({"dtype": kwargs.get("dtype"), "initializer": user_initializer}, shape, tf)
            initializer = constant_initializer(value, tf)
            if len(args) > 1:   # Keras 2 call style add_weight(shape, initializer, dtype)
                args = args[:1] + (initializer,) + args[2:]
            else:
                kwargs["initializer"] = initializer
        var = original(self, *args, **kwargs)
        name = _unique(wanted, var, [v["name"] for v in recorder.variables])
        recorder.add_variable(name, shape)
        recorder.initializers.setdefault(name, initializer_name(user_initializer))
        floating = "float" in str(kwargs.get("dtype") or getattr(var, "dtype", "float32"))
        init_laws.record(recorder, name, user_initializer, shape, floating)
        if value is not None:
            recorder.aligned.append(name)
            if own is not None:
                recorder.add_own_initial(name, own)
            return var
        keras_weights.record_step0(recorder, name, var, tf)
        return var

    Layer.add_weight = add_weight


def _unique(wanted, var, taken):
    """`layer/weight`, or the variable's whole path when that is taken (two GRUs' cells are both `gru_cell`)."""
    return clean_name(getattr(var, "path", None) or var.name) if wanted in taken else wanted
