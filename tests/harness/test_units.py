"""The pure-Python parts (no TensorFlow): comparison rules, cluster specs, variable comparison, and the
promise that importing the CLI command does not import TensorFlow or the harness."""
import math
import subprocess

import pytest

from harness_support import PYTHON
from tf2migrate.harness.compare import compare
from tf2migrate.harness.running import topology
from tf2migrate.harness.compare.align import compare_variables


def test_exact_uses_atol_for_ten_steps_then_rtol():
    base = [1.0] * 12
    near = [1.0 + 9e-6] * 10 + [1.0 + 9e-6] * 2
    assert compare.exact(base, near).verdict == compare.EQUIVALENT
    late = base[:10] + [1.0, 1.0 + 2e-5]
    v = compare.exact(base, late)
    assert (v.verdict, v.first_diverged_step) == (compare.DIVERGED, 12)
    assert compare.exact(base, late, rtol=1e-4).verdict == compare.EQUIVALENT


def test_nan_or_inf_is_a_failure_on_either_side():
    assert compare.exact([1.0, math.nan], [1.0, math.nan]).verdict == compare.DIVERGED
    v = compare.exact([1.0, 2.0], [1.0, math.inf])
    assert v.first_diverged_step == 2 and "migrated" in v.reason


def test_no_steps_and_step_count_mismatch():
    assert compare.exact([], [1.0]).verdict == compare.INCOMPARABLE
    v = compare.exact([1.0, 2.0, 3.0], [1.0, 2.0])
    assert (v.verdict, v.first_diverged_step) == (compare.DIVERGED, 3)


def test_statistical_band():
    runs = [[1.0, 0.5, 0.2], [1.0, 0.6, 0.25], [1.0, 0.55, 0.3]]
    assert compare.statistical(runs, [1.0, 0.5, 0.27]).verdict == compare.EQUIVALENT
    v = compare.statistical(runs, [1.0, 0.9, 0.8])
    assert v.verdict == compare.DIVERGED and "final loss" in v.reason


def test_cluster_specs():
    assert topology.parse("ps:3,2") == topology.Topology("ps", workers=3, ps=2)
    assert topology.parse("mirrored:2").replicas == 2
    assert not topology.parse("ps:3,2").deterministic and topology.parse("ps:1,1").deterministic
    assert topology.parse("auto") == "auto"
    for bad in ("ps:3", "gpu:2", "mirrored:0"):
        with pytest.raises(ValueError):
            topology.parse(bad)


def test_variables_compared_by_count_name_and_shape():
    o = [{"name": "dense/kernel", "shape": [2, 4]}, {"name": "dense/bias", "shape": [4]},
         {"name": "dense_1/kernel", "shape": [4, 1]}, {"name": "dense_1/bias", "shape": [1]}]
    ok, msg = compare_variables(o, o)
    assert ok
    ok, msg = compare_variables(o, [{"name": "dense/kernel", "shape": [2, 1]}, {"name": "dense/bias", "shape": [1]}])
    assert not ok and "dense_1/kernel" in msg and "dense_1/bias" in msg and "4 trainable variables" in msg
    renamed = [dict(v, name=v["name"].replace("dense", "layer")) for v in o]
    ok, msg = compare_variables(o, renamed)
    assert ok and "names differ" in msg


def test_importing_the_command_imports_no_tensorflow():
    code = ("import sys, tf2migrate.cli.verify_cmd as m; assert m.verify.name == 'verify'; "
            "bad = [k for k in sys.modules if k.startswith(('tensorflow', 'tf2migrate.harness.api', 'keras'))]; "
            "assert not bad, bad")
    subprocess.run([PYTHON, "-c", code], check=True)
