"""The drift twin's child (`compare/sensitivity.py`): every gradient the program computes slightly off."""
from tf2migrate.harness.compare.sensitivity import NUDGE, NUDGE_SEED


def nudge_gradients(tf):
    """Child side, the twin only: every element of every gradient the program computes moved by `NUDGE`,
    up or down at random (not a common scale, which Adam and RMSprop would divide out); the
    random signs have their own op seed, so no other draw of the program changes. TF2 and Keras take their
    gradients from `GradientTape.gradient`, TF1 graphs from `Optimizer.compute_gradients`."""
    def nudge(g):
        if g is None or not g.dtype.is_floating:
            return g
        if isinstance(g, tf.IndexedSlices):
            return tf.IndexedSlices(nudge(g.values), g.indices, g.dense_shape)
        sign = tf.sign(tf.random.uniform(tf.shape(g), -1.0, 1.0, seed=NUDGE_SEED))
        return g * tf.cast(1.0 + sign * NUDGE, g.dtype)

    tape_gradient = tf.GradientTape.gradient

    def gradient(self, target, sources, *args, **kwargs):
        return tf.nest.map_structure(nudge, tape_gradient(self, target, sources, *args, **kwargs),
                                     expand_composites=False)

    tf.GradientTape.gradient = gradient
    Optimizer = tf.compat.v1.train.Optimizer
    compute_gradients = Optimizer.compute_gradients

    def v1_compute_gradients(self, *args, **kwargs):
        pairs = compute_gradients(self, *args, **kwargs)
        if tf.executing_eagerly():   # eager v1 optimizers take theirs from the tape, nudged already
            return pairs
        return [(nudge(g), v) for g, v in pairs]

    Optimizer.compute_gradients = v1_compute_gradients
