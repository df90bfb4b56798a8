"""Which tensor is a step's loss: one floating number, as TF1 took it.

TF1's `EstimatorSpec` and `Optimizer.minimize` accept a loss of one element, not only rank 0: an unreduced
`sparse_softmax_cross_entropy_with_logits` over a batch of one is a vector `[1]` (the Estimator reshapes it).
Its Keras migration keeps that vector as its gradient target and in its `loss_tracker`, and while the step is
traced the batch's size is often unknown (`[None]`): such a tensor may be the loss, and its value is checked
when it is read. A rank-0 loss found in the same step is preferred; a vector that holds more than one number
at run time is not a loss TF1 could have trained on, and is left out with a note.
"""


def is_rank0(t) -> bool:
    """Rank 0 (a DTensor step's loss)."""
    shape = getattr(t, "shape", None)
    return shape is not None and shape.rank == 0 and getattr(t, "dtype", None) is not None and t.dtype.is_floating


def is_scalar(t) -> bool:
    """A floating tensor of rank 0, or of a static shape holding exactly one element."""
    shape, dtype = getattr(t, "shape", None), getattr(t, "dtype", None)
    return (shape is not None and shape.rank is not None and dtype is not None and dtype.is_floating
            and shape.is_fully_defined() and shape.num_elements() == 1)


def may_be_scalar(t) -> bool:
    """A floating tensor whose every known dimension is 1 (`[None]`, `[None, 1]`): one number when the batch
    holds one; its value says."""
    shape, dtype = getattr(t, "shape", None), getattr(t, "dtype", None)
    return (shape is not None and shape.rank is not None and dtype is not None and dtype.is_floating
            and all(d is None or d == 1 for d in shape.as_list()))


def one_value(value):
    """The float a recorded loss holds, or None when it holds no number or several."""
    import numpy as np

    array = np.asarray(value)
    return float(array.reshape(-1)[0]) if array.size == 1 else None


def left_out(recorder, value):
    """Say once why a step's loss was not recorded."""
    import numpy as np

    note = (f"a step's loss held {np.size(value)} numbers, not one: steps with such a loss were not recorded "
            f"(TF1 trains on a loss of one element)")
    if note not in recorder.notes:
        recorder.notes.append(note)


def add_loss(recorder, value, kind):
    """A step's loss as the logs hold it: one number, or a vector left out with a note."""
    number = one_value(value)
    if number is None:
        left_out(recorder, value)
    else:
        recorder.add_loss(number, kind)
