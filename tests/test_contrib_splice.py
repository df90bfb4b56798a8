"""TFM343 on the splice path (rules/unconverted/contrib_splice.py) rewrites exactly as its LibCST rule does.

Each shape is rewritten both ways and the code and diagnostics compared (tests/test_table_splice.py's `_same`):
an unused tf.contrib import removed with its blank lines and its comments kept, a used one reported, one the
rewrite leaves unused (the engine drops it) and the shapes the text cannot promise going to LibCST.
"""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.selection import Selection
from tf2migrate.rules import table_only
from tests.test_table_splice import _same

SHAPES = {
    "unused": "import tensorflow as tf\nfrom tensorflow.contrib import summary\n\nx = tf.log(1.0)\n",
    "used": "import tensorflow as tf\nfrom tensorflow.contrib import slim\nx = slim.conv2d(tf.log(y), 2)\n",
    "unused_unchanged": "import os\nfrom tensorflow.contrib import summary\n\nx = os.sep\n",
    "comments": "import tensorflow as tf\n\n# the summaries\n\n# more\nfrom tensorflow.contrib import summary  # unused\n\n"
                "x = tf.log(1.0)\n",
    "first": "# header\n\nfrom tensorflow.contrib import summary\n\n# next\nimport tensorflow as tf\nx = tf.log(1.0)\n",
    "docstring_first": '"""Doc."""\n\n# c\nfrom tensorflow.contrib import summary\nimport tensorflow as tf\nx = tf.log(1)\n',
    "two_in_a_row": "import tensorflow as tf\n\n# a\nfrom tensorflow.contrib import summary\n\n# b\n"
                    "from tensorflow.contrib import slim as s\n\n\ndef f():\n    return tf.log(1.0)\n",
    "after_def": "import tensorflow as tf\n\n\ndef f():\n    return tf.log(1.0)\n    # in f\n\n# out\n"
                 "from tensorflow.contrib import summary\n\nx = 1\n",
    "after_class": "import tensorflow as tf\n\n\nclass A:\n    x = tf.log(1.0)\n\n  # odd\n\n"
                   "from tensorflow.contrib import summary\nx = 1\n",
    "multiline": "import tensorflow as tf\nfrom tensorflow.contrib import (\n    summary,  # s\n    slim)\nx = tf.log(1.0)\n",
    "duplicate": "import tensorflow as tf\nfrom tensorflow.contrib import summary\nfrom tensorflow.contrib import summary\n"
                 "x = tf.log(1.0)\n",
    "suppressed": "import tensorflow as tf\nfrom tensorflow.contrib import summary  # tf2migrate: skip\n"
                  "x = tf.log(1.0)\n",
    "shares_a_line": "import tensorflow as tf\nfrom tensorflow.contrib import summary; x = tf.log(1.0)\n",
    "ends_the_module": "import tensorflow as tf\nx = tf.log(1.0)\nfrom tensorflow.contrib import summary\n",
    "nested": "import tensorflow as tf\ntry:\n    from tensorflow.contrib import summary\nexcept ImportError:\n    pass\n"
              "x = tf.log(1.0)\n",
    "dotted": "import tensorflow as tf\nimport tensorflow.contrib.slim\nx = tf.log(1.0)\n",
    "dotted_alone": "import tensorflow.contrib.slim\nimport os\nx = os.sep\n",
    "dotted_used": "import tensorflow as tf\nimport tensorflow.contrib.slim\nx = tensorflow.contrib.slim.l(tf.log(1))\n",
    "crlf": "import tensorflow as tf\r\n\r\n# c\r\nfrom tensorflow.contrib import summary\r\n\r\nx = tf.log(1.0)\r\n",
    "left_unused": "import tensorflow as tf\nfrom tensorflow.contrib import layers\nx = layers.xavier_initializer()\n",
    "used_through_tf": "import tensorflow as tf\nfrom tensorflow.contrib import summary\nl = tf.contrib.layers.l(x)\n",
}


@pytest.mark.parametrize("source", ["tf1", "auto"])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_contrib_import_splice_is_libcsts(name, source):
    _same(SHAPES[name], f"{name}.py", Selection(source=source))


def test_most_contrib_shapes_take_the_splice_path():
    before = sum(table_only.SPLICED.values())
    for text in SHAPES.values():
        rewrite_text(text, "x.py", Selection(source="tf1"))
    assert sum(table_only.SPLICED.values()) - before >= 14  # not vacuous


def test_an_unused_contrib_import_is_cut_on_the_splice_path():
    before = table_only.SPLICED["changed"]
    result = rewrite_text(SHAPES["comments"], "x.py", Selection(source="tf1"))
    assert table_only.SPLICED["changed"] == before + 1
    assert result.code == "import tensorflow as tf\n# the summaries\n# more\n\nx = tf.math.log(1.0)\n"
    assert [d.code for d in result.diagnostics] == ["TFM343", "TFM601"]
