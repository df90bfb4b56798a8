"""Make the randomness of the two runs the same, without switching any of it off.

- Seeds are fixed for everything (graph seeds for TF1, the global seed for TF2).
- `Dataset.shuffle` stays a real shuffle, given the same op seed on both sides when the program gives
  none: TF1 graph mode otherwise derives it from the graph's op count and TF2 eager from a counter, which
  never agree (harness-findings.md). With equal seeds graph and eager shuffles give the same order, so a
  matching pipeline yields the same order and a missing shuffle, another buffer or another
  `reshuffle_each_iteration` does not. `shuffle_and_repeat` becomes its documented equivalent
  `shuffle(...).repeat(...)`, which TF2 programs are migrated to.
- Dropout stays active with masks both sides draw the same way (`dropout.py`).
The pipeline calls (shuffle, batch, repeat) of the program's own code made before its first training step
are recorded, so that a divergence can name the difference. Queue-based input (`numpy_input_fn(shuffle=True)`,
`shuffle_batch`, ...): `queue_inputs.py`.
"""
import os
import random
import sys

from tf2migrate.harness.capture.libraries import library_dirs
from tf2migrate.harness.compare.vocabulary import shuffle_op

# The op seed of every `shuffle` that gives none (any fixed value works: it only has to be the same twice).
SHUFFLE_OP_SEED = 0x5EED


def apply(seed, recorder, share_masks=True):
    import numpy as np
    import tensorflow as tf

    from tf2migrate.harness.capture import dropout, queue_inputs

    random.seed(seed)
    np.random.seed(seed)
    tf.random.set_seed(seed)
    _seed_every_graph(seed)
    _seeded_shuffle(tf, recorder)
    queue_inputs.install(recorder, _record_before_training)
    _keep_first_keras_iterator()
    dropout.install(seed, recorder, share_masks)
    _seed_estimators(seed)
    recorder.notes.append(f"seed {seed}")


def _from_user_code():
    """True when the caller of the patched method is the program, not TF/Keras building its own pipeline."""
    frame = sys._getframe(3)
    while frame is not None and frame.f_code.co_filename.endswith("dataset_ops.py"):  # DatasetV1 -> V2
        frame = frame.f_back
    filename = os.path.abspath(frame.f_code.co_filename) if frame else ""
    return not filename.startswith(library_dirs())


def _record(recorder, text, *ops):
    if not recorder.losses and _from_user_code():
        _record_before_training(recorder, text, *ops)


def _record_before_training(recorder, text, *ops):
    """`text` for the report; `ops` the same calls by structure ({"op": "shuffle", "buffer": 1000, ...}),
    which the checks compare (a default spelled out is the same call)."""
    if not recorder.losses:
        recorder.pipeline.append(text)
        recorder.pipeline_ops.extend(ops)


def _seeded_shuffle(tf, recorder):
    from tensorflow.python.data.ops import dataset_ops

    cls = dataset_ops.DatasetV2  # DatasetV1's methods call these through super()
    original_shuffle, original_batch, original_repeat = cls.shuffle, cls.batch, cls.repeat

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None, name=None):
        _record(recorder, f"shuffle({_show(buffer_size)}, seed={seed}, "
                          f"reshuffle_each_iteration={reshuffle_each_iteration})",
                shuffle_op(_value(buffer_size), seed, reshuffle_each_iteration))
        return original_shuffle(self, buffer_size, seed=SHUFFLE_OP_SEED if seed is None else seed,
                                reshuffle_each_iteration=reshuffle_each_iteration, name=name)

    def batch(self, batch_size, drop_remainder=False, *args, **kwargs):
        _record(recorder, f"batch({_show(batch_size)}, drop_remainder={_show(drop_remainder)})",
                {"op": "batch", "batch": _value(batch_size), "drop_remainder": _value(drop_remainder)})
        return original_batch(self, batch_size, drop_remainder, *args, **kwargs)

    def repeat(self, count=None, name=None):
        _record(recorder, f"repeat({_show(count)})", {"op": "repeat", "count": _value(count)})
        return original_repeat(self, count, name=name)

    cls.shuffle, cls.batch, cls.repeat = shuffle, batch, repeat

    def shuffle_and_repeat(buffer_size, count=None, seed=None):
        return lambda ds: ds.shuffle(buffer_size, seed=seed).repeat(count)

    tf.data.experimental.shuffle_and_repeat = shuffle_and_repeat
    tf.compat.v1.data.experimental.shuffle_and_repeat = shuffle_and_repeat
    from tensorflow.python.data.experimental.ops import shuffle_ops

    shuffle_ops.shuffle_and_repeat = shuffle_and_repeat


def _keep_first_keras_iterator():
    """Keras 2 `fit` makes an iterator, then makes a new one for its first epoch when `steps_per_epoch`
    equals the dataset's length. Each iterator advances the shuffle's seed, so the first epoch would not
    get the first order (a TF1 program's one iterator does): the unused first iterator is kept instead."""
    import importlib

    for name in ("keras.src.engine.data_adapter", "tf_keras.src.engine.data_adapter"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        handler = module.DataHandler
        original_init = handler.__init__

        def __init__(self, *args, _original_init=original_init, **kwargs):
            _original_init(self, *args, **kwargs)
            adapter, calls = self._adapter, []
            inner = adapter.should_recreate_iterator

            def should_recreate_iterator():
                calls.append(1)
                return len(calls) > 1 and inner()

            adapter.should_recreate_iterator = should_recreate_iterator

        handler.__init__ = __init__


def _show(value):
    """A pipeline argument as the program wrote it (tensors as their constant value when they have one)."""
    if hasattr(value, "numpy"):
        try:
            return repr(value.numpy().item())
        except Exception:  # noqa: BLE001 - a symbolic tensor
            return "<tensor>"
    return repr(value)


def _value(value):
    """A pipeline argument as a JSON value (a tensor's constant value; "<tensor>" when symbolic)."""
    if hasattr(value, "numpy"):
        try:
            return value.numpy().item()
        except Exception:  # noqa: BLE001 - a symbolic tensor
            return "<tensor>"
    return value if value is None or isinstance(value, (bool, int, float, str)) else repr(value)


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
