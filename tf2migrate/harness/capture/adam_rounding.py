"""Keras' Adam rounded as TF1's `AdamOptimizer`, on the migrated side of a pair whose original trains with it.

The two compute the same update, `m * lr * sqrt(1 - b2^t) / (1 - b1^t) / (sqrt(v) + eps)`, with two constants
rounded differently: Keras takes `1 - beta` in float64 and rounds it to float32 (0.001), TF1's kernel subtracts
in float32 (1 - 0.999f = 0.00099998713), and Keras raises `beta^t` with `pow` where TF1 multiplies a float32
power by beta after every step. Keras' first steps are then (1 - 6.4e-6) of TF1's. On a program whose loss moves
tenfold in a step (a public IMDB program: raw word ids, losses of 300 to 900) that is a relative difference of
1e-5 from step 2, beyond the strict tolerance, on a correct migration. Here the constants are rounded as TF1
rounds them and every other operation is the program's own (its learning rate, betas, epsilon, variables): the
same program under another rounding, as the aligned step-0 values are the same program from other numbers.
Dense float32 updates without amsgrad only (Keras 2 and 3); anything else keeps Keras' own update.
"""
import functools

NOTE = ("Keras Adam rounded as TF1's AdamOptimizer, which the original trains with: 1 - beta in float32 and "
        "beta^t as TF1's running float32 product (the rest of each update is the migrated program's own)")
TABLE_MAX = 1 << 16   # steps with TF1's own powers; beyond, pow (where 1 - beta^t is 1 in float32 for beta <= 0.9997)


def install(recorder, tf, keras):
    """`tf.keras.optimizers.Adam.update_step`: Keras 2 (`keras` on TF 2.15, `tf_keras` after) or Keras 3."""
    import numpy as np

    Adam = tf.keras.optimizers.Adam
    original = Adam.update_step

    def update(optimizer, gradient, variable, learning_rate, m, v, assign_add, assign_sub):
        if NOTE not in recorder.notes:
            recorder.notes.append(NOTE)
        step = tf.cast(optimizer.iterations, tf.int32)
        b1, b2 = tf.constant(np.float32(optimizer.beta_1)), tf.constant(np.float32(optimizer.beta_2))
        beta_1_power, beta_2_power = _power(optimizer.beta_1, step, tf), _power(optimizer.beta_2, step, tf)
        lr = tf.cast(learning_rate, tf.float32)
        alpha = lr * tf.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        assign_add(m, (gradient - m) * (1 - b1))
        assign_add(v, (tf.square(gradient) - v) * (1 - b2))
        assign_sub(variable, (m * alpha) / (tf.sqrt(v) + optimizer.epsilon))

    if keras.major == 2:
        def update_step(self, gradient, variable):
            if not _plain(self, gradient, variable, tf):
                return original(self, gradient, variable)
            i = self._index_dict[self._var_key(variable)]
            update(self, gradient, variable, self.learning_rate, self._momentums[i], self._velocities[i],
                   lambda x, value: x.assign_add(value), lambda x, value: x.assign_sub(value))
    else:
        def update_step(self, gradient, variable, learning_rate):
            if not _plain(self, gradient, variable, tf):
                return original(self, gradient, variable, learning_rate)
            i = self._get_variable_index(variable)
            m, v = self._momentums[i], self._velocities[i]
            update(self, gradient, variable, learning_rate, m, v, self.assign_add, self.assign_sub)

    Adam.update_step = update_step


def _plain(optimizer, gradient, variable, tf):
    """The update TF1's kernel also makes: dense float32, betas given as numbers, no amsgrad, no adaptive epsilon."""
    return (not isinstance(gradient, tf.IndexedSlices) and tf.as_dtype(variable.dtype) == tf.float32
            and gradient.dtype == tf.float32
            and not optimizer.amsgrad and not getattr(optimizer, "adaptive_epsilon", False)
            and all(isinstance(b, (int, float)) and 0 < b < 1 for b in (optimizer.beta_1, optimizer.beta_2)))


def _power(beta, step, tf):
    """TF1's `beta_power` at the update after `step` completed ones: float32 beta, times beta once per step."""
    table = powers(beta)
    exact = tf.gather(tf.constant(table), tf.minimum(step, len(table) - 1))
    return tf.where(step < len(table), exact, tf.pow(tf.constant(table[0]), tf.cast(step + 1, tf.float32)))


@functools.lru_cache(maxsize=None)
def powers(beta):
    """[beta, beta^2, ...] multiplied in float32 one step after another, as TF1's Adam keeps them, up to where
    1 - beta^t is 1 in float32 (or TABLE_MAX)."""
    import numpy as np

    b = np.float32(beta)
    out, p = [b], b
    while len(out) < TABLE_MAX and np.float32(1) - p != np.float32(1):
        p = np.float32(p * b)
        out.append(p)
    return np.array(out, np.float32)
