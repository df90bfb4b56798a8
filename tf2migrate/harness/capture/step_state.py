"""What the wrapped Keras train and test steps share with the captures that run inside them.

`capture_keras.py` marks a train step and takes its loss, `capture_eval.py` a test step, `dropout.py` counts the
steps traced; the marks are per thread (MirroredStrategy traces each replica in a thread of its own).
"""
import threading

step = threading.local()   # in_train_step, in_test_step, loss, reported, steps_traced


def steps_traced() -> int:
    """How many train steps this thread has traced: with steps_per_execution > 1 Keras traces the step twice
    in one function (the first step, then the loop over the others), and the first step is the one to census."""
    return getattr(step, "steps_traced", 0)


def steps_per_execution(model) -> int:
    variable = getattr(model, "_steps_per_execution", None)
    if variable is None:   # Keras 3: a plain int
        return int(getattr(model, "steps_per_execution", 1) or 1)
    try:
        return int(variable.numpy()) if variable is not None else 1
    except Exception:  # noqa: BLE001 - not readable eagerly (remote): count it as one step per call
        return 1
