"""`verify` runs programs the way they are really run (issue 10, point 6): with their arguments, as modules of
a package (`-m trainer.task`), in a working directory and an environment of the user's choosing."""
import json
import os
import shutil

import pytest
from click.testing import CliRunner

from harness_support import ROOT
from tf2migrate.cli.verify_cmd import verify as verify_command
from tf2migrate.harness.capture.sources import read_sources
from tf2migrate.harness.running.program import facts_of, package_files

PAIR = os.path.join(ROOT, "fixtures", "programs", "custom_loop_package")
ORIGINAL, MIGRATED = os.path.join(PAIR, "original"), os.path.join(PAIR, "migrated")

# A TF 2.0-era trainer package: the strategy is built and run in model.py (with the names TF 2.4 renamed), the
# loop is in task.py, which reads its step count from the command line and its learning rate from the environment.
TF20_MODEL = '''import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def build():
    with strategy.scope():
        return tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])


def run(step, batch):
    per_replica = strategy.experimental_run_v2(step, args=(batch,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica)
'''

TF20_TASK = '''import argparse
import os

import numpy as np
import tensorflow as tf

from trainer import model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-steps", type=int, required=True)
    steps = parser.parse_args().train_steps
    rng = np.random.RandomState(0)
    x = rng.normal(size=(16, 3)).astype("float32")
    y = (x @ rng.normal(size=(3, 1))).astype("float32")
    dataset = model.strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(4))
    network = model.build()
    with model.strategy.scope():
        optimizer = tf.keras.optimizers.SGD(float(os.environ["TRAINER_LR"]))

    def step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(tf.square(labels - network(features))[:, 0], global_batch_size=4)
        optimizer.apply_gradients(zip(tape.gradient(loss, network.trainable_variables), network.trainable_variables))
        return loss

    for _, batch in zip(range(steps), dataset):
        print(float(model.run(step, batch)))


if __name__ == "__main__":
    main()
'''

# A program that needs its environment and its working directory: every process of a side must get both.
NEEDS_ENV_AND_CWD = '''import os

import numpy as np
import tensorflow as tf

with open("learning_rate.txt") as f:          # relative: found only in --cwd
    learning_rate = float(f.read())
steps = int(os.environ["VERIFY_TEST_STEPS"])   # only in --env
rng = np.random.RandomState(0)
x = rng.normal(size=(8, 3)).astype("float32")
y = (x @ rng.normal(size=(3, 1))).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(tf.keras.optimizers.SGD(learning_rate), "mse")
model.fit(tf.data.Dataset.from_tensors((x, y)).repeat(), epochs=1, steps_per_epoch=steps, verbose=0)
'''


def _package(tmp_path):
    root = tmp_path / "tf20_trainer"
    (root / "trainer").mkdir(parents=True)
    (root / "trainer" / "__init__.py").write_text("")
    (root / "trainer" / "model.py").write_text(TF20_MODEL)
    (root / "trainer" / "task.py").write_text(TF20_TASK)
    return str(root)


@pytest.mark.slow
def test_arguments_after_double_dash_reach_both_modules(tmp_path):
    report = str(tmp_path / "r.json")
    out = CliRunner().invoke(verify_command, [ORIGINAL, MIGRATED, "-m", "pkg.task", "--json", report,
                                              "--", "--steps", "4"])
    assert out.exit_code == 0, out.output
    assert "run as: python -m pkg.task --steps 4" in out.output
    data = json.load(open(report))
    assert data["module"] == "pkg.task"
    assert data["original_args"] == data["migrated_args"] == ["--steps", "4"]
    assert len(data["original_run"]["losses"]) == len(data["migrated_run"]["losses"]) == 4


@pytest.mark.slow
def test_per_side_arguments_replace_the_shared_ones(verify):
    result = verify(ORIGINAL, MIGRATED, module="pkg.task", args=["--steps", "5"], original_args=["--steps", "3"])
    assert result.original.status == result.migrated.status == "ok", result.reason
    assert (len(result.original.losses), len(result.migrated.losses)) == (3, 5)
    assert (result.facts.original_args, result.facts.migrated_args) == (["--steps", "3"], ["--steps", "5"])
    assert result.original.losses == result.migrated.losses[:3]   # same program otherwise, same start


@pytest.mark.slow
def test_verify_dir_rewrites_a_copy_of_the_package_and_reads_every_file(tmp_path, verify):
    root = _package(tmp_path)
    before = {p: open(p).read() for p in package_files(root)}
    result = verify(root, module="trainer.task", args=["--train-steps", "3"], env={"TRAINER_LR": "0.1"},
                    cluster="auto")
    try:
        assert result.facts.cluster == "mirrored:2"   # auto: the strategy is built in model.py, not in task.py
        rewritten = open(os.path.join(result.facts.migrated_path, "trainer", "model.py")).read()
        assert "strategy.run(step" in rewritten and "experimental_run_v2" not in rewritten   # the codemod's copy ran
        assert {p: open(p).read() for p in package_files(root)} == before       # the original tree is untouched
        assert result.verdict == "EQUIVALENT", (result.reason, result.migrated.stderr_tail)
        assert len(result.migrated.losses) == 3
    finally:
        shutil.rmtree(os.path.dirname(result.facts.migrated_path), ignore_errors=True)


@pytest.mark.slow
def test_env_and_cwd_reach_every_process_of_a_cluster(tmp_path, verify):
    script = tmp_path / "train.py"
    script.write_text(NEEDS_ENV_AND_CWD)
    data = tmp_path / "data"
    data.mkdir()
    (data / "learning_rate.txt").write_text("0.05")
    result = verify(str(script), str(script), cluster="multi-worker:2", cwd=str(data),
                    env=["VERIFY_TEST_STEPS=2"], migrated_env={"VERIFY_TEST_STEPS": "3"})
    assert len(result.migrated.pids) == 2            # two workers, each needing both
    assert result.original.status == result.migrated.status == "ok", (result.reason, result.migrated.stderr_tail)
    assert (len(result.original.losses), len(result.migrated.losses)) == (2, 3)
    assert result.facts.env_keys == {"original": ["VERIFY_TEST_STEPS"], "migrated": ["VERIFY_TEST_STEPS"]}


@pytest.mark.parametrize("argv, message", [
    ([os.path.join(ORIGINAL, "pkg", "task.py"), "-m", "pkg.task"], "must be the package root directory"),
    ([ORIGINAL, MIGRATED], "is a directory: name the module"),
    ([ORIGINAL, MIGRATED, "-m", "pkg.nothing"], "has no pkg/nothing.py"),
    ([ORIGINAL, MIGRATED, "-m", "pkg/task"], "not a dotted module name"),
    ([ORIGINAL, MIGRATED, "-m", "pkg.task", "--env", "NOEQUALS"], "expected KEY=VALUE"),
    ([ORIGINAL, MIGRATED, "-m", "pkg.task", "--env", 'TF_CONFIG={}'], "the harness sets TF_CONFIG"),
])
def test_usage_errors_exit_2(argv, message):
    out = CliRunner().invoke(verify_command, argv)
    assert out.exit_code == 2, out.output
    assert message in out.output


def test_the_facts_of_a_package_come_from_all_its_files(tmp_path):
    root = _package(tmp_path)
    task_only = facts_of(read_sources([os.path.join(root, "trainer", "task.py")]))
    whole = facts_of(read_sources(package_files(root)))
    assert not task_only.strategies and whole.strategies == {"MirroredStrategy"}
