"""Per-step loss capture and weight alignment for TF2 programs: Keras `fit` (also under
ParameterServerStrategy) and custom `GradientTape` loops.

Keras' `logs["loss"]` is the running mean of the epoch, not the loss of the step, so the value returned
by `compute_loss` inside `train_step` is added to the step's outputs under a private key (thread-local,
because MirroredStrategy traces replicas in parallel threads; Keras 2 sums the per-replica values, which
are already scaled by 1/replicas). Under PSS the logs are RemoteValues, fetched when training ends.
"""
import functools
import importlib
import inspect

from tf2migrate.harness.capture import init_laws
from tf2migrate.harness.capture.capture_dtensor import DTensorLosses, is_dtensor_step
from tf2migrate.harness.capture.capture_state import track_state
from tf2migrate.harness.capture.one_loss import is_scalar, left_out, may_be_scalar, one_value
from tf2migrate.harness.capture.own_values import own_value, shard_rows
from tf2migrate.harness.compare.partitions import sharded_name
from tf2migrate.harness.capture.recorder import StepCapReached, clean_name
from tf2migrate.harness.capture.step_state import step, steps_per_execution
from tf2migrate.harness.capture.values import constant_initializer, initializer_name, numpy_value

LOSS_KEY = "_tf2migrate_step_loss"


def install(recorder, aligner, keras):
    """`keras`: the `versions.Keras` behind `tf.keras`: Keras 2 from `keras` (TF 2.15) or `tf_keras`
    (TF 2.16+ with TF_USE_LEGACY_KERAS=1), or Keras 3 (`capture_keras3.py`)."""
    import tensorflow as tf

    if keras.major == 3:
        from tf2migrate.harness.capture import capture_keras3

        capture_keras3.install(recorder, aligner, tf)
    else:
        _wrap_add_weight(tf.keras.layers.Layer, recorder, aligner, tf)
        _wrap_shim_variables(recorder, aligner, tf, keras.root)
    _wrap_train_step(tf.keras.Model, tf, averages_replicas=keras.major == 3)
    _wrap_loss_tracker(tf.keras.metrics.Mean, tf)
    _wrap_fit(tf.keras.Model, recorder, tf)
    _wrap_tape(recorder, tf)


def _wrap_add_weight(Layer, recorder, aligner, tf):
    original = Layer.add_weight
    signature = inspect.signature(original)

    def add_weight(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        a = bound.arguments
        trainable = a.get("trainable", None) is not False
        if not tf.compat.v1.executing_eagerly_outside_functions():
            return original(*bound.args, **bound.kwargs)
        if not trainable:
            var = original(*bound.args, **bound.kwargs)
            track_state(self, var, recorder, tf)
            return var
        wanted = f"{self.name}/{a.get('name')}"
        shape = tuple(tf.TensorShape(a.get("shape") or ()).as_list())
        value = aligner.take(wanted, shape) if aligner else None
        user_initializer = a.get("initializer")
        if value is not None:
            a["initializer"] = constant_initializer(value, tf)
        var = original(*bound.args, **bound.kwargs)
        name = clean_name(sharded_name(var) if type(var).__name__ == "ShardedVariable" else var.name)
        recorder.add_variable(name, shape)
        recorder.initializers.setdefault(name, initializer_name(user_initializer))
        init_laws.record(recorder, name, user_initializer, shape, tf.as_dtype(a.get("dtype") or tf.float32).is_floating,
                         shard_rows(var))
        if value is not None:
            recorder.aligned.append(name)
            # drawn after creation: a sharded variable's shards are drawn one by one, each with its own shape
            own = own_value({"dtype": a.get("dtype"), "initializer": user_initializer}, shape, tf, shard_rows(var))
            if own is not None:
                recorder.add_own_initial(name, own)
            return var
        with tf.init_scope():
            try:
                step0 = numpy_value(var)
            except Exception:  # noqa: BLE001 - lazily initialised variable: no step-0 value to share
                recorder.notes.append(f"could not read the step-0 value of {name}")
                return var
        recorder.add_own_initial(name, step0)
        if recorder.spec.get("init_out"):
            recorder.initial_values[name] = step0
        return var

    Layer.add_weight = add_weight


def _wrap_shim_variables(recorder, aligner, tf, keras_root):
    """`tf1.get_variable` inside a layer decorated with `track_tf1_style_variables` (TF's model-mapping shim)
    bypasses `add_weight`: its variable store is wrapped the same way."""
    variable_scope_shim = importlib.import_module(f"{keras_root}.src.legacy_tf_layers.variable_scope_shim")

    store = variable_scope_shim._EagerVariableStore
    original = store._get_single_variable

    def _get_single_variable(self, name, shape=None, dtype=tf.float32, initializer=None, *args, **kwargs):
        trainable = kwargs.get("trainable", None) is not False
        value = None
        if trainable and shape is not None and aligner:
            value = aligner.take(name, tuple(tf.TensorShape(shape).as_list()))
        if value is not None:
            initializer = constant_initializer(value, tf)
        var = original(self, name, shape, dtype, initializer, *args, **kwargs)
        if trainable and var.trainable:
            cleaned = clean_name(var.name)
            recorder.add_variable(cleaned, var.shape.as_list())
            if value is not None:
                recorder.aligned.append(cleaned)
        return var

    store._get_single_variable = _get_single_variable


def _wrap_train_step(Model, tf, averages_replicas=False):
    """`averages_replicas`: Keras 3 averages the per-replica outputs of a step where Keras 2 sums them; the
    loss is then multiplied by the replica count so that both give the same global value."""
    original_compute_loss = Model.compute_loss
    original_make = Model.make_train_function

    @functools.wraps(original_compute_loss)  # Keras 3 inspects its signature for `training`
    def compute_loss(self, *args, **kwargs):
        loss = original_compute_loss(self, *args, **kwargs)
        stepping = getattr(step, "in_train_step", False) or getattr(step, "in_test_step", False)  # capture_eval.py
        if stepping and getattr(step, "loss", None) is None:
            step.loss = loss
        return loss

    def make_train_function(self, force=False):
        if "train_step" not in self.__dict__:
            inner = self.train_step
            # compile(steps_per_execution=k) runs k train steps per call and returns the last one's logs:
            # each step's loss is then handed over by a py_function (local, single-replica programs only;
            # elsewhere only every k-th step is recorded, and the comparison says so)
            many = steps_per_execution(self) > 1 and self.distribute_strategy.num_replicas_in_sync == 1 \
                and getattr(self, "_cluster_coordinator", None) is None
            self._tf2migrate_step_losses = []

            def keep(value):
                self._tf2migrate_step_losses.append(value.numpy())
                return value

            def train_step(data):
                step.in_train_step, step.loss, step.reported = True, None, None
                step.maybe_loss = step.maybe_reported = None   # vectors that may hold one number (one_loss.py)
                step.steps_traced = getattr(step, "steps_traced", 0) + 1  # see steps_traced()
                try:
                    logs = inner(data)
                finally:
                    step.in_train_step = False
                if step.reported is None and step.loss is None:
                    step.reported, step.loss = step.maybe_reported, step.maybe_loss
                if step.reported is not None:  # the model's own `loss_tracker` (_wrap_loss_tracker)
                    ctx = tf.distribute.get_replica_context()
                    in_sync = ctx.num_replicas_in_sync if ctx is not None else 1
                    step.loss = step.reported / in_sync if in_sync > 1 else step.reported  # as the scaled target
                if step.loss is not None and isinstance(logs, dict):
                    logs = dict(logs)
                    loss = tf.py_function(keep, [step.loss], step.loss.dtype) if many else step.loss
                    ctx = tf.distribute.get_replica_context()
                    replicas = ctx.num_replicas_in_sync if ctx is not None and averages_replicas else 1
                    logs[LOSS_KEY] = tf.identity(loss) * replicas if replicas > 1 else tf.identity(loss)
                return logs

            self.train_step = train_step
        return original_make(self, force)

    Model.compute_loss = compute_loss
    Model.make_train_function = make_train_function


def _wrap_loss_tracker(Mean, tf):
    """A custom train_step that reports its loss in a `Mean(name="loss")` (the Keras guide's `loss_tracker`; the
    general Estimator conversion's) reports the step's loss there, which may not be the gradient target: a model_fn
    that minimizes `average_loss` and returns `loss=batch * average_loss` logged the second. Keras's own compiled
    loss tracker passes a sample_weight and is left alone (its value is compute_loss's)."""
    original = Mean.update_state

    def update_state(self, values, sample_weight=None, *args, **kwargs):
        if getattr(step, "in_train_step", False) and getattr(step, "reported", None) is None \
                and sample_weight is None and not args and not kwargs and self.name == "loss":
            if is_scalar(values):
                step.reported = values
            elif may_be_scalar(values) and getattr(step, "maybe_reported", None) is None:
                step.maybe_reported = values
        return original(self, values, sample_weight, *args, **kwargs)

    Mean.update_state = update_state


def _wrap_fit(Model, recorder, tf):
    original_fit = Model.fit
    signature = inspect.signature(original_fit)

    class StepLossCallback(tf.keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self._supports_tf_logs = True  # required under PSS, and keeps RemoteValues unfetched
            self.pending = []

        def on_train_batch_end(self, batch, logs=None):
            # popped so that the progress bar and History of the user's program stay as they were
            value = logs.pop(LOSS_KEY, None) if isinstance(logs, dict) else logs
            if value is None:
                return
            steps = getattr(self.model, "_tf2migrate_step_losses", None)
            if steps:  # several steps ran in this call (steps_per_execution): each one's loss
                for loss in steps:
                    _add_loss(recorder, loss, "keras")
                steps.clear()
            elif hasattr(value, "fetch"):
                self.pending.append(value)
            else:
                _add_loss(recorder, value, "keras")
            _flush_initial_values(recorder)
            if recorder.max_steps is not None and len(recorder.losses) + len(self.pending) >= recorder.max_steps:
                self.model.stop_training = True

        def on_train_end(self, logs=None):
            for remote in self.pending:
                value = remote.fetch()
                _add_loss(recorder, value[LOSS_KEY] if isinstance(value, dict) else value, "keras")
            self.pending = []

    def fit(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        callbacks = list(bound.arguments.get("callbacks") or [])
        bound.arguments["callbacks"] = [StepLossCallback()] + callbacks
        return original_fit(*bound.args, **bound.kwargs)

    Model.fit = fit


def _wrap_tape(recorder, tf):
    """Custom loops: a scalar gradient target is the step's loss (summed over in-sync replicas)."""
    original = tf.GradientTape.gradient
    buffer = []
    dtensor_losses = None

    def record(value, replicas):
        if one_value(value) is None:
            left_out(recorder, value)
            return
        buffer.append(one_value(value))
        if len(buffer) >= replicas:
            recorder.add_loss(sum(buffer), "tape")
            buffer.clear()
        _flush_initial_values(recorder)

    def gradient(self, target, sources, *args, **kwargs):
        if getattr(step, "in_train_step", False):
            if getattr(step, "loss", None) is None and is_scalar(target):
                step.loss = target
            elif may_be_scalar(target) and getattr(step, "maybe_loss", None) is None:
                step.maybe_loss = target
            return original(self, target, sources, *args, **kwargs)
        if _is_scalar(target) and is_dtensor_step(sources):
            nonlocal dtensor_losses
            dtensor_losses = dtensor_losses or DTensorLosses(recorder)
            dtensor_losses.record(target, sources)
        elif may_be_scalar(target):
            if recorder.cap_reached() and tf.executing_eagerly():
                raise StepCapReached()
            ctx = tf.distribute.get_replica_context()
            replicas = ctx.num_replicas_in_sync if ctx is not None else 1
            if tf.executing_eagerly():
                record(target.numpy(), replicas)
            else:
                tf.py_function(lambda t: record(t.numpy(), replicas) or 0, [target], tf.int32)
        return original(self, target, sources, *args, **kwargs)

    tf.GradientTape.gradient = gradient


def _is_scalar(t):
    """Rank 0 (a DTensor step's loss)."""
    shape = getattr(t, "shape", None)
    return shape is not None and shape.rank == 0 and getattr(t, "dtype", None) is not None and t.dtype.is_floating


def _add_loss(recorder, value, kind):
    """A step's loss as the logs hold it: one number, or a vector left out with a note (one_loss.py)."""
    number = one_value(value)
    if number is None:
        left_out(recorder, value)
    else:
        recorder.add_loss(number, kind)


def _flush_initial_values(recorder):
    """Keras originals: the step-0 values read at creation are shared once training has started."""
    if recorder.spec.get("init_out") and recorder.initial_values and not recorder._init_dumped:
        recorder.dump_initial_values(list(recorder.initial_values.items()))
