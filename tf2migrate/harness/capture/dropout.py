"""Dropout, active on both sides with the same masks, and each dropout recorded so a difference is named.

Every dropout in TF (v1 `keep_prob`, v2 `rate`, `tf.compat.v1.layers.dropout`, Keras 2 and Keras 3
`Dropout`, stateless dropout) ends in `nn_ops._dropout(x, rate, noise_shape, uniform_sampler, ...)`.
Its sampler is replaced by `tf.random.stateless_uniform` keyed by (seed, k) where k counts the dropout
draws of the run: the same in TF1 graph mode and TF2 eager/`tf.function`, so two programs that drop out
the same way draw the same masks, and a different rate or a missing or extra dropout changes the loss.
The draws follow the data flow (each waits for its input), so chained dropouts are counted in order.

Under ParameterServerStrategy the steps run on remote workers and the count cannot be shared: there
dropout is switched off on both sides, and the recorded dropouts (rate, noise shape, input shape, in
order) are what is compared.
"""
import threading
import weakref

from tf2migrate.harness.capture.step_state import steps_traced


def install(seed, recorder, share_masks):
    from tensorflow.python.ops import nn_ops

    counter = DrawCounter()
    original = nn_ops._dropout

    def _dropout(x, rate, noise_shape, uniform_sampler, dummy_rng_step, name, default_name):
        import tensorflow as tf

        _record(recorder, x, rate, noise_shape)
        if not share_masks:
            return tf.identity(x)

        def sampler(shape, dtype):
            key = tf.stack([tf.constant(seed, tf.int64), counter.next(tf, x)])
            return _replica_slice(tf, shape, _over_batch(tf, x, noise_shape),
                                  lambda full: tf.random.stateless_uniform(full, seed=key, dtype=dtype))

        return original(x, rate, noise_shape, sampler, dummy_rng_step, name, default_name)

    nn_ops._dropout = _dropout
    recorder.notes.append("dropout active, masks drawn statelessly by draw order (same on both sides)"
                          if share_masks else "dropout switched off (parameter servers: masks cannot be "
                                              "shared); each dropout's rate and shape compared instead")


class DrawCounter:
    """k = the number of dropout draws before this one: a variable in TF2, a one-shot iterator over
    0, 1, 2, ... in TF1 graphs (it needs no initializer, so a program's own init op covers everything)."""

    def __init__(self):
        self.by_graph = weakref.WeakKeyDictionary()
        self.variable = None
        self.lock = threading.Lock()

    def next(self, tf, x):
        with self.lock, tf.init_scope():
            eager = tf.executing_eagerly()
            if eager and self.variable is None:
                self.variable = tf.Variable(tf.constant(0, tf.int64), trainable=False, name="tf2migrate_draws",
                                            aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
            if not eager:
                graph = tf.compat.v1.get_default_graph()
                if graph not in self.by_graph:
                    numbers = tf.compat.v1.data.Dataset.range(2 ** 62)
                    self.by_graph[graph] = tf.compat.v1.data.make_one_shot_iterator(numbers)
                iterator = self.by_graph[graph]
        with tf.control_dependencies([x]):
            if eager:
                return self.variable.assign_add(1) - 1
            return iterator.get_next()


def _over_batch(tf, x, noise_shape):
    """True when the mask has a row per example (not one row broadcast over the batch)."""
    if noise_shape is None:
        return True
    first = tf.get_static_value(noise_shape, partial=True) if tf.is_tensor(noise_shape) else noise_shape
    first = None if first is None or len(first) == 0 else first[0]
    batch = x.shape[0] if getattr(x, "shape", None) is not None and x.shape.rank else None
    return not (first == 1 and batch != 1)


def _replica_slice(tf, shape, over_batch, draw):
    """Under N in-sync replicas each gets its rows of the mask of the global batch, as a single device
    would draw it, so a local original and a mirrored migration see the same masks."""
    ctx = tf.distribute.get_replica_context()
    replicas = ctx.num_replicas_in_sync if ctx is not None else 1
    shape = tf.convert_to_tensor(shape)
    if replicas == 1 or not tf.compat.v1.executing_eagerly_outside_functions() or shape.shape[0] == 0:
        return draw(shape)
    if not over_batch:
        return draw(shape)  # one row for the whole batch: the same row on every replica
    rows = shape[0]
    full = draw(tf.concat([[rows * replicas], shape[1:]], axis=0))
    start = tf.cast(ctx.replica_id_in_sync_group, rows.dtype) * rows
    return full[start:start + rows]


def _record(recorder, x, rate, noise_shape):
    """The dropouts of the first training step (later steps repeat them), as the first trace (or eager
    step) on the first thread that builds any sees them: Keras may trace a step several times, and
    MirroredStrategy traces each replica in its own thread."""
    if recorder.losses or steps_traced() > 1:  # later steps (steps_per_execution traces the step twice) repeat it
        return
    where = (threading.get_ident(), _trace())
    if where[1] == "scratch" or recorder.dropout_thread not in (None, where):
        return
    recorder.dropout_thread = where
    shape = _dims(getattr(x, "shape", None))
    entry = {"rate": _number(rate), "input": shape[1:] if shape else None,
             "noise_shape": _noise_dims(noise_shape, shape)}
    recorder.dropouts.append(entry)


_CONTROL_FLOW = ("CondBranchFuncGraph", "WhileCondFuncGraph", "WhileBodyFuncGraph")


def _trace():
    """The function being traced (a `tf.cond` branch belongs to its step), None in eager, and "scratch" in
    a graph Keras throws away. Keras 3 traces its step function twice inside one outer function
    (`multi_step_on_iterator`): each trace is its own function graph, so only the first one's count."""
    import tensorflow as tf
    from tensorflow.python.framework.func_graph import FuncGraph

    if tf.executing_eagerly():
        return None
    graph = tf.compat.v1.get_default_graph()
    traced = None
    while isinstance(graph, FuncGraph):
        if str(getattr(graph, "name", "")).endswith("_scratch_graph"):
            return "scratch"  # Keras traces a layer there only to learn its output shape
        if traced is None and type(graph).__name__ not in _CONTROL_FLOW:
            traced = graph
        if not isinstance(getattr(graph, "outer_graph", None), FuncGraph):
            break
        graph = graph.outer_graph
    return id(traced if traced is not None else graph), id(graph)


def _number(value):
    try:
        return round(float(value), 6)
    except (TypeError, ValueError):
        return None  # a tensor (e.g. a fed keep_prob): compared by position only


def _noise_dims(noise_shape, shape):
    """None when the noise covers the whole input (Keras 3 spells that out as the input's shape)."""
    if noise_shape is None:
        return None
    import tensorflow as tf

    static = tf.get_static_value(noise_shape, partial=True) if tf.is_tensor(noise_shape) else noise_shape
    dims = _dims(static) if static is not None else None
    if dims is None:
        return None if tf.is_tensor(noise_shape) else dims
    if shape is not None and len(dims) == len(shape) and all(
            d is None or s is None or d == s for d, s in zip(dims, shape)):
        return None
    return dims


def _dims(shape):
    try:
        return [None if d is None else int(d) for d in list(getattr(shape, "as_list", lambda: shape)())]
    except (TypeError, ValueError):
        return None
