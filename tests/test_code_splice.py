"""The call upgrades the splice path answers (rules/code_splice.py) rewrite exactly as their LibCST rules do.

Each shape is rewritten both ways (`--source tf1` and `auto`, so TFM650 is met too) and the code and diagnostics
compared, as tests/test_table_splice.py does for the tables; most must take the splice path for the comparison to
mean something, and the shapes it cannot promise go to LibCST.
"""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.selection import Selection
from tf2migrate.rules import table_only
from tests.test_table_splice import _same

HEAD = "import tensorflow as tf\n"
CALLS = {
    "cast": "y = tf.to_float(x)\n",
    "cast_name": "y = tf.to_int32(x, 'n')\nz = tf.to_double(x, name='m')\n",
    "cast_too_many": "y = tf.to_float(x, 'n', 3)\nz = tf.to_int64(*a)\n",
    "cast_trailing_comma": "y = tf.to_float(\n    x,\n)\n",
    "cast_blank_before_comma": "y = tf.to_float(x , 'n')\n",
    "cast_nested": "y = tf.to_float(tf.to_int32(tf.argmax(x, dimension=1)))\n",
    "cast_in_table_call": "y = tf.reduce_sum(tf.to_float(x), 1, True)\n",
    "cast_multiline": "y = tf.to_float(\n    tf.equal(a, b),\n    'mask')\n",
    "cast_suppressed": "y = tf.to_float(x)  # tf2migrate: skip\n",
    "dropout_keyword": "y = tf.nn.dropout(x, keep_prob=0.9)\n",
    "dropout_expression": "y = tf.nn.dropout(x, keep_prob=1.0 - p)\nz = tf.nn.dropout(x, keep_prob=-p)\n",
    "dropout_parenthesized": "y = tf.nn.dropout(x, keep_prob=(1 - p))\nz = tf.nn.dropout(x, keep_prob=(p))\n",
    "dropout_spaced": "y = tf.nn.dropout(x, keep_prob = 0.5)\nz = tf.nn.dropout(x, keep_prob=0.5 )\n",
    "dropout_positional": "y = tf.nn.dropout(x, 1.0 - p)\nz = tf.nn.dropout(x, 0.5, None, 3, 'd')\n",
    "dropout_ifexp": "y = tf.nn.dropout(x, a if b else c, noise_shape=s)\n",
    "dropout_rate": "y = tf.nn.dropout(x, rate=0.1)\nz = tf.nn.dropout(x, p, rate=0.1)\n",
    "dropout_nested": "y = tf.nn.dropout(tf.to_float(x), tf.to_float(k))\n",
    "iterator": "f = ds.make_one_shot_iterator().get_next()\ng = ds.make_initializable_iterator()\n",
    "iterator_receiver": "f = (a.b(c)).make_one_shot_iterator()\ng = tf.data.Dataset.range(3).batch(\n    2).make_one_shot_iterator()\n",
    "iterator_not_converted": "f = tf.data.make_one_shot_iterator(ds)\ng = ds.make_one_shot_iterator(1)\n",
    "iterator_v1_alias": "import tensorflow.compat.v1 as tf1\nf = tf1.data.Dataset.range(3).make_one_shot_iterator()\n",
    "name_scope": "with tf.name_scope(None, 'd', [x]):\n    pass\nwith tf.name_scope('a'):\n    pass\n",
    "name_scope_name": "def f(x, name=None):\n    with tf.name_scope(name, 'd', [x]):\n        pass\n",
    "name_scope_strings": "a = tf.name_scope('n', 'd')\nb = tf.name_scope(f'{x}', 'd')\nc = tf.name_scope(b'n', 'd', [x])\n",
    "name_scope_keywords": "a = tf.name_scope(name=None, default_name='d', values=[x])\nb = tf.name_scope(name='x')\n"
                           "c = tf.name_scope(scope, default_name='d')\nd = tf.name_scope(n, values=[x])\n",
    "name_scope_none": "a = tf.name_scope(None)\nb = tf.name_scope(None, values=[x])\n",
    "name_scope_multiline": "a = tf.name_scope(\n    None, 'd',\n    values=[tf.to_float(x)])\nb = tf.name_scope(\n    'n', None, [x],\n)\n",
    "gone_plain": "a = tf.zeros_like(x)\nb = tf.ones_like(x, dtype=tf.int32)\nc = tf.while_loop(c, b, v)\n",
    "gone_value": "a = tf.zeros_like(x, optimize=False)\nb = tf.ones_like(x, optimize=o)\n",
    "gone_dropped": "a = tf.zeros_like(x, optimize=True)\nb = tf.zeros_like(tensor=x)\n",
    "gone_ctc": "a = tf.nn.ctc_beam_search_decoder(l, s)\nb = tf.nn.ctc_beam_search_decoder(l, s, merge_repeated=True)\n",
    "gone_while_positional": "c = tf.while_loop(c, b, v, None, 10, False, False, 'n')\n",
    "several_rules": "with tf.name_scope(None, 'd', [x]):\n    y = tf.nn.dropout(tf.to_float(x), 0.5)\n"
                     "    z = tf.zeros_like(y)\n    s = tf.Session()\n    i = ds.make_one_shot_iterator()\n",
}
SHAPES = {name: HEAD + text for name, text in CALLS.items()}
SHAPES["from_import"] = "from tensorflow import to_float\ny = to_float(x)\n"
SHAPES["v1_module"] = "import tensorflow.compat.v1 as tf\ny = tf.to_float(x)\nz = tf.nn.dropout(x, 0.5)\n"
SHAPES["no_tf_alias"] = "from tensorflow import nn\nimport tensorflow.compat.v1 as v1\ny = v1.to_float(x)\n"


@pytest.mark.parametrize("source", ["tf1", "auto"])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_code_rule_splice_is_libcsts(name, source):
    _same(SHAPES[name], f"{name}.py", Selection(source=source))


def test_most_shapes_take_the_splice_path():
    before = sum(table_only.SPLICED.values())
    for text in SHAPES.values():
        rewrite_text(text, "x.py", Selection(source="tf1"))
    assert sum(table_only.SPLICED.values()) - before >= 25  # not vacuous (of 36)


def test_an_operator_chain_too_long_for_libcst_is_rewritten_by_splices():
    """LibCST cannot parse a chain of more than `MAX_TERMS` terms (TFM909, engine/chains.py): the splice path
    needs no LibCST, so the cast in it is upgraded."""
    from tf2migrate.engine.chains import MAX_TERMS

    text = HEAD + "y = tf.to_float(x0) + " + " + ".join(f"x{i}" for i in range(1, MAX_TERMS + 5)) + "\n"
    result = rewrite_text(text, "chain.py", Selection(source="tf1"))
    assert result.code == text.replace("tf.to_float(x0)", "tf.cast(x0, dtype=tf.float32)")
    assert [d.code for d in result.diagnostics] == ["TFM652"]


def test_a_tf_contrib_use_without_a_contrib_import_takes_the_splice_path():
    """The contrib-imports rule (TFM343) acts only on a file that imports tf.contrib: `tf.contrib.X` alone, in
    most of tensor2tensor, is a table edit and no reason for LibCST (it sent 39 t2t files there)."""
    used = HEAD + "y = tf.contrib.layers.flatten(tf.to_float(x))\n"
    imported = "from tensorflow.contrib import layers\n" + used
    before = sum(table_only.SPLICED.values())
    rewrite_text(used, "x.py", Selection(source="tf1"))
    assert sum(table_only.SPLICED.values()) == before + 1
    rewrite_text(imported, "x.py", Selection(source="tf1"))
    assert sum(table_only.SPLICED.values()) == before + 2  # and its import: rules/unconverted/contrib_splice.py
    _same(imported, "x.py", Selection(source="tf1"))
    _same(used, "x.py", Selection(source="tf1"))
