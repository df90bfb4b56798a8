"""The pure-Python checks of issue 9 (no TensorFlow): initial values compared as constants or as
distributions, dropouts, pipelines, non-trainable state, eval results, and the reports that carry them."""
import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from tf2migrate.harness.compare import checks, inits
from tf2migrate.harness.report import report
from tf2migrate.harness.api import VerifyResult
from tf2migrate.harness.compare.observations import PairObserved
from tf2migrate.harness.report.result import Comparison, RunFacts
from tf2migrate.harness.running.runner import SideResult


def glorot(rng, shape):
    limit = np.sqrt(6 / sum(shape))
    return rng.uniform(-limit, limit, size=shape).astype("float32")


@pytest.mark.parametrize("shape", [(1, 1), (2, 1), (3,), (8, 16), (64, 64), (784, 128)])
def test_same_initializer_passes_at_every_size(shape):
    rng = np.random.RandomState(0)
    for _ in range(20):   # pairs of independent draws: a false DIVERGED would show here
        assert inits.differs(glorot(rng, shape), glorot(rng, shape)) == ""


def test_constants_must_match_exactly_and_random_is_not_constant():
    rng = np.random.RandomState(1)
    assert inits.differs(np.zeros(16), np.zeros(16)) == ""
    assert inits.differs(np.ones((4, 4)), np.zeros((4, 4))) == "other constant"
    assert inits.differs(glorot(rng, (2, 1)), np.zeros((2, 1))) == "constant against random"
    assert inits.differs(np.array([0.73105]), np.array([0.0])) == "constant against random"   # one element
    assert inits.differs(np.array([0.73105]), np.array([-0.2147])) == ""                     # two random draws
    assert inits.describe(np.zeros((8, 16))) == "all zeros"
    assert inits.describe(glorot(rng, (8, 16)), "glorot_uniform").startswith("~ glorot_uniform, mean")


def test_scale_and_family_are_told_apart_when_there_are_enough_elements():
    rng = np.random.RandomState(2)
    assert "spreads differ" in inits.differs(glorot(rng, (8, 16)), rng.normal(0, 1.0, (8, 16)))
    assert "means differ" in inits.differs(glorot(rng, (64, 64)), rng.uniform(0, 0.2, (64, 64)))
    limit = np.sqrt(6 / 1024)   # same std, other family: only a large variable can tell
    normal = rng.normal(0, limit / np.sqrt(3), (512, 512))
    assert "Kolmogorov-Smirnov" in inits.differs(glorot(rng, (512, 512)), normal)


def test_compare_initial_names_the_variable_and_both_distributions():
    rng = np.random.RandomState(3)
    o = [("dense/kernel", glorot(rng, (8, 16))), ("dense/bias", np.zeros(16))]
    m = [("dense/kernel", np.zeros((8, 16))), ("dense/bias", np.zeros(16))]
    checked, causes = inits.compare_initial(o, m, {"dense/kernel": "glorot_uniform"}, {"dense/kernel": "zeros"})
    assert checked == 2 and len(causes) == 1
    assert causes[0].startswith("dense/kernel: original ~ glorot_uniform, mean")
    assert causes[0].endswith("migrated all zeros (constant against random)")


def side(**kw):
    base = dict(label="x", status="ok", losses=[1.0], variables=[], aligned=[], notes=[], api="v2", capture=[],
                seconds=1.0)
    base.update(kw)
    return SideResult(**base)


def test_dropouts_compared_by_count_rate_and_shape():
    d = {"rate": 0.3, "input": [16], "noise_shape": None}
    assert checks.check_dropouts(side(dropouts=[d]), side(dropouts=[d]), True)[1] == []
    _, causes = checks.check_dropouts(side(dropouts=[d]), side(dropouts=[dict(d, rate=0.5)]), False)
    assert causes == ["dropout 1 differs: original rate 0.3 on [?, 16], migrated rate 0.5 on [?, 16]"]
    _, causes = checks.check_dropouts(side(dropouts=[d]), side(dropouts=[]), True)
    assert causes == ["dropouts differ: the original applies 1 (rate 0.3 on [?, 16]), the migrated 0 (-)"]
    fed = {"rate": None, "input": [16], "noise_shape": None}   # a fed keep_prob: compared by position only
    assert checks.check_dropouts(side(dropouts=[fed]), side(dropouts=[d]), True)[1] == []


def test_eval_results_and_reports_carry_the_scope(tmp_path):
    o, m = side(eval_results=[{"loss": 0.5, "accuracy": 0.75}]), side(eval_results=[{"loss": 0.51}])
    scope, causes = checks.check_eval(o, m, 1e-5, 1e-5)
    assert scope == ("eval results: loss of the last evaluate compared; accuracy: only in the original, computing "
                     "what is not known, not compared")
    assert causes == ["eval loss differs: original 0.5, migrated 0.51 (rel diff 0.02)"]
    only = checks.check_eval(o, side(), 1e-5, 1e-5)[0]
    assert only == "eval results: not compared (only the original program evaluates)"
    result = VerifyResult(RunFacts("o.py", "m.py", "local", "exact"), PairObserved(o, m, [o]),
                          Comparison("DIVERGED", causes[0], 1e-5, 1e-5, compared=["steps: 1 original, 1 migrated", scope]))
    assert f"  - {scope}" in report.summary_lines(result)
    assert report.to_dict(result)["compared"] == result.comparison.compared
    report.write_junit([result], str(tmp_path / "j.xml"))
    props = {p.get("name"): p.get("value") for p in ET.parse(tmp_path / "j.xml").iter("property")}
    assert props["compared.eval results"] == scope
    json.dumps(report.to_dict(result))


def test_eval_metrics_are_matched_by_what_they_compute():
    # issue 18: the original's rmse against Keras' MeanSquaredError under its default name was EQUIVALENT
    rmse, mse = {"kind": "root_mean_squared_error", "own": True}, {"kind": "mean_squared_error", "own": True}
    o = side(eval_results=[{"loss": 0.5, "rmse": 0.7}], metric_kinds={"rmse": rmse, "loss": {"kind": "loss"}})
    renamed = side(eval_results=[{"loss": 0.5, "root_mean_squared_error": 0.7}],
                   metric_kinds={"root_mean_squared_error": rmse})
    scope, causes = checks.check_eval(o, renamed, 1e-5, 1e-5)
    assert (scope, causes) == ("eval results: loss, rmse ~ root_mean_squared_error [root_mean_squared_error] of the "
                               "last evaluate compared", [])
    off = side(eval_results=[{"loss": 0.5, "root_mean_squared_error": 0.71}], metric_kinds=renamed.metric_kinds)
    assert checks.check_eval(o, off, 1e-5, 1e-5)[1] == [
        "eval rmse (migrated root_mean_squared_error) differs: original 0.7, migrated 0.71 (rel diff 0.0143)"]
    other = side(eval_results=[{"loss": 0.5, "mean_squared_error": 0.49}], metric_kinds={"mean_squared_error": mse})
    scope, causes = checks.check_eval(o, other, 1e-5, 1e-5)
    assert scope == "eval results: loss of the last evaluate compared"
    assert causes == ["eval metric rmse (root_mean_squared_error) of the original program has no counterpart in the "
                      "migrated program (its metrics: loss, mean_squared_error)",
                      "eval metric mean_squared_error (mean_squared_error) of the migrated program has no counterpart "
                      "in the original program (its metrics: loss, rmse)"]
    same_name = side(eval_results=[{"loss": 0.5, "rmse": 0.49}], metric_kinds={"rmse": mse})
    assert checks.check_eval(o, same_name, 1e-5, 1e-5)[1] == [
        "eval rmse computes another metric: original root_mean_squared_error, migrated mean_squared_error"]
    # a canned Estimator's own metrics (own False) and metrics of unknown kind need no counterpart
    canned = side(eval_results=[{"loss": 0.5, "auc": 0.8, "custom": 1.0}],
                  metric_kinds={"auc": {"kind": "auc", "own": False}})
    scope, causes = checks.check_eval(canned, side(eval_results=[{"loss": 0.5}]), 1e-5, 1e-5)
    assert causes == [] and "auc: only in the original" in scope and "custom: only in the original" in scope


def test_program_variables_outside_keras_layers_are_compared_by_order_and_shape(tmp_path):
    from tf2migrate.harness.compare import plain_state
    from tf2migrate.harness.compare.align import save_values

    def saved(name, values):
        path = str(tmp_path / f"{name}.npz")
        save_values(path, [(f"{i}:Variable", np.asarray(v, np.float32)) for i, v in enumerate(values)])
        return side(plain_state=path)

    ema, step = [[0.5, 0.25]], 8.0
    o = saved("o", [ema, step])
    scope, causes = plain_state.check_variables(o, saved("same", [ema, step]), 1e-5, 1e-5)
    assert scope.startswith("program variables: 2 tf.Variables outside Keras layers compared after training")
    assert causes == []
    causes = plain_state.check_variables(o, saved("swapped", [[[0.45, 0.2]], step]), 1e-5, 1e-5)[1]
    assert causes == ["program variable 1 differs after training: Variable: max abs diff 0.05 (original mean 0.375, "
                      "migrated 0.325)"]
    causes = plain_state.check_variables(o, saved("fewer", [ema]), 1e-5, 1e-5)[1]
    assert causes == ["program variables differ: 2 in the original, 1 in the migrated (only in the original: "
                      "Variable[])"]
    causes = plain_state.check_variables(o, saved("shape", [[0.5, 0.25, 0.0], step]), 1e-5, 1e-5)[1]
    assert causes == ["program variable 1 differs in shape: Variable: [1, 2] vs [3]"]
    graph = side(api="v1")   # a TF1 graph's own variables are not tracked: said, not passed silently
    assert plain_state.check_variables(graph, o, 1e-5, 1e-5) == (
        "program variables: not compared (a TF1 graph: its own tf.Variables are not tracked)", [])


def test_results_of_the_programs_own_metrics_are_compared_where_both_have_them():
    from tf2migrate.harness.compare import plain_state

    mean = {"kind": "mean", "value": 0.2382}
    o = side(metric_results={"test_loss": mean, "only_here": mean})
    assert plain_state.check_metrics(o, side(metric_results={"test_loss": mean}), 1e-5, 1e-5) == (
        "program metrics: result() of test_loss compared at the end", [])
    off = side(metric_results={"test_loss": dict(mean, value=0.21)})
    assert plain_state.check_metrics(o, off, 1e-5, 1e-5)[1] == [
        "program metric test_loss differs at the end: original 0.2382, migrated 0.21 (rel diff 0.118)"]
    assert plain_state.check_metrics(side(), side(), 1e-5, 1e-5)[0] == "program metrics: none made by either program"


def test_a_canned_estimators_average_loss_is_compared_by_value_with_the_metric_of_its_name():
    """The canned head's `average_loss` is `tf1.metrics.mean` of its loss (kind `mean`); the converter writes it as
    the loss's Keras metric of that name (canned_results.py): the numbers are compared, whatever the kinds say.
    A metric the program itself named keeps the check of kinds (above)."""
    kinds_o = {"average_loss": {"kind": "mean", "own": False}, "accuracy": {"kind": "accuracy", "own": False}}
    o = side(eval_results=[{"loss": 5.0, "average_loss": 1.25, "accuracy": 0.5}], metric_kinds=kinds_o)
    kinds_m = {"average_loss": {"kind": "SparseCategoricalCrossentropy", "own": True},
               "accuracy": {"kind": "accuracy", "own": True}}
    m = side(eval_results=[{"loss": 5.0, "average_loss": 1.25, "accuracy": 0.5}], metric_kinds=kinds_m)
    scope, causes = checks.check_eval(o, m, 1e-5, 1e-5)
    assert causes == [] and "average_loss [mean]" in scope and "accuracy" in scope
    off = side(eval_results=[{"loss": 5.0, "average_loss": 1.5, "accuracy": 0.5}], metric_kinds=kinds_m)
    assert checks.check_eval(o, off, 1e-5, 1e-5)[1] == [
        "eval average_loss differs: original 1.25, migrated 1.5 (rel diff 0.2)"]
