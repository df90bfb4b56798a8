"""The call upgrades of rules/splice_upgrades.py rewrite exactly as their LibCST rules do (as
tests/test_code_splice.py checks for the first ones): each shape both ways, `--source tf1` and `auto`."""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.selection import Selection
from tf2migrate.rules import table_only
from tests.test_table_splice import _same

HEAD = "import tensorflow as tf\n"
CALLS = {
    "resize_kept": "y = tf.image.resize_bilinear(x, [2, 2])\nz = tf.image.resize_nearest_neighbor(\n    x, s)\n",
    "resize_area": "y = tf.image.resize_area(x, [2, 2])\nz = tf.image.resize_area(x, s, name='r')\n",
    "resize_area_positional_name": "y = tf.image.resize_area(x, s, False, 'r')\n",
    "resize_half_pixel": "y = tf.image.resize_bilinear(x, s, half_pixel_centers=True)\n",
    "resize_align": "y = tf.image.resize_bicubic(x, s, align_corners=True)\nz = tf.image.resize_area(x, s, True)\n",
    "resize_align_false": "y = tf.image.resize_area(x, s, align_corners=False)\n",
    "resize_unbound": "y = tf.image.resize_area(*a)\nz = tf.image.resize_area(x)\nw = tf.image.resize_area(x, s, 1, 2, 3, 4)\n",
    "resize_v1": "y = tf.compat.v1.image.resize_bilinear(x, s)\nz = tf.compat.v1.image.resize_area(x, s)\n",
    "resize_nested": "y = tf.image.resize_area(tf.to_float(x), tf.shape(tf.log(x))[1:3])\n",
    "resize_trailing_comma": "y = tf.image.resize_area(\n    x,\n    s,\n)\n",
    "resize_suppressed": "y = tf.image.resize_area(x, s)  # tf2migrate: skip\n",
    "device_names": "with tf.device('/cpu:0'):\n    pass\nwith tf.device(d[0]):\n    pass\nwith tf.device(x.device):\n"
                    "    pass\n",
    "device_functions": "def f(op):\n    return '/cpu:0'\n\n\nwith tf.device(f):\n    pass\nwith tf.device(lambda op: '/gpu:0'):\n"
                        "    pass\nwith tf.device(tf.train.replica_device_setter(ps_tasks=2)):\n    pass\n",
    "device_setter_name": "s = tf.train.replica_device_setter(ps_tasks=2)\nwith tf.device(s):\n    pass\n",
    "device_helper": "def helper():\n    return tf.train.replica_device_setter(1), 'x'\n\n\nd, t = helper()\n"
                     "with tf.device(d):\n    pass\n",
    "device_star_keyword": "with tf.device(*a):\n    pass\nwith tf.device(device_name_or_function=lambda op: 'a'):\n"
                           "    pass\n",
    "device_v1": "with tf.compat.v1.device(lambda op: 'a'):\n    pass\n",
    "init_unit": "a = tf.uniform_unit_scaling_initializer()\nb = tf.uniform_unit_scaling_initializer(1.43, seed=2)\n"
                 "c = tf.initializers.uniform_unit_scaling(factor=x + 1, dtype=tf.float32)\n",
    "init_xavier": "a = tf.contrib.layers.xavier_initializer()\nb = tf.contrib.layers.xavier_initializer(False, 3)\n"
                   "c = tf.contrib.layers.xavier_initializer_conv2d(uniform=u or v, seed=1)\n",
    "init_variance": "a = tf.contrib.layers.variance_scaling_initializer()\n"
                     "b = tf.contrib.layers.variance_scaling_initializer(1.0, 'FAN_AVG', True)\n"
                     "c = tf.contrib.slim.variance_scaling_initializer(mode=m, uniform=lambda: 1, factor=(2.0))\n",
    "init_unbound": "a = tf.uniform_unit_scaling_initializer(*f)\nb = tf.contrib.layers.xavier_initializer(x=1)\n"
                    "c = tf.uniform_unit_scaling_initializer(1, 2, 3, 4)\n",
    "init_shapes": "a = tf.uniform_unit_scaling_initializer( )\nb = tf.uniform_unit_scaling_initializer(1.0,)\n"
                   "c = tf.uniform_unit_scaling_initializer(\n    factor=2)\nd = tf.uniform_unit_scaling_initializer(f('#'))\n",
    "init_nested": "a = tf.contrib.layers.xavier_initializer(seed=tf.to_int32(tf.log(x)))\n"
                   "b = tf.get_variable('w', initializer=tf.uniform_unit_scaling_initializer(tf.sqrt(2.0)))\n",
    "softmax": "l = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)\n"
               "m = tf.nn.softmax_cross_entropy_with_logits(\n    labels = (a + b), logits=x, dim=2)\n",
    "softmax_kept": "l = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(y), logits=x)\n"
                    "m = tf.nn.softmax_cross_entropy_with_logits(logits=x, dim=-1)\nn = tf.nn.softmax_cross_entropy_with_logits(x, y)\n"
                    "o = tf.nn.softmax_cross_entropy_with_logits(**kw)\n",
    "softmax_v1": "l = tf.compat.v1.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)\n"
                  "m = tf.compat.v1.nn.softmax_cross_entropy_with_logits(x, y)\n",
    "softmax_nested": "l = tf.nn.softmax_cross_entropy_with_logits(labels=tf.to_float(y), logits=tf.log(x))\n",
    "append_after_blanks": "a = tf.to_float(tf.shape(x)\n             )\nc = tf.image.resize_area(x, s\n    )\n"
                           "e = tf.to_float(x  )\n",
    "append_after_rebuilt": "b = tf.to_int32(x, 'n'\n)\nd = tf.to_float(x, \n    'n'  )\n",
    "regularizers": "a = tf.contrib.layers.l2_regularizer(w)\nb = tf.contrib.layers.l1_regularizer(scale=1e-4, scope='s')\n"
                    "c = tf.contrib.slim.l2_regularizer(a + b)\n",
    "regularizers_unbound": "a = tf.contrib.layers.l2_regularizer(*w)\nb = tf.contrib.layers.l1_regularizer(scope='s')\n"
                            "c = tf.contrib.layers.l2_regularizer(w, scale=2)\nd = tf.contrib.layers.l2_regularizer(w,)\n"
                            "e = tf.contrib.layers.l2_regularizer((w))\n",
    "init_suppressed": "a = tf.uniform_unit_scaling_initializer()  # tf2migrate: skip\n",
}
SHAPES = {name: HEAD + text for name, text in CALLS.items()}
SHAPES["v1_module"] = "import tensorflow.compat.v1 as tf\ny = tf.image.resize_bilinear(x, s)\nwith tf.device(f):\n" \
                      "    pass\n\n\ndef f(op):\n    return 'a'\n"
SHAPES["from_import"] = "from tensorflow.image import resize_area\ny = resize_area(x, s)\n"
SHAPES["slim"] = "import tensorflow as tf\nfrom tensorflow.contrib import slim\nw = slim.variance_scaling_initializer()\n"
SHAPES["softmax_tf2"] = "import tensorflow as tf\nl = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)\n"
SHAPES["init_v1_module"] = "import tensorflow.compat.v1 as tf\na = tf.uniform_unit_scaling_initializer()\n"


@pytest.mark.parametrize("source", ["tf1", "auto"])
@pytest.mark.parametrize("name", sorted(SHAPES))
def test_call_upgrade_splice_is_libcsts(name, source):
    _same(SHAPES[name], f"{name}.py", Selection(source=source))


def test_most_shapes_take_the_splice_path():
    before = sum(table_only.SPLICED.values())
    for text in SHAPES.values():
        rewrite_text(text, "x.py", Selection(source="tf1"))
    assert sum(table_only.SPLICED.values()) - before >= 27  # not vacuous (29 of 37)


def test_a_kept_resize_moves_to_compat_v1_on_the_splice_path():
    before = table_only.SPLICED["changed"]
    result = rewrite_text(SHAPES["resize_kept"], "x.py", Selection(source="tf1"))
    assert table_only.SPLICED["changed"] == before + 1
    assert result.code == HEAD + "y = tf.compat.v1.image.resize_bilinear(x, [2, 2])\n" \
                                 "z = tf.compat.v1.image.resize_nearest_neighbor(\n    x, s)\n"


def test_an_argument_is_appended_after_blanks_before_the_parenthesis_as_libcst_prints_it():
    """`call_edit.append_arg` puts the comma after the last value and keeps the blanks after it (epva.py)."""
    before = table_only.SPLICED["changed"]
    result = rewrite_text(HEAD + "a = tf.to_float(tf.shape(x)\n    )\n", "x.py", Selection(source="tf1"))
    assert table_only.SPLICED["changed"] == before + 1
    assert result.code == HEAD + "a = tf.cast(tf.shape(x), \n    dtype=tf.float32)\n"
