"""The evaluation loss as an Estimator averages it (harness/capture/capture_eval.py): the mean of the batch losses,
where Keras weights each batch by its size. A migrated program whose model evaluates every batch as before
is compared on that mean and the report says how the reported numbers differ; a model that evaluates
differently is still DIVERGED."""
import os
import shutil

from harness_support import ROOT

PAIR = os.path.join(ROOT, "fixtures", "programs", "est_numpy_input")


def _pair(tmp_path, original_batch, migrated_batch):
    """est_numpy_input with an evaluation in batches of 5 of its 12 examples: the last batch holds 2."""
    out = []
    for side, batch in (("original", original_batch), ("migrated", migrated_batch)):
        with open(os.path.join(PAIR, f"{side}.py")) as f:
            text = f.read()
        old = "y=target, batch_size=4, num_epochs=1," if side == "original" else \
            'tf2.data.Dataset.from_tensor_slices(({"x": data}, target)).batch(4)'
        new = f"y=target, batch_size={batch}, num_epochs=1," if side == "original" else \
            f'tf2.data.Dataset.from_tensor_slices(({{"x": data}}, target)).batch({batch})'
        assert text.count(old) == 1
        path = tmp_path / f"{side}.py"
        path.write_text(text.replace(old, new))
        out.append(str(path))
    return out


def test_a_partial_last_batch_is_compared_as_the_estimator_averages_it(verify, tmp_path):
    original, migrated = _pair(tmp_path, 5, 5)
    result = verify(original, migrated)
    assert result.verdict == "EQUIVALENT", result.reason
    o, m = result.original.eval_results[-1], result.migrated.eval_results[-1]
    assert abs(o["loss"] - m["loss"]) > 1e-4  # the reported numbers do differ
    assert any("the loss as the Estimator averages it" in line for line in result.comparison.compared)


def test_an_evaluation_in_other_batches_is_still_diverged(verify, tmp_path):
    original, migrated = _pair(tmp_path, 5, 4)
    result = verify(original, migrated)
    assert result.verdict == "DIVERGED", result.reason
    assert "eval loss" in result.reason
