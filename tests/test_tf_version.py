"""TF1 or TF2 per file (engine/tf_version.py): what decides it, what overrides it, and that its name lists
are true of the installed TensorFlow."""
from __future__ import annotations

import ast

import pytest

from tf2migrate.engine.api import Selection, rewrite_text
from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.tf_version import TF1_ONLY, TF2_ONLY, TFVersion, decide


def _decide(code: str, source: str = "auto"):
    tree = ast.parse(code)
    return decide(tree, ImportMap.from_ast(tree), source)


@pytest.mark.parametrize("code, version", [
    ("import tensorflow as tf\nsess = tf.Session()\n", TFVersion.TF1),
    ("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n", TFVersion.TF1),
    ("import tensorflow as tf\nnet = tf.contrib.layers.fully_connected(x, 3)\n", TFVersion.TF1),
    ("import tensorflow as tf\nfrom tensorflow.contrib import slim\n", TFVersion.TF1),
    ("import tensorflow.compat.v1 as tf\ny = tf.nn.dropout(x, 0.5)\n", TFVersion.TF1),
    ("from tensorflow.compat import v1 as tf\n", TFVersion.TF1),
    ("import tensorflow.compat.v2 as tf\n", TFVersion.TF2),
    ("import tensorflow as tf\nimport tensorflow.compat.v1 as tf1\n", TFVersion.TF2),
    ("import tensorflow as tf\ntf.random.set_seed(0)\n", TFVersion.TF2),
    ("import tensorflow as tf\ny = tf.nn.dropout(x, 0.5)\n", TFVersion.UNKNOWN),
    ("import tensorflow as tf\nsess = tf.compat.v1.Session()\n", TFVersion.UNKNOWN),  # compat.v1 names don't count
    ("import tensorflow as tf\ntf.random.set_seed(0)\nsess = tf.Session()\n", TFVersion.UNKNOWN),  # both ways
    ("import numpy as np\nlog = np.log\n", TFVersion.UNKNOWN),
])
def test_decision(code, version):
    verdict = _decide(code)
    assert verdict.version is version, verdict.reason
    assert verdict.reason


def test_the_reason_names_the_evidence_and_its_line():
    assert _decide("import tensorflow as tf\n\nsess = tf.Session()\n").reason == "uses `tf.Session` (line 3)"


@pytest.mark.parametrize("source", ["tf1", "tf2"])
def test_configuration_overrides_the_evidence(source):
    assert _decide("import tensorflow.compat.v2 as tf\nsess = tf.Session()\n", source).version is TFVersion(source)


AMBIGUOUS = "import tensorflow as tf\ny = tf.nn.dropout(x, 0.5)\n"


def test_ambiguous_file_is_reported_not_guessed():
    result = rewrite_text(AMBIGUOUS, "m.py")
    assert result.code == AMBIGUOUS
    assert [d.code for d in result.diagnostics] == ["TFM650"]
    assert "source" in result.diagnostics[0].message and not result.diagnostics[0].fixed


def test_source_setting_decides_an_ambiguous_file():
    assert rewrite_text(AMBIGUOUS, "m.py", Selection(source="tf1")).code.endswith("rate=1 - (0.5))\n")
    tf2 = rewrite_text(AMBIGUOUS, "m.py", Selection(source="tf2"))
    assert tf2.code == AMBIGUOUS and tf2.diagnostics == []


def test_a_compat_v1_reference_is_tf1_even_in_tf2_code():
    code = "import tensorflow as tf\nimport tensorflow.compat.v1 as tf1\ny = tf1.nn.dropout(x, 0.5)\nz = tf.nn.dropout(x, 0.5)\n"
    for source in ("auto", "tf2"):
        out = rewrite_text(code, "m.py", Selection(source=source)).code
        assert "tf1.nn.dropout(x, rate=1 - (0.5))" in out and "tf.nn.dropout(x, 0.5)" in out


def test_source_option_and_configuration_key(tmp_path):
    from click.testing import CliRunner
    from tf2migrate.cli.app import main

    (tmp_path / "m.py").write_text(AMBIGUOUS)
    (tmp_path / "pyproject.toml").write_text('[tool.tf2migrate]\nsource = "tf1"\n')
    runner = CliRunner()
    assert "rate=1 - (0.5)" in runner.invoke(main, ["rewrite", "--diff", "--no-cache", str(tmp_path)]).output
    assert "TFM650" in runner.invoke(main, ["rewrite", "--diff", "--no-cache", "--source", "auto", str(tmp_path)]).output
    (tmp_path / "pyproject.toml").write_text('[tool.tf2migrate]\nsource = "tf3"\n')
    assert runner.invoke(main, ["rewrite", "--diff", "--no-cache", str(tmp_path)]).exit_code == 2


@pytest.mark.slow
def test_name_lists_hold_for_the_installed_tensorflow():
    """TF1_ONLY: in TF 1.x's API (`tf.compat.v1`) and not in TF2's; TF2_ONLY the other way round. `tf.contrib`
    is in neither of TF 2.15's namespaces, so it is taken on trust."""
    tf = pytest.importorskip("tensorflow")

    def has(namespace, name: str) -> bool:
        for part in name.rstrip(".").split(".")[1:]:
            if not hasattr(namespace, part):
                return False
            namespace = getattr(namespace, part)
        return True

    wrong = [n for n in TF1_ONLY if not n.startswith("tf.contrib") and (has(tf, n) or not has(tf.compat.v1, n))]
    wrong += [n for n in TF2_ONLY if not has(tf, n) or has(tf.compat.v1, n)]
    assert wrong == []
