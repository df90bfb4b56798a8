"""Per-step loss capture for TF2 programs: Keras `fit` (also under ParameterServerStrategy) and custom
`GradientTape` loops; the weights are keras_weights.py's.

Keras' `logs["loss"]` is the running mean of the epoch, not the loss of the step, so the value returned
by `compute_loss` inside `train_step` is added to the step's outputs under a private key (thread-local,
because MirroredStrategy traces replicas in parallel threads; Keras 2 sums the per-replica values, which
are already scaled by 1/replicas). Under PSS the logs are RemoteValues, fetched when training ends.
"""
import functools
import inspect

from tf2migrate.harness.capture import capture_keras3, keras_weights
from tf2migrate.harness.capture.capture_dtensor import DTensorLosses, is_dtensor_step
from tf2migrate.harness.capture.one_loss import add_loss, is_rank0, is_scalar, left_out, may_be_scalar, one_value
from tf2migrate.harness.capture.recorder import StepCapReached
from tf2migrate.harness.capture.step_state import step, steps_per_execution

LOSS_KEY = "_tf2migrate_step_loss"


def install(recorder, aligner, keras):
    """`keras`: the `versions.Keras` behind `tf.keras`: Keras 2 from `keras` (TF 2.15) or `tf_keras`
    (TF 2.16+ with TF_USE_LEGACY_KERAS=1), or Keras 3 (`capture_keras3.py`)."""
    import tensorflow as tf

    if keras.major == 3:
        capture_keras3.install(recorder, aligner, tf)
    else:
        keras_weights.install(recorder, aligner, tf, keras.root)
    _wrap_train_step(tf.keras.Model, tf, averages_replicas=keras.major == 3)
    _wrap_loss_tracker(tf.keras.metrics.Mean, tf)
    _wrap_fit(tf.keras.Model, recorder, tf)
    _wrap_tape(recorder, tf)


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
                    add_loss(recorder, loss, "keras")
                steps.clear()
            elif hasattr(value, "fetch"):
                self.pending.append(value)
            else:
                add_loss(recorder, value, "keras")
            _flush_initial_values(recorder)
            if recorder.max_steps is not None and len(recorder.losses) + len(self.pending) >= recorder.max_steps:
                self.model.stop_training = True

        def on_train_end(self, logs=None):
            for remote in self.pending:
                value = remote.fetch()
                add_loss(recorder, value[LOSS_KEY] if isinstance(value, dict) else value, "keras")
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
        if is_rank0(target) and is_dtensor_step(sources):
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


def _flush_initial_values(recorder):
    """Keras originals: the step-0 values read at creation are shared once training has started."""
    if recorder.spec.get("init_out") and recorder.initial_values and not recorder._init_dumped:
        recorder.dump_initial_values(list(recorder.initial_values.items()))
