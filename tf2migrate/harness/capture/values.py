"""Values and names a capture reads off TensorFlow objects: a variable's value (sharded or whole), an
initializer's name in Keras' spelling, and the initializer that gives a weight the original's value."""


def initializer_name(initializer):
    """In Keras' string spelling: 'glorot_uniform' for the default and for GlorotUniform() (TF1's
    glorot_uniform_initializer too), 'random_normal(mean=0.0, stddev=1.0)' and so on."""
    import re

    if initializer is None:
        return "glorot_uniform"
    if isinstance(initializer, str):
        return initializer
    cls = type(initializer).__name__
    if cls in ("function", "partial"):
        return getattr(initializer, "__name__", cls)
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", cls).lower().replace("_initializer", "").replace("_v2", "")
    if name in ("glorot_uniform", "glorot_normal", "he_normal", "he_uniform", "lecun_normal", "lecun_uniform",
                "zeros", "ones"):
        return name
    try:
        config = initializer.get_config()
    except Exception:  # noqa: BLE001 - an initializer without a config
        config = {}
    shown = ", ".join(f"{k}={v!r}" for k, v in config.items() if k != "seed" and v is not None)
    return f"{name}({shown})" if shown else name


def numpy_value(value):
    import numpy as np

    if type(value).__name__ == "ShardedVariable":
        return np.concatenate([v.numpy() for v in value.variables], axis=0)
    return value.numpy()


def constant_initializer(value, tf):
    """An initializer giving the original's step-0 value. Keras' DTensor layers pass a `layout`:
    the value is then placed on the mesh replicated and laid out as asked (seed 003)."""

    def initializer(shape=None, dtype=None, layout=None, shard_info=None, **kw):
        part = value
        if shard_info is not None:  # one shard of a variable partitioned by ParameterServerStrategy
            start = shard_info.offset[0]
            part = value[start:start + shard_info.shape[0]]
        constant = tf.constant(part, dtype=dtype or value.dtype)
        if layout is None:
            return constant
        from tensorflow.experimental import dtensor

        replicated = dtensor.Layout.replicated(layout.mesh, rank=len(value.shape))
        return dtensor.relayout(dtensor.copy_to_mesh(constant, replicated), layout)

    return initializer
