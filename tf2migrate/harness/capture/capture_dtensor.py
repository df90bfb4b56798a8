"""Per-step loss capture inside DTensor programs (seed 003).

`tf.py_function` cannot run there (DTensor has no layout propagation for EagerPyFunc), so each step's
loss, a replicated scalar, is added into a replicated buffer variable on the model's mesh, and the
buffer is read once when the program ends. A DTensor program computes one global loss per step, so
no per-replica summing is needed.
"""
CAPACITY = 4096


def is_dtensor_step(sources):
    """True when the gradient is taken with respect to DTensor variables (Keras layers on a mesh)."""
    import tensorflow as tf

    return any(type(v).__name__ == "DVariable" for v in tf.nest.flatten(sources))


class DTensorLosses:
    def __init__(self, recorder):
        self.recorder = recorder
        self.buffer = None
        self.count = None
        recorder.finalizers.append(self.flush)

    def _create(self, sources, tf):
        from tensorflow.experimental import dtensor

        mesh = next(v for v in tf.nest.flatten(sources) if type(v).__name__ == "DVariable").layout.mesh
        with tf.init_scope():
            vector = dtensor.Layout.replicated(mesh, rank=1)
            scalar = dtensor.Layout.replicated(mesh, rank=0)
            self.buffer = dtensor.DVariable(dtensor.call_with_layout(tf.zeros, vector, shape=[CAPACITY]))
            self.count = dtensor.DVariable(dtensor.call_with_layout(tf.zeros, scalar, shape=[], dtype=tf.int32))

    def record(self, target, sources):
        import tensorflow as tf

        if self.buffer is None:
            self._create(sources, tf)
        step = tf.one_hot(self.count.read_value(), CAPACITY, dtype=tf.float32)
        self.buffer.assign_add(step * tf.cast(target, tf.float32))
        self.count.assign_add(1)

    def flush(self):
        if self.buffer is None:
            return
        from tensorflow.experimental import dtensor

        count = int(dtensor.unpack(self.count.read_value())[0].numpy())
        values = dtensor.unpack(self.buffer.read_value())[0].numpy()
        if count > CAPACITY:
            self.recorder.notes.append(f"DTensor loss buffer holds {CAPACITY} steps; {count} were run")
        for value in values[: min(count, CAPACITY)]:
            self.recorder.add_loss(float(value), "tape")
        self.recorder.notes.append("DTensor program: losses read from a replicated buffer at exit")
        self.buffer = None
