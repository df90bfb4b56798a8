"""The evaluation loss as an Estimator averages it: the mean of the batch losses.

`Estimator.evaluate` reports `loss` as the mean of each batch's loss; Keras' `evaluate` weights each batch by
its size. The two agree unless the last batch is partial, which real evaluation sets almost always have: a
migrated program whose model computes every batch's loss exactly as before would still report another
number. So that the proof compares the model and not the averaging, each Keras evaluation also records the
loss of every batch (the value `compute_loss` returns in `test_step`, as `capture_keras.py` does for
`train_step`) and its unweighted mean under `BATCH_MEAN`; the Estimator's own `loss` is recorded under that
key too. `checks.check_eval` compares it and says when only the averaging differs. Local, single-replica
programs on Keras 2 only (a replica's batch loss is scaled by the strategy; Keras 3 hands its callbacks a copy
of the logs, so the private key could not be taken out of the program's results); elsewhere `loss` is compared
as reported.
"""
import inspect

from tf2migrate.harness.capture.step_state import step, steps_per_execution
from tf2migrate.harness.compare.vocabulary import BATCH_MEAN

BATCH_KEY = "_tf2migrate_eval_batch_loss"


def install(recorder, tf):
    Model = tf.keras.Model
    original_make, original_evaluate = Model.make_test_function, Model.evaluate
    signature = inspect.signature(inspect.unwrap(original_evaluate))  # Keras' own: capture_state wraps it

    def make_test_function(self, force=False):
        if "test_step" not in self.__dict__ and self.distribute_strategy.num_replicas_in_sync == 1 \
                and steps_per_execution(self) == 1:  # else the logs hold only every k-th batch's loss
            inner = self.test_step

            def test_step(data):
                step.in_test_step, step.loss = True, None
                try:
                    logs = inner(data)
                finally:
                    step.in_test_step = False
                if step.loss is not None and isinstance(logs, dict):
                    logs = {**logs, BATCH_KEY: tf.identity(step.loss)}
                return logs

            self.test_step = test_step
        return original_make(self, force)

    class BatchLosses(tf.keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self._supports_tf_logs = True
            self.losses = []

        def on_test_batch_end(self, batch, logs=None):
            value = logs.pop(BATCH_KEY, None) if isinstance(logs, dict) else None  # not in the program's results
            if value is not None:
                self.losses.append(float(value))

    def evaluate(self, *args, **kwargs):
        bound = signature.bind(self, *args, **kwargs)
        seen = BatchLosses()
        bound.arguments["callbacks"] = [seen] + list(bound.arguments.get("callbacks") or [])
        result = original_evaluate(*bound.args, **bound.kwargs)
        if isinstance(result, dict):
            result.pop(BATCH_KEY, None)
        if seen.losses and recorder.eval_results:  # the entry capture_state's wrapper (inside this one) made
            recorder.eval_results[-1][BATCH_MEAN] = sum(seen.losses) / len(seen.losses)
        return result

    Model.make_test_function, Model.evaluate = make_test_function, evaluate


def estimator_result(metrics: dict) -> dict:
    """An Estimator's results: its `loss` is already the mean of the batch losses."""
    if "loss" in metrics:
        metrics[BATCH_MEAN] = metrics["loss"]
    return metrics
