"""Issue 18 points 1 and 3 on real TensorFlow: a program verified against itself stays EQUIVALENT with its
metrics paired by kind and its own state compared, and what the harness takes for the program's own state is
only that (not Keras' weights, optimizer slots or compiled metrics). The mistakes are mutants
(fixtures/mutants/est_metric_rmse, custom_loop_ema)."""
import os

import pytest

from harness_support import ROOT

pytestmark = pytest.mark.slow
PROGRAMS = os.path.join(ROOT, "fixtures", "programs")


def test_an_estimator_against_itself_pairs_its_metrics_by_kind(verify):
    program = os.path.join(PROGRAMS, "est_metric_rmse", "original.py")
    result = verify(program, program)
    assert result.verdict == "EQUIVALENT", result.reason
    assert result.original.metric_kinds["rmse"] == {"kind": "root_mean_squared_error", "own": True}
    assert result.original.metric_kinds["mae"] == {"kind": "mean_absolute_error", "own": True}
    line = next(c for c in result.comparison.compared if c.startswith("eval results"))
    assert "mae [mean_absolute_error]" in line and "rmse [root_mean_squared_error]" in line, line


def test_the_migrated_keras_metrics_are_known_by_class(verify):
    pair = os.path.join(PROGRAMS, "est_metric_rmse")
    result = verify(os.path.join(pair, "original.py"), os.path.join(pair, "migrated.py"))
    assert result.verdict == "EQUIVALENT", result.reason
    assert result.migrated.metric_kinds["rmse"]["kind"] == "root_mean_squared_error"


def test_a_custom_loop_against_itself_compares_only_its_own_state(verify):
    program = os.path.join(PROGRAMS, "custom_loop_ema", "migrated.py")   # TF 2.0's experimental_run_v2 renamed
    result = verify(program, program)
    assert result.verdict == "EQUIVALENT", result.reason
    scope = "\n".join(result.comparison.compared)
    # 4 averages and the step counter: not the 4 Keras weights, not SGD's iteration counter
    assert "program variables: 5 tf.Variables outside Keras layers compared" in scope, scope
    assert "program metrics: result() of test_loss compared at the end" in scope, scope
    assert list(result.original.metric_results) == ["test_loss"]
