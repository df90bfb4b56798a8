"""Remove the randomness that TF1 and TF2 draw from different streams, identically on both sides.

Graph-mode and eager `Dataset.shuffle` never produce the same order even with equal seeds, and dropout
masks differ the same way (see harness-findings.md), so both sides run with shuffle as the identity and
dropout switched off; seeds are fixed for everything else (initializers the alignment does not cover).
"""
import importlib
import random


def apply(seed, recorder, keras=None):
    """`keras`: the `versions.Keras` behind `tf.keras` (its Dropout layer is patched)."""
    import numpy as np
    import tensorflow as tf

    random.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)
    _seed_every_graph(seed)
    _identity_shuffle(tf)
    _no_dropout(tf, keras.root if keras else "keras")
    _seed_estimators(seed)
    recorder.notes.append(f"seed {seed}; Dataset.shuffle made the identity; dropout disabled")


def _identity_shuffle(tf):
    from tensorflow.python.data.ops import dataset_ops

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        return self

    for cls in (dataset_ops.DatasetV2, dataset_ops.DatasetV1):
        if "shuffle" in cls.__dict__:
            cls.shuffle = shuffle
    # tf.data.experimental.shuffle_and_repeat -> plain repeat
    def shuffle_and_repeat(buffer_size, count=None, seed=None):
        return lambda ds: ds.repeat(count)

    tf.data.experimental.shuffle_and_repeat = shuffle_and_repeat
    tf.compat.v1.data.experimental.shuffle_and_repeat = shuffle_and_repeat


def _no_dropout(tf, keras_root):
    def dropout_v2(x, rate=None, noise_shape=None, seed=None, name=None, **kwargs):
        return tf.identity(x)

    def dropout_v1(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
        return tf.identity(x)

    tf.nn.dropout = dropout_v2
    tf.compat.v2.nn.dropout = dropout_v2
    tf.compat.v1.nn.dropout = dropout_v1

    def layers_dropout(inputs, rate=0.5, noise_shape=None, seed=None, training=False, name=None):
        return tf.identity(inputs)

    if keras_root != "keras" or "engine" in tf.keras.layers.Layer.__module__:  # Keras 3 has no tf.compat.v1.layers
        tf.compat.v1.layers.dropout = layers_dropout
    keras_dropout = importlib.import_module(f"{keras_root}.src.layers.regularization.dropout")  # Keras 2 and 3
    keras_dropout.Dropout.call = lambda self, inputs, training=None: tf.identity(inputs)


def _seed_every_graph(seed):
    """TF1 programs draw initial values from their graph's seed: give every graph one, including the
    default graph that legacy mode creates after this point and graphs the program makes itself."""
    from tensorflow.python.framework import ops

    original_init = ops.Graph.__init__

    def __init__(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self.seed = seed

    ops.Graph.__init__ = __init__
    ops.get_default_graph().seed = seed


def _seed_estimators(seed):
    """Estimators build fresh graphs; their graph seed comes from RunConfig.tf_random_seed."""
    try:
        from tensorflow_estimator.python.estimator import run_config
    except ImportError:
        return
    original_init = run_config.RunConfig.__init__

    def __init__(self, *args, **kwargs):
        if kwargs.get("tf_random_seed") is None:
            kwargs["tf_random_seed"] = seed
        original_init(self, *args, **kwargs)

    run_config.RunConfig.__init__ = __init__
