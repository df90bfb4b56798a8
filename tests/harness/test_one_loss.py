"""Which tensor the capture takes as a step's loss (harness/capture/one_loss.py): one floating number, as TF1 took
it, also when it is a vector of one element whose batch size is unknown while the step is traced."""
import pytest

from tf2migrate.harness.capture.one_loss import is_scalar, left_out, may_be_scalar, one_value

tf = pytest.importorskip("tensorflow")


def _t(shape, dtype="float32"):
    return tf.TensorSpec(shape, dtype)


def test_a_loss_of_one_element_is_a_scalar_whatever_its_rank():
    assert is_scalar(_t([])) and is_scalar(_t([1])) and is_scalar(_t([1, 1]))
    assert not is_scalar(_t([None])) and not is_scalar(_t([2])) and not is_scalar(_t(None))
    assert not is_scalar(_t([], "int32"))


def test_a_vector_of_unknown_batch_may_be_the_loss_and_its_value_says():
    assert may_be_scalar(_t([None])) and may_be_scalar(_t([None, 1])) and may_be_scalar(_t([]))
    assert not may_be_scalar(_t([None, 2])) and not may_be_scalar(_t([3])) and not may_be_scalar(_t(None))
    assert not may_be_scalar(_t([None], "int64"))
    assert one_value(2.5) == 2.5 and one_value([[327.75]]) == 327.75
    assert one_value([1.0, 2.0]) is None and one_value([]) is None


def test_a_loss_of_several_numbers_is_left_out_with_one_note():
    class Recorder:
        notes = []

    recorder = Recorder()
    left_out(recorder, [1.0, 2.0])
    left_out(recorder, [3.0, 4.0])
    assert len(recorder.notes) == 1 and "held 2 numbers, not one" in recorder.notes[0]
