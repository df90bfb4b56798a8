"""An input function from another module that uses a name its module never binds (reading/undefined_input.py):
the program is reported as not running as written (survey 18), and the survey names that as its main blocker.
The golden case is `fixtures/estimator-package/input_fn_name_undefined`; these are the modules it must not judge."""
from __future__ import annotations

import sys
from pathlib import Path

from tf2migrate.engine.api import rewrite_package

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import survey_report  # noqa: E402

TRAIN = """import tensorflow as tf

from utils import Utils


def model_fn(features, labels, mode):
    logits = tf.layers.dense(features["x"], 1)
    loss = tf.losses.mean_squared_error(labels, logits)
    train_op = tf.train.AdamOptimizer().minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


estimator = tf.estimator.Estimator(model_fn=model_fn)
estimator.train(Utils.train_input_fn())
"""

UTILS = """import tensorflow as tf
{extra}

class Utils:
    @staticmethod
    def train_input_fn():
        return lambda: create_dataset(path="train.tfrecords", batch_size=len(FLAGS_LIST))
"""


def _messages(tmp_path, extra: str) -> list:
    files = {str(tmp_path / "train.py"): TRAIN, str(tmp_path / "utils.py"): UTILS.format(extra=extra)}
    results = rewrite_package(files)
    return [d.message for d in results[str(tmp_path / "train.py")].diagnostics if d.code == "TFM302"]


def test_names_never_bound_are_the_cause(tmp_path):
    messages = _messages(tmp_path, "")
    assert any("uses `create_dataset` and `FLAGS_LIST`" in m and "does not run as written" in m for m in messages)


def test_names_bound_anywhere_in_the_module_are_not_judged(tmp_path):
    extra = "FLAGS_LIST = []\n\n\ndef create_dataset(path, batch_size):\n    return tf.data.TFRecordDataset(path)\n"
    assert not any("does not run as written" in m for m in _messages(tmp_path, extra))


def test_a_star_import_may_bring_any_name(tmp_path):
    assert not any("does not run as written" in m for m in _messages(tmp_path, "from datasets import *"))


def test_the_survey_names_a_program_that_does_not_run_first():
    blockers = [{"code": "TFM302", "message": "`model_fn` is also taken by train.py: convert by hand"},
                {"code": "TFM302", "message": "the input function `f()` uses `g`: so this program does not run as "
                                              "written; define it there"}]
    assert survey_report.main_diagnostic({"blockers": blockers}) is blockers[1]


def test_the_input_module_is_read_for_the_program_only(tmp_path):
    """The program reads the module of its input function (to judge what that function uses); the module, which
    has no `get_next` for input_side.py to change, keeps no view of the program: the converter has nothing to do
    there (tensorflow_estimator's `numpy_io.py`, given by its test utilities, went to LibCST: 0.36 s)."""
    from tf2migrate.engine.package import scan

    train, utils = str(tmp_path / "train.py"), str(tmp_path / "utils.py")
    views = scan({train: TRAIN, utils: UTILS.format(extra="")})
    assert [name for name, _, _ in views[train].modules] == ["utils"]
    assert utils not in views
    with_iterator = UTILS.format(extra="") + "\n\ndef it(d):\n    return d.make_one_shot_iterator().get_next()\n"
    assert [name for name, _, _ in scan({train: TRAIN, utils: with_iterator})[utils].modules] == ["train"]
