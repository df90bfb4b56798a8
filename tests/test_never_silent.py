"""Never silent (issue 10 point 1): every public name of the installed tensorflow_estimator gets a finding.

The names are read from the package's own API modules (`python/estimator/api/_v1|_v2/estimator/**`), not
typed here: whatever a TF 2.15 user can reach as `tf.estimator.X` or `tf.compat.v1.estimator.X` is tried
through each import form (attribute chain, assignment alias, from-import, tensorflow_estimator itself), one
small program per name and form, all checked by one `tf2migrate check` run over a temporary folder.
"""
from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

API = ("_v1", "_v2")


def _api_root() -> Path:
    spec = importlib.util.find_spec("tensorflow_estimator")  # finds the package, imports nothing of TF
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("tensorflow_estimator is not installed (pip install -e '.[test]' brings it)")
    return Path(list(spec.submodule_search_locations)[0]) / "python" / "estimator" / "api"


def public_names() -> dict:
    """{(api, "estimator.tpu.TPUEstimator"): True}: every name each API module exports, submodules included."""
    root, out = _api_root(), {}
    for api in API:
        base = root / api
        for init in sorted((base / "estimator").rglob("__init__.py")):
            namespace = ".".join(init.parent.relative_to(base).parts)
            for node in ast.parse(init.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ImportFrom):
                    for alias in node.names:
                        name = alias.asname or alias.name
                        if not name.startswith("_"):
                            out[(api, f"{namespace}.{name}")] = True
    return out


def _programs(names) -> dict:
    """file name -> source: each name through each import form."""
    files = {}
    for i, (api, path) in enumerate(sorted(names)):
        spelled = f"tf.compat.v1.{path}" if api == "_v1" else f"tf.{path}"
        module, _, leaf = path.rpartition(".")
        v1 = "compat.v1." if api == "_v1" else ""
        files[f"n{i:03}_attr.py"] = f"import tensorflow as tf\n\nvalue = {spelled}\nprint(value)\n"
        files[f"n{i:03}_assigned.py"] = (f"import tensorflow as tf\n\ntf1 = tf.compat.v1\n\n\ndef main():\n"
                                         f"    return tf1.{path}\n")
        files[f"n{i:03}_from.py"] = f"from tensorflow.{v1}{module} import {leaf}\n\nprint({leaf})\n"
        files[f"n{i:03}_tfe.py"] = (f"import tensorflow_estimator as tfe\n\n\ndef make(tf):\n"
                                    f"    return tfe.{path}\n")  # `tf` is a parameter here: only tfe counts
    return files


CONTRIB = {  # tf.contrib.tpu's TPUEstimator names, tf.contrib.learn, hooks: the forms real code used
    "contrib_tpu_attr.py": "import tensorflow as tf\n\nest = tf.contrib.tpu.TPUEstimator(model_fn=f, use_tpu=False)\n",
    "contrib_tpu_spec.py": "import tensorflow as tf\n\n\ndef model_fn(features, labels, mode, params):\n"
                           "    return tf.contrib.tpu.TPUEstimatorSpec(mode, loss=loss)\n",
    "contrib_tpu_config.py": "import tensorflow as tf\n\ncfg = tf.contrib.tpu.RunConfig(tpu_config="
                             "tf.contrib.tpu.TPUConfig(iterations_per_loop=100))\n",
    "contrib_tpu_from.py": "from tensorflow.contrib.tpu import TPUEstimator\n\nest = TPUEstimator(model_fn=f)\n",
    "contrib_tpu_module.py": "from tensorflow.contrib.tpu.python.tpu import tpu_estimator\n\n"
                             "est = tpu_estimator.TPUEstimator(model_fn=f)\n",
    "contrib_learn_attr.py": "import tensorflow as tf\n\nest = tf.contrib.learn.DNNClassifier(hidden_units=[4])\n",
    "contrib_learn_runner.py": "from tensorflow.contrib.learn.python.learn import learn_runner\n\n"
                               "learn_runner.run(experiment_fn, output_dir)\n",
    "contrib_learn_alias.py": "import tensorflow as tf\n\nlearn = tf.contrib.learn\nexp = learn.Experiment(est, f, g)\n",
    "contrib_estimator.py": "import tensorflow as tf\n\nhook = tf.contrib.estimator.stop_if_no_decrease_hook(e, 'loss', 10)\n",
    "keras_estimator.py": "import tensorflow as tf\n\nest = tf.keras.estimator.model_to_estimator(keras_model=model)\n",
    "estimator_alias.py": "import tensorflow as tf\n\nEst = tf.estimator.Estimator\n\n\ndef build():\n"
                          "    return Est(model_fn=f)\n",
    "private_estimator.py": "from tensorflow.python.estimator.model_fn import ModeKeys as Modes\n\n\n"
                            "def is_training(mode):\n    return mode == Modes.TRAIN\n",  # TF 1.x's own path
    "hook_subclass.py": "import tensorflow as tf\n\n\nclass PrintHook(tf.train.SessionRunHook):\n    pass\n",
    "hook_in_train.py": "import tensorflow as tf\n\n\ndef main(estimator):\n"
                        "    estimator.train(f, hooks=[tf.train.LoggingTensorHook({'loss': 'loss'}, every_n_iter=1)])\n",
}


def _check(tmp_path: Path, files: dict) -> dict:
    for name, source in files.items():
        (tmp_path / name).write_text(source, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("")
    report = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "-m", "tf2migrate", "check", "--no-cache", "--report", str(report),
                           str(tmp_path)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode in (0, 1), proc.stderr
    found = {name: [] for name in files}
    for entry in json.loads(report.read_text())["files"]:
        found[Path(entry["path"]).name] = [d["code"] for d in entry["diagnostics"]]
    return found


def test_the_installed_package_has_names_to_check():
    names = public_names()
    for expected in ("estimator.Estimator", "estimator.tpu.TPUEstimator", "estimator.export.ServingInputReceiver",
                     "estimator.experimental.stop_if_no_decrease_hook", "estimator.inputs.numpy_input_fn"):
        assert ("_v1", expected) in names
    assert len(names) > 100


def test_every_public_estimator_name_gets_a_finding_in_every_import_form(tmp_path):
    files = _programs(public_names())
    found = _check(tmp_path, files)
    silent = sorted(name for name in files if not any(code.startswith("TFM3") for code in found[name]))
    assert silent == [], [(name, files[name]) for name in silent[:5]]


def test_contrib_tpu_learn_and_hooks_get_a_finding(tmp_path):
    found = _check(tmp_path, CONTRIB)  # a TFM3xx finding: the converter's own where it tries, else TFM35x
    silent = sorted(name for name in CONTRIB if not any(code.startswith("TFM3") for code in found[name]))
    assert silent == []


def test_hooks_run_by_a_monitored_session_are_not_estimator_hooks(tmp_path):
    files = {"monitored.py": "import tensorflow as tf\n\nhooks = [tf.train.StopAtStepHook(last_step=10)]\n"
                             "with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:\n    sess.run(op)\n"}
    assert _check(tmp_path, files) == {"monitored.py": []}


def test_a_file_only_the_report_rule_wakes_skips_libcst_and_reports_the_same():
    """The pre-pass answers such a file from `ast` (engine/apply.report_text): same findings as the long way."""
    from tf2migrate.engine.api import rewrite_text
    from tf2migrate.engine.apply import report_text
    from tf2migrate.engine.process import precheck
    from tf2migrate.rules.wake_words import trigger_pattern

    sources = dict(CONTRIB)
    sources.update((p.name, p.read_text(encoding="utf-8")) for p in (ROOT / "fixtures" / "never-silent").glob("*.before.py"))
    fast = 0
    for name, source in sources.items():
        src, done = precheck(name, source.encode(), trigger_pattern())
        assert done is None, name
        expected = rewrite_text(source, name)
        if src.fast_only:
            fast += 1
            assert expected.code == source, name
            assert report_text(source, name) == expected.diagnostics, name
    assert fast >= 10  # most of them: the CMLE task.py, the BERT-style script, contrib.learn, hooks...
