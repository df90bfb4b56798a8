"""A crashing program gives exit 3 with its error; a hanging one is stopped at --timeout; Ctrl-C ends
everything; nothing (process, grandchild, port) is left behind."""
import os
import signal
import subprocess
import time

import psutil
import pytest
from click.testing import CliRunner

from harness_support import PYTHON, ROOT, assert_nothing_left
from harness_programs import hanging, seed_migrated_variant
from tf2migrate.cli.verify_cmd import verify as verify_command

pytestmark = pytest.mark.slow


def test_crashing_program_exits_3_with_its_error(seed_pair, tmp_path):
    original, _ = seed_pair
    crashing = seed_migrated_variant(tmp_path, "verbose=0)\nprint", "verbos=0)\nprint", "crashes.py")
    out = CliRunner().invoke(verify_command, [original, crashing])
    assert out.exit_code == 3, out.output
    assert "INCOMPARABLE" in out.output and "the migrated program failed" in out.output
    assert "unexpected keyword argument 'verbos'" in out.output      # its error, from the tail of its output
    assert "crashes.py" in out.output


def test_hanging_program_is_stopped_at_timeout(seed_pair, tmp_path, verify):
    original, _ = seed_pair
    program, pid_file = hanging(tmp_path)
    result = verify(original, program, timeout=25)   # the original must finish well inside it, even under load
    assert result.migrated.status == "timeout" and result.original.status == "ok"
    assert result.exit_code == 3 and "timed out" in result.reason
    with open(pid_file) as f:
        grandchild = int(f.read())
    # the program's own child (`sleep 3600`) went with it: the whole process group is ended
    assert not psutil.pid_exists(grandchild) or psutil.Process(grandchild).status() == psutil.STATUS_ZOMBIE


def test_ctrl_c_ends_every_child(seed_pair, tmp_path):
    original, _ = seed_pair
    program, pid_file = hanging(tmp_path)
    cli = subprocess.Popen([PYTHON, "-m", "tf2migrate.cli.verify_cmd", original, program, "--timeout", "300"],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(1200):
            if os.path.exists(pid_file) and os.path.getsize(pid_file):
                break
            time.sleep(0.1)
        time.sleep(0.2)
        descendants = psutil.Process(cli.pid).children(recursive=True)
        assert descendants, "the verify command started no children"
        with open(pid_file) as f:
            grandchild = int(f.read())
        cli.send_signal(signal.SIGINT)
        output = cli.communicate(timeout=60)[0].decode(errors="replace")
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode != 0, output
    gone, alive = psutil.wait_procs(descendants + [psutil.Process(grandchild)] if psutil.pid_exists(grandchild)
                                    else descendants, timeout=10)
    assert [p for p in alive if p.status() != psutil.STATUS_ZOMBIE] == []
    assert_nothing_left()


def test_original_failing_before_step_0_releases_the_waiting_side(tmp_path, seed_pair, verify):
    _, migrated = seed_pair
    broken = tmp_path / "broken.py"
    broken.write_text("import tensorflow.compat.v1 as tf1\nraise RuntimeError('broken before training')\n")
    result = verify(str(broken), migrated, timeout=120)
    assert result.comparison.failed_side == "original" and result.exit_code == 3
    assert "broken before training" in result.reason


def test_original_that_trains_nothing_is_incomparable_not_a_hang(tmp_path, seed_pair, verify):
    quiet = tmp_path / "no_training.py"
    quiet.write_text("import tensorflow as tf\nprint(tf.constant(1.0) + 1)\n")
    result = verify(str(quiet), seed_pair[1], timeout=120)
    assert result.verdict == "INCOMPARABLE" and result.exit_code == 1
    assert result.reason == "no training step was seen in the original program"
    assert result.migrated.status == "ok" and len(result.migrated.losses) == 3   # ran unaligned, did not wait


ESTIMATOR_TRAIN_ALONE = '''
import numpy as np
import tensorflow as tf

X = np.random.RandomState(0).normal(size=(16, 3)).astype("float32")
Y = (X.sum(axis=1, keepdims=True) * 0.5).astype("float32")


def input_fn():
    return tf.data.Dataset.from_tensor_slices((X, Y)).repeat().batch(4)


def model_fn(features, labels, mode):
    loss = tf.losses.mean_squared_error(labels, tf.layers.dense(features, 1))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


tf.estimator.Estimator(model_fn).train(input_fn, steps=3)
'''


@pytest.mark.parametrize("cluster", ["ps:1,1", "multi-worker:2"])
def test_an_estimator_trained_with_train_alone_cannot_be_a_cluster_and_is_told_so(tmp_path, verify, cluster):
    """Issue 18 point 6: TF1's train() starts no server, so its tasks waited for each other until --timeout
    (600 s by default); now INCOMPARABLE with the reason, from the first train() call."""
    from harness_programs import keras_mlp, write

    original = write(tmp_path, "train_alone.py", ESTIMATOR_TRAIN_ALONE)
    result = verify(original, keras_mlp(tmp_path, 3), cluster=cluster, timeout=300)
    assert result.verdict == "INCOMPARABLE" and result.original.status == "incomparable", result.reason
    assert f"cannot run as the {cluster} cluster" in result.reason and "train() alone" in result.reason
    assert verify(original, keras_mlp(tmp_path, 3), cluster="local").original.status == "ok"   # it runs locally
