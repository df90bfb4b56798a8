"""tools/survey.py, the survey of public Estimator programs: its outcome classes and its static check.

The survey's numbers are what the lead and the other branches act on, so its classification is tested on small
programs written here (the public programs themselves stay outside the repository).
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import survey  # noqa: E402
import survey_report  # noqa: E402
from survey_checks import HAVE_PYFLAKES  # noqa: E402

CANNED = """import numpy as np
import tensorflow as tf

columns = [tf.feature_column.numeric_column("x", shape=[1])]
estimator = tf.estimator.LinearRegressor(feature_columns=columns)
x = np.array([1., 2., 3., 4.])
y = np.array([0., -1., -2., -3.])
train = tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=4, num_epochs=None, shuffle=True)
estimator.train(input_fn=train, steps=10)
"""

GET_VARIABLE = """import numpy as np
import tensorflow as tf


def model_fn(features, label, mode):
    w = tf.get_variable("w", [1], dtype=tf.float64)
    loss = tf.reduce_sum(tf.square(w * features["x"] - label))
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train)


estimator = tf.estimator.Estimator(model_fn=model_fn)
train = tf.estimator.inputs.numpy_input_fn({"x": np.ones(4)}, np.ones(4), batch_size=4, shuffle=True)
estimator.train(input_fn=train, steps=10)
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_outcomes_of_a_converted_and_a_reported_program(tmp_path):
    programs = tmp_path / "programs"
    write(programs / "01_me__repo__canned", "train.py", CANNED)
    write(programs / "02_me__repo__get_variable", "train.py", GET_VARIABLE)
    (programs / "MANIFEST.tsv").write_text("id\trepo\tcommit\tpaths\tshape\n01\tme/repo\tabc\ttrain.py\tcanned\n")
    results = {record["id"]: record for record in survey.survey(programs, [])}
    assert results["01"]["outcome"] == "CONVERTED", results["01"]["blockers"]
    assert results["01"]["estimator_calls_left"] == []
    assert results["02"]["outcome"] == "REPORTED"
    blocker = survey_report.main_diagnostic(results["02"])
    assert blocker["source"] == GET_VARIABLE.splitlines()[blocker["line"] - 1].strip()  # the line it points at
    text = survey_report.render_markdown(list(results.values()), "test tree")
    assert "**CONVERTED** 1" in text and "**REPORTED** 1" in text
    assert "| 01 | me/repo @ abc / train.py | CONVERTED |" in text
    assert (programs / "01_me__repo__canned" / "train.py").read_text() == CANNED  # the programs are only read


def test_estimator_calls_left_without_a_finding_are_seen(tmp_path):
    write(tmp_path, "a.py", "import tensorflow as tf\nest = tf.compat.v1.estimator.DNNClassifier(hidden_units=[2])\n")
    write(tmp_path, "b.py", "# tf.estimator.Estimator(model_fn) in a comment is not a call\nx = 1\n")
    assert survey.estimator_calls_left(tmp_path) == ["a.py:2: tf.compat.v1.estimator.DNNClassifier"]


@pytest.mark.skipif(not HAVE_PYFLAKES, reason="pyflakes is not installed")
def test_static_check_reports_only_what_the_rewrite_broke(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    write(before, "ok.py", "print(known)\n")  # undefined before: not the rewrite's doing
    write(after, "ok.py", "print(known)\n")
    write(before, "new.py", "spec = 1\nprint(spec)\n")
    write(after, "new.py", "print(spec)\n")
    write(before, "syntax.py", "x = 1\n")
    write(after, "syntax.py", "x = (\n")
    problems = survey.static_check(before, after)
    assert problems == ["new.py:1: new undefined name 'spec'", "syntax.py: does not compile: '(' was never closed (line 1)"]


def test_messages_are_counted_without_their_names_and_numbers():
    message = "`tf.estimator.Estimator` not converted: see TFM302 on line 54; removed in TF 2.16: rebuild it"
    assert survey_report.normalise(message) == "`…` not converted: see TFM302 on line N"
    record = {"blockers": [
        {"code": "TFM350", "message": "`x` not converted: the Estimator conversion is blocked, see TFM302 on line 3"},
        {"code": "TFM302", "message": "model_fn's training step was not read: the other TFM302 findings"},
        {"code": "TFM302", "message": "not a layer the converter knows"},
    ]}
    assert survey_report.main_diagnostic(record)["message"] == "not a layer the converter knows"


def test_runs_are_compared_program_by_program(tmp_path):
    import survey_compare

    def run(name, outcome, blockers):
        record = {"id": "07", "name": "07_me__repo__x", "outcome": outcome, "blockers": blockers,
                  "estimator_calls_left": [], "static_problems": []}
        (tmp_path / f"{name}.json").write_text(__import__("json").dumps({"tool": name, "programs": [record]}))
        return tmp_path / f"{name}.json"

    blocked = [{"code": "TFM302", "message": "statement not understood in model_fn", "path": "a.py", "line": 3}]
    text = survey_compare.compare([survey_compare.load(run("main", "REPORTED", blocked)),
                                   survey_compare.load(run("branch", "CONVERTED", []))])
    assert "| 07 | me__repo__x | REPORTED | CONVERTED |" in text
    assert "- **branch**: CONVERTED 1 · BROKEN 0 · REPORTED 0 · CRASH 0" in text
    assert "- 07 on branch: CONVERTED" in text
