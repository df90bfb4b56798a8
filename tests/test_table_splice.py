"""Table edits made as text splices (rules/table_only.py) rewrite exactly as LibCST's path does.

Every fixture and program is rewritten both ways, as the pre-pass would read it (`--source auto` and `tf1`),
and the code and diagnostics compared; enough of them take the splice path for the comparison to mean
something. bench/splice_agrees.py does the same on a corpus (tensor2tensor 1.14.0: every file agrees).
"""
from __future__ import annotations

import ast

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.selection import Selection
from tf2migrate.rules import table_only
from tests.test_reduce import SOURCES

SHAPES = {
    "rename": "import tensorflow as tf\nx = tf.log(1.0)\n",
    "method_call_args": "import tensorflow as tf\ny = tf.reduce_sum(x, 1, True)\nz = tf.argmax(x, dimension=1)\n",
    "parenthesized": "import tensorflow as tf\nx = (tf.log)(1.0)\ny = (tf.Session)\nif (tf.log):\n    pass\n",
    "commented_args": "import tensorflow as tf\ny = tf.reduce_sum(\n    x,  # the input\n    1)\n",
    "trailing_comma": "import tensorflow as tf\ny = tf.reduce_sum(\n    x,\n    1,\n    True,\n)\n",
    "nested": "import tensorflow as tf\nv = tf.Variable(tf.random_normal([2]), tf.GraphKeys.LOCAL_VARIABLES)\n",
    "contrib": "import tensorflow as tf\nf = tf.contrib.framework.deprecated(None, 'x')(g)\nl = tf.contrib.layers\n",
    "alias": "import tensorflow as tf\nlayers = tf.layers\nflags = tf.flags\nFLAGS = flags.FLAGS\ny = layers.dense(x, 2)\n",
    "shadowed": "import tensorflow as tf\n\n\ndef f(tf):\n    return tf.log(1.0)\n\n\ng = lambda tf: tf.log(2)\nh = tf.log(3)\n",
    "fstring": "import tensorflow as tf\nprint(f'{tf.log(1.0)}')\n",
    "unicode": "import tensorflow as tf\ns = 'é'; x = tf.log(1.0)  # ünï\ny = tf.Session(config=tf.ConfigProto())\n",
    "from_import": "from tensorflow import Session\ns = Session()\n",
    "last_use": "import tensorflow.compat.v1 as tf\nx = tf.log(1.0)\n",
    "suppressed": "import tensorflow as tf\nx = tf.log(1.0)  # tf2migrate: skip\ny = tf.log(2.0)\n",
    "crlf": "import tensorflow as tf\r\nx = tf.log(1.0)\r\ny = tf.reduce_sum(x, 0, True)\r\n",
}


def _same(text: str, path: str, selection: Selection) -> None:
    spliced = rewrite_text(text, path, selection, tree=ast.parse(text))
    whole = rewrite_text(text, path, selection, tree=ast.parse(text), splice=False)
    assert spliced.code == whole.code
    assert [str(d) for d in spliced.diagnostics] == [str(d) for d in whole.diagnostics]


@pytest.mark.parametrize("source", ["auto", "tf1"])
def test_spliced_rewrite_is_libcsts_on_every_fixture_and_program(source):
    before = table_only.SPLICED["changed"]
    for path in SOURCES:
        _same(path.read_text(encoding="utf-8"), str(path), Selection(source=source))
    assert table_only.SPLICED["changed"] - before >= (5 if source == "auto" else 50)  # not vacuous (6 and 73)


@pytest.mark.parametrize("source", ["auto", "tf1", "tf2"])
def test_spliced_rewrite_is_libcsts_on_every_rule_example(source):
    """The examples `tf2migrate explain` shows: TFM664's (`tf.compat.v1.keras.models.save_model`) went to the
    splice path, which its rule's wake words did not cover, and lost its finding."""
    from tf2migrate.rules import registry

    for info in registry.all_infos().values():
        if info.before:
            _same(info.before, f"{info.code}.py", Selection(source=source))


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_spliced_rewrite_is_libcsts_where_splices_are_hard(name):
    _same(SHAPES[name], name, Selection(source="tf1"))


def test_a_plain_table_file_takes_the_splice_path_and_a_code_rule_file_does_not():
    before = dict(table_only.SPLICED)
    result = rewrite_text(SHAPES["method_call_args"], "x.py", Selection(source="tf1"))
    assert table_only.SPLICED["changed"] == before.get("changed", 0) + 1
    assert "tf.argmax(x, axis=1)" in result.code
    rewrite_text("import tensorflow as tf\ny = tf.nn.dilation2d(x, f, s, r, 'SAME')\n", "y.py", Selection(source="tf1"))
    assert table_only.SPLICED["changed"] == before.get("changed", 0) + 1  # TFM663 is a code rule's: LibCST
    rewrite_text("import tensorflow as tf\ny = tf.to_float(x)\n", "z.py", Selection(source="tf1"))
    assert table_only.SPLICED["changed"] == before.get("changed", 0) + 2  # TFM652's splices: rules/code_splice.py
