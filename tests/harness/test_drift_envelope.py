"""Issue 18 point 5: float drift is told from a mistake by the original's own twin (sensitivity.py), and input
pipelines are compared by structure, not by how they were spelled. The real 1,000-step pair and its mutant with
a learning rate 1 % off are fixtures/programs/est_drift_adam and fixtures/mutants/est_drift_adam (slow tests of
test_fixture_programs.py and test_mutants.py)."""
import json
import os
from types import SimpleNamespace

import numpy as np

from tf2migrate.harness.compare import compare, sensitivity
from tf2migrate.harness.compare.align import save_values
from tf2migrate.harness.compare.checks import check_pipeline
from tf2migrate.harness.compare.vocabulary import shuffle_op

STEPS = 40
ORIGINAL = [1.0 / (1 + 0.1 * i) for i in range(STEPS)]


def _drifting(scale, start=3):
    """The original plus a difference that grows from `start` on, as rounding drift does."""
    return [a + (scale * 1.5 ** (i - start) if i >= start else 0.0) for i, a in enumerate(ORIGINAL)]


def test_a_late_strict_failure_wants_the_twin_and_an_early_one_does_not():
    late = _drifting(1e-9)
    strict = compare.exact(ORIGINAL, late)
    assert strict.verdict == compare.DIVERGED and strict.first_diverged_step > compare.EXACT_ATOL_STEPS
    assert sensitivity.wants_twin(strict, ORIGINAL, late)
    early = compare.exact(ORIGINAL, _drifting(1e-3))
    assert early.first_diverged_step <= compare.EXACT_ATOL_STEPS
    assert not sensitivity.wants_twin(early, ORIGINAL, _drifting(1e-3))
    assert not sensitivity.wants_twin(compare.exact(ORIGINAL, ORIGINAL), ORIGINAL, ORIGINAL)


def test_drift_inside_the_twins_envelope_is_equivalent_and_says_which_envelope():
    migrated, twin = _drifting(1e-9), _drifting(4e-10, start=4)
    v = sensitivity.judge(ORIGINAL, twin, migrated, 1e-5, 1e-5, compare.exact(ORIGINAL, migrated))
    assert v.verdict == compare.EQUIVALENT, v.reason
    assert "within the original's own float drift (envelope: 10x the distance of the original from its twin" in v.reason
    assert "the strict tolerance alone failed at step" in v.reason


def test_a_difference_far_beyond_the_twins_drift_is_diverged():
    migrated, twin = _drifting(1e-9), _drifting(1e-12)   # the twin barely moves: this program hardly drifts
    v = sensitivity.judge(ORIGINAL, twin, migrated, 1e-5, 1e-5, compare.exact(ORIGINAL, migrated))
    assert v.verdict == compare.DIVERGED and v.first_diverged_step > compare.EXACT_ATOL_STEPS
    assert "beyond the original's own float drift" in v.reason
    # a twin that never moved leaves the strict tolerance: the same step as without it
    still = sensitivity.judge(ORIGINAL, ORIGINAL, migrated, 1e-5, 1e-5, compare.exact(ORIGINAL, migrated))
    assert still.first_diverged_step == compare.exact(ORIGINAL, migrated).first_diverged_step
    assert "never apart" in still.reason


def test_the_twin_starts_one_ulp_from_the_original(tmp_path):
    path = str(tmp_path / "init.npz")
    values = [("dense/kernel", np.array([[0.5, -0.25]], np.float32)), ("step", np.array(3, np.int64))]
    save_values(path, values)
    assert sensitivity.perturb(path, str(tmp_path / "ulp.npz"))
    with open(str(tmp_path / "ulp.npz.names.json")) as f:
        assert json.load(f) == ["dense/kernel", "step"]
    with np.load(str(tmp_path / "ulp.npz")) as data:
        assert data["v0"].dtype == np.float32
        assert (data["v0"] == np.nextafter(values[0][1], np.float32(np.inf))).all() and (data["v0"] != values[0][1]).all()
        assert data["v1"] == 3
    assert not sensitivity.perturb(str(tmp_path / "missing.npz"), str(tmp_path / "x.npz"))
    assert not os.path.exists(str(tmp_path / "x.npz"))


def _side(text, *ops):
    return SimpleNamespace(pipeline=[text], pipeline_ops=list(ops), uncontrolled=[])


def test_pipelines_are_compared_by_structure_not_by_spelling():
    # issue 18: numpy_input_fn's shuffle(1000) and a spelled-out shuffle(1000, seed=None, ...) are the same shuffle
    queue = _side("shuffle(1000) [numpy_input_fn(shuffle=True) as tf.data, seeded] -> repeat(None) -> batch(128)",
                  shuffle_op(1000, None, None), {"op": "repeat", "count": None},
                  {"op": "batch", "batch": 128, "drop_remainder": True})
    spelled = _side("shuffle(1000, seed=None, reshuffle_each_iteration=None)", shuffle_op(1000, None, None))
    explicit = _side("shuffle(1000, seed=None, reshuffle_each_iteration=True)", shuffle_op(1000, None, True))
    assert check_pipeline(queue, spelled)[1] == "" and check_pipeline(spelled, explicit)[1] == ""
    for other in (shuffle_op(64, None, None), shuffle_op(1000, 7, None), shuffle_op(1000, None, False)):
        hint = check_pipeline(queue, _side("shuffle(...)", other))[1]
        assert hint.startswith("the input shuffles differ"), other
    assert check_pipeline(queue, _side("batch(128)", {"op": "batch", "batch": 128}))[1]
