"""What a weight's own initializer gives when alignment overwrites it: compared with the original's own value
(`inits.py`), so it must be drawn as the program would have drawn it, a sharded variable shard by shard."""
from tf2migrate.harness.capture.values import numpy_value


def own_value(arguments, shape, tf, shards=None):
    """What the program's own initializer gives a weight that alignment will overwrite (an unseeded Keras
    initializer gives the same values on every call, so this is the value the weight would have had).
    `shards`: the row counts of a ShardedVariable's shards: each is drawn as ParameterServerStrategy draws it,
    with its own shape (a VarianceScaling's fans are a shard's), and the shards are concatenated."""
    initializers = tf.keras.initializers  # keras, tf_keras or Keras 3: whichever is tf.keras
    dtype = tf.as_dtype(arguments.get("dtype") or tf.float32)
    init = arguments.get("initializer")
    if init is None:
        init = "glorot_uniform" if dtype.is_floating else "zeros"
    try:
        init = initializers.get(init)
        with tf.init_scope():
            if not shards or len(shards) < 2:
                return numpy_value(init(shape, dtype=dtype))
            return _sharded_value(init, shape, dtype, shards)
    except Exception:  # noqa: BLE001 - an initializer that needs more (a layout): not compared
        return None


def _sharded_value(init, shape, dtype, shards):
    """As ParameterServerStrategy's `init_shard_fn`: the shard's own value where the initializer takes a
    partition, else the slice of the whole."""
    import numpy as np

    parts, offset = [], 0
    for rows in shards:
        part_shape = (rows,) + tuple(shape[1:])
        try:
            value = init(shape, dtype=dtype, partition_shape=part_shape,
                         partition_offset=(offset,) + (0,) * (len(shape) - 1))
        except (TypeError, ValueError):
            value = init(shape, dtype=dtype)
        value = value.numpy()
        parts.append(value if value.shape == part_shape else value[offset:offset + rows])
        offset += rows
    return np.concatenate(parts, axis=0)


def shard_rows(var):
    """The row count of each shard of a ShardedVariable (None for a whole variable)."""
    if type(var).__name__ != "ShardedVariable":
        return None
    return [int(v.shape[0]) for v in var.variables]
