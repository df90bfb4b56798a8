"""Inside a child: what distribution a variable's initializer draws from, read from the initializer itself.

Samples of a few dozen elements cannot tell glorot_uniform from glorot_normal (equal variance), nor a
normal from a truncated normal, but the initializer objects can: TF1 initializers (`init_ops`), Keras 2 and
Keras 3 initializers all keep their parameters as attributes (`scale`, `mode`, `distribution`, `mean`,
`stddev`, `minval`, `maxval`, `value`). Each variable's initializer becomes a *law* per row range (a
sharded or partitioned variable has one per shard), JSON-ready, compared in the parent (`law_tests.py`):
{"kind": "uniform", "low", "high"} | {"kind": "normal" or "truncated_normal", "mean", "std"} (truncated at
two standard deviations, as every TF truncated normal is) | {"kind": "constant", "value"}.
"""
import inspect
import math

TRUNCATED_STD = 0.87962566103423978   # std of a standard normal truncated at +-2: VarianceScaling divides by it


def record(recorder, name, initializer, shape, floating=True, shards=None, partition_full_shape=None):
    """Remember the law of a trainable variable's initializer (`initializer` None: TF's and Keras' default,
    glorot_uniform for floats, zeros otherwise). Never fails the run: an unreadable one is left unknown."""
    from tf2migrate.harness.capture.recorder import clean_name
    from tf2migrate.harness.capture.values import initializer_name

    name = clean_name(name)
    if name in recorder.init_laws:
        return
    try:
        if isinstance(initializer, str):
            import tensorflow as tf

            initializer = tf.keras.initializers.get(initializer)
        recorder.init_laws[name] = spec(initializer, shape, initializer_name(initializer), floating, shards,
                                        partition_full_shape)
    except Exception as exc:  # noqa: BLE001 - the law is a help to the proof, never a reason to stop
        recorder.notes.append(f"could not read the initializer of {name}: {type(exc).__name__}")


def install(recorder):
    """TF1 `get_variable` (also under `tf.layers` and partitioners): the initializer after the variable
    scope's default is applied, with the partition's whole shape."""
    from tensorflow.python.ops import variable_scope

    store = variable_scope._VariableStore
    original = store._get_single_variable

    def _get_single_variable(self, name, shape=None, dtype=None, initializer=None, regularizer=None,
                             partition_info=None, *args, **kwargs):
        import tensorflow as tf

        var = original(self, name, shape, dtype if dtype is not None else tf.float32, initializer, regularizer,
                       partition_info, *args, **kwargs)
        if getattr(var, "trainable", True) and shape is not None:
            full = list(partition_info.full_shape) if partition_info is not None else None
            floating = tf.as_dtype(dtype or tf.float32).is_floating
            record(recorder, var.name, initializer, tf.TensorShape(shape).as_list(), floating, None, full)
        return var

    store._get_single_variable = _get_single_variable


def spec(initializer, shape, label, floating=True, shards=None, partition_full_shape=None):
    """{"label", "family", "seeded", "parts": [[rows, law or None]]} for a variable of `shape` (`shards`: the
    rows of each shard of a ShardedVariable, drawn with its own shape; `partition_full_shape`: a TF1
    partition's whole shape, which TF1 initializers that take `partition_info` use for their fans)."""
    shape = [int(d) for d in shape]
    rows = shape[0] if shape else 1
    if initializer is None:
        family = ("variance_scaling", 1.0, "fan_avg", "uniform") if floating else ("constant", 0.0)
    else:
        family = _family(initializer)
    if partition_full_shape is not None and not _takes_partition_info(initializer):
        partition_full_shape = None
    if shards and len(shards) > 1 and family and family[0] == "variance_scaling":
        parts = [[r, _law(family, [r] + shape[1:])] for r in shards]
    else:
        parts = [[rows, _law(family, partition_full_shape or shape) if family else None]]
    return {"label": label, "family": _show(family), "seeded": getattr(initializer, "seed", None) is not None,
            "parts": parts}


def _family(init):
    """A tuple that says what the initializer is, whatever the variable's shape; None when unknown."""
    name = type(init).__name__
    try:
        if all(hasattr(init, a) for a in ("scale", "mode", "distribution")):
            distribution = str(init.distribution).lower()
            distribution = "truncated_normal" if distribution == "normal" else distribution
            return ("variance_scaling", float(init.scale), str(init.mode).lower(), distribution)
        if "TruncatedNormal" in name:
            return ("truncated_normal", float(init.mean), float(init.stddev))
        if "RandomNormal" in name:
            return ("normal", float(init.mean), float(init.stddev))
        if "RandomUniform" in name:
            maxval = 1.0 if init.maxval is None else float(init.maxval)
            return ("uniform", float(init.minval), maxval)
        if name.startswith("Zeros"):
            return ("constant", 0.0)
        if name.startswith("Ones"):
            return ("constant", 1.0)
        if name.startswith("Constant") and _scalar(init.value) is not None:
            return ("constant", _scalar(init.value))
    except (AttributeError, TypeError, ValueError):
        return None
    return None


def _scalar(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _takes_partition_info(init):
    try:
        return "partition_info" in inspect.signature(type(init).__call__).parameters
    except (TypeError, ValueError):
        return False


def _fans(shape):
    """As TF and Keras compute them (init_ops._compute_fans, Keras' compute_fans)."""
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


def _law(family, shape):
    kind = family[0]
    if kind == "variance_scaling":
        _, scale, mode, distribution = family
        fan_in, fan_out = _fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out}.get(mode, (fan_in + fan_out) / 2.0)
        scale /= max(1.0, fan)
        if distribution == "uniform":
            limit = math.sqrt(3.0 * scale)
            return {"kind": "uniform", "low": -limit, "high": limit}
        if distribution == "truncated_normal":
            return {"kind": "truncated_normal", "mean": 0.0, "std": math.sqrt(scale) / TRUNCATED_STD}
        if distribution == "untruncated_normal":
            return {"kind": "normal", "mean": 0.0, "std": math.sqrt(scale)}
        return None
    if kind in ("normal", "truncated_normal"):
        return {"kind": kind, "mean": family[1], "std": family[2]}
    if kind == "uniform":
        return {"kind": "uniform", "low": family[1], "high": family[2]}
    return {"kind": "constant", "value": family[1]}


def _show(family):
    if not family:
        return None
    return f"{family[0]}({', '.join(f'{x:g}' if isinstance(x, float) else str(x) for x in family[1:])})"
