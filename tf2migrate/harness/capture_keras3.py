"""The Keras 3 form of `capture_keras.py` (TF 2.16+, where `tf.keras` is Keras 3): weight alignment
through `Layer.add_weight` and the per-step loss from `compute_loss` inside `train_step`.

Keras 3 differs from Keras 2 where the capture touches it: `add_weight` takes `shape` first and a keyword
`name`, and variables are named by their layer's path (recorded as `layer/weight`, the TF1 and Keras 2
form, or the whole path when two layers share a name). The step loss is taken as under Keras 2 (`capture_keras._wrap_train_step`), scaled for Keras 3's
mean over replicas.
"""
import functools

from tf2migrate.harness import capture_keras
from tf2migrate.harness.recorder import clean_name


def install(recorder, aligner, tf):
    _wrap_add_weight(tf.keras.layers.Layer, recorder, aligner, tf)


def _wrap_add_weight(Layer, recorder, aligner, tf):
    original = Layer.add_weight

    @functools.wraps(original)
    def add_weight(self, *args, **kwargs):
        trainable = kwargs.get("trainable", True) is not False
        if not (trainable and tf.compat.v1.executing_eagerly_outside_functions()):
            return original(self, *args, **kwargs)
        shape = kwargs.get("shape", args[0] if args else None)
        shape = tuple(tf.TensorShape(shape or ()).as_list())
        wanted = f"{self.name}/{kwargs.get('name')}"
        value = aligner.take(wanted, shape) if aligner else None
        if value is not None:
            initializer = capture_keras._constant_initializer(value, tf)
            if len(args) > 1:   # Keras 2 call style add_weight(shape, initializer, dtype)
                args = args[:1] + (initializer,) + args[2:]
            else:
                kwargs["initializer"] = initializer
        var = original(self, *args, **kwargs)
        name = clean_name(wanted)
        if any(v["name"] == name for v in recorder.variables):   # two GRUs' cells are both `gru_cell`
            name = clean_name(getattr(var, "path", None) or var.name)
        recorder.add_variable(name, shape)
        if value is not None:
            recorder.aligned.append(name)
        if recorder.spec.get("init_out"):
            with tf.init_scope():
                try:
                    recorder.initial_values[name] = var.numpy()
                except Exception:  # noqa: BLE001 - lazily initialised variable: no step-0 value to share
                    recorder.notes.append(f"could not read the step-0 value of {name}")
        return var

    Layer.add_weight = add_weight
