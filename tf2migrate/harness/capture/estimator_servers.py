"""A TF1 Estimator trained with `train()` alone cannot be a cluster: in TF1 only `train_and_evaluate` starts a
task's server, so under `ps:W,P` or `multi-worker:N` the tasks of such a program wait for each other until the
timeout. The child says so at the first `train()` call (issue 18), unless `train_and_evaluate` made the call."""
import threading

from tf2migrate.harness.capture.recorder import CannotRunAsCluster

_executor = threading.local()   # inside train_and_evaluate, which starts this task's server before train()


def mark_train_and_evaluate():
    from tensorflow_estimator.python.estimator import training

    original = training._TrainingExecutor.run

    def run(self, *args, **kwargs):
        _executor.running = True
        try:
            return original(self, *args, **kwargs)
        finally:
            _executor.running = False

    training._TrainingExecutor.run = run


def check(spec):
    """A task of a TF1 cluster whose `train()` is not called by train_and_evaluate has no server: its session
    waits for the chief's, which is never started. Said at once (issue 18: it ran until the timeout)."""
    if spec.get("servers_from_train_and_evaluate") and not getattr(_executor, "running", False):
        raise CannotRunAsCluster(
            "its Estimator is trained with train() alone, and in TF1 train() starts no server (only "
            "train_and_evaluate does), so its tasks would wait for each other until the timeout; verify it with "
            "--cluster local, or train it with tf.estimator.train_and_evaluate")
