"""TFM343: no import of tensorflow.contrib is left in the output without a word (TF2 cannot import it): removed
with a note (fixed) when nothing uses it, reported (an error, not fixed) when something still does.

The TPU templates of cloudml-samples import `tensorflow.contrib.summary` and never use it (survey 30): the
output kept it in silence, and the converted program stopped at that line. Each case goes the way the CLI goes
(the pre-pass first, which must not settle such a file without LibCST).
"""
from __future__ import annotations

import ast

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.process import precheck
from tf2migrate.rules.wake_words import triggers


def _run(source: str):
    src, done = precheck("x.py", source.encode(), triggers())
    assert done is None  # the pre-pass sends the file to the rules
    result = rewrite_text(source, "x.py")
    compile(result.code, "x.py", "exec")
    assert rewrite_text(result.code, "x.py").code == result.code  # a second run changes nothing
    return result.code, [(d.line, d.fixed) for d in result.diagnostics if d.code == "TFM343"]


def test_unused_contrib_import_is_removed_with_a_note():
    code, found = _run("import tensorflow as tf\nfrom tensorflow.contrib import summary\nx = tf.train.get_global_step()\n")
    assert found == [(2, True)]
    assert "contrib" not in code


def test_unused_contrib_import_alone_in_a_file_is_not_settled_by_the_prepass():
    code, found = _run("# header\nimport tensorflow.contrib.slim as slim\n\nimport os\n")
    assert found == [(2, True)]
    assert code == "# header\n\nimport os\n"


def test_a_comment_above_a_removed_import_stays():
    code, found = _run('"""Doc."""\nimport tensorflow as tf\n# summaries\nfrom tensorflow.contrib import summary\n'
                       "x = tf.zeros([2])\n")
    assert found == [(4, True)]
    assert code == '"""Doc."""\nimport tensorflow as tf\n# summaries\nx = tf.zeros([2])\n'


@pytest.mark.parametrize("source, line", [
    ("import tensorflow as tf\nimport tensorflow.contrib.slim as slim\nnet = slim.fully_connected(tf.zeros([2, 3]), 4)\n", 2),
    ("import tensorflow as tf\nfrom tensorflow.contrib import layers\nnet = layers.fully_connected(tf.zeros([2, 3]), 4)\n", 2),
    ("import tensorflow as tf\ndef f():\n    from tensorflow.contrib import summary\n    return 1\n", 3),  # nested
    ("import tensorflow.contrib.slim\nnet = tensorflow.contrib.slim.fully_connected(1, 4)\n", 1),
    ("from tensorflow import contrib, keras\nx = keras.layers.Dense(1)\n", 1),  # keras stays used
])
def test_a_contrib_import_that_stays_is_reported(source, line):
    code, found = _run(source)
    assert found == [(line, False)]
    assert any(isinstance(n, (ast.Import, ast.ImportFrom)) and "contrib" in ast.unparse(n) for n in ast.walk(ast.parse(code)))


def test_a_contrib_import_the_tables_emptied_goes_without_a_finding():
    code, found = _run("import tensorflow as tf\nfrom tensorflow.contrib import summary\n"
                       "summary.scalar('a', tf.zeros([]))\n")
    assert found == [] and "contrib" not in code


def test_no_contrib_no_finding():
    source = "import tensorflow as tf\nfrom tensorflow import keras\nx = keras.layers.Dense(1)\n"
    assert rewrite_text(source, "x.py").diagnostics == []
