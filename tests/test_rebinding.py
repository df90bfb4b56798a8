"""A name imported from TensorFlow and bound again in the module is no TensorFlow name (engine/rebinding.py).

Each way of binding a name again is checked on `ImportMap.from_ast` (which both rewrite paths read) and on the
rewrite itself, through the splice path and through LibCST's: neither may convert a use of the name, both must
give the same code and findings (TFM616 at the other binding). The ways that are no rebinding of the module's
name (a function's own variable, an attribute, a comprehension's variable, another TensorFlow import) leave the
name TensorFlow's.
"""
from __future__ import annotations

import ast

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.context import Selection
from tf2migrate.engine.imports import ImportMap

HEAD = "import tensorflow as tf\nfrom tensorflow import to_float\n"
USE = "x = to_float(3)\n"

REBINDINGS = {
    "assignment": "to_float = 3\n",
    "augmented": "to_float += 1\n",
    "annotated": "to_float: int = 3\n",
    "tuple target": "a, to_float = 1, 2\n",
    "starred target": "a, *to_float = 1, 2, 3\n",
    "def": "def to_float(x):\n    return x\n",
    "class": "class to_float:\n    pass\n",
    "for target": "for to_float in range(2):\n    pass\n",
    "with target": "with open('f') as to_float:\n    pass\n",
    "except name": "try:\n    pass\nexcept ValueError as to_float:\n    pass\n",
    "other import": "from numpy import float32 as to_float\n",
    "relative import": "from .casts import to_float\n",
    "global in a function": "def reset():\n    global to_float\n    to_float = None\n",
    "walrus": "if (to_float := 3):\n    pass\n",
    "walrus in a comprehension": "ys = [(to_float := y) for y in range(2)]\n",
    "del": "del to_float\n",
    "inside an if": "if True:\n    to_float = 3\n",
    "class body": "class A:\n    to_float = 3\n",
    "match capture": "match 1:\n    case to_float:\n        pass\n",
}

NOT_REBINDINGS = {
    "function local": "def f():\n    to_float = 3\n    return to_float\n",
    "parameter": "def f(to_float):\n    return to_float\n",
    "attribute": "tf.to_float = None\n",
    "comprehension variable": "ys = [to_float for to_float in range(2)]\n",
    "global without a binding": "def f():\n    global to_float\n    return to_float\n",
    "another TensorFlow import": "from tensorflow.compat.v1 import to_float\n",
}


@pytest.mark.parametrize("kind", REBINDINGS)
def test_a_rebinding_makes_the_name_no_tf_name(kind):
    text = HEAD + REBINDINGS[kind] + USE
    imports = ImportMap.from_ast(ast.parse(text))
    assert "to_float" not in imports.bindings and "to_float" in imports.rebound
    assert imports.resolve_dotted("tf.to_float")[1] == "tf.to_float"  # the other TF names stay TF's


@pytest.mark.parametrize("kind", NOT_REBINDINGS)
def test_no_rebinding_of_the_module_name(kind):
    text = HEAD + NOT_REBINDINGS[kind] + USE
    imports = ImportMap.from_ast(ast.parse(text))
    assert "to_float" in imports.bindings and not imports.rebound


def _both_paths(text: str) -> tuple:
    spliced = rewrite_text(text, "m.py")
    libcst = rewrite_text(text, "m.py", splice=False)
    assert spliced.code == libcst.code
    assert spliced.diagnostics == libcst.diagnostics
    return libcst.code, sorted(f"{d.line}:{d.col} {d.code}" for d in libcst.diagnostics)


@pytest.mark.parametrize("kind", REBINDINGS)
def test_no_use_of_a_rebound_name_is_converted(kind):
    binding = REBINDINGS[kind]
    text = HEAD + binding + USE + "y = tf.to_float(4)\n"
    code, found = _both_paths(text)
    assert code == HEAD + binding + USE + "y = tf.cast(4, dtype=tf.float32)\n"
    assert any(f.endswith("TFM616") for f in found), found
    compile(code, "m.py", "exec")


def test_a_rebound_module_alias_is_left_with_its_finding():
    text = "import numpy\nimport tensorflow as tf\n\nx = tf.to_float(3)\ntf = numpy\ny = tf.zeros(3)\n"
    code, found = _both_paths(text)
    assert code == text and found == ["5:1 TFM616"]


def test_a_rebound_compat_v1_alias_is_no_tf_name():
    text = "import tensorflow.compat.v1 as tf\ntf = tf.compat.v1\nsess = tf.Session()\n"
    code, found = _both_paths(text)
    assert code == text and found == ["2:1 TFM616"]  # was `tf.compat.v1.Session`: tf.compat.v1.compat.v1...


def test_a_private_tensorflow_name_rebound_gets_no_finding():
    """`tensorflow.python.*`: no rule knows its names, so nothing of it is left unconverted (tensor2tensor's
    `distribute_summary_op_util`, imported in `try`, assigned in `except ImportError`)."""
    text = ("from tensorflow.python.ops import summary_op_util\ntry:\n"
            "    from tensorflow.python.distribute import summary_op_util as dist\n"
            "except ImportError:\n    dist = summary_op_util\n")
    code, found = _both_paths(text)
    assert code == text and found == []


def test_a_tf2_file_gets_no_finding():
    text = "import tensorflow as tf\nfrom tensorflow import keras\n\nkeras = None\nx = tf.function(len)\n"
    for splice in (True, False):
        assert rewrite_text(text, "m.py", Selection(source="tf2"), splice=splice).diagnostics == []
    assert [d.code for d in rewrite_text(text, "m.py", Selection(source="tf1")).diagnostics] == ["TFM616"]


def test_a_tf_import_rebound_in_its_function_gets_a_finding():
    """The function's own variable shadows the name throughout the function (engine/scopes.py): its import is
    left as written, and said so."""
    text = ("import tensorflow as tf\n\n\ndef f(x):\n    from tensorflow import to_float\n"
            "    to_float = tf.identity\n    return to_float(x) + tf.to_float(x)\n")
    code, found = _both_paths(text)
    assert code == text.replace("tf.to_float(x)", "tf.cast(x, dtype=tf.float32)")
    assert found == ["5:5 TFM616", "7:26 TFM652"]


@pytest.mark.parametrize("kind", ["assignment", "tuple target", "del", "walrus"])
def test_the_tree_is_only_read(kind):
    """Every later reader of the same tree (assignment aliases, the splice path) must find it as parsed."""
    tree = ast.parse(HEAD + REBINDINGS[kind] + USE + "tf1 = tf.compat.v1\n")
    dumped = ast.dump(tree)
    imports = ImportMap.from_ast(tree)
    assert ast.dump(tree) == dumped and imports.bindings["tf1"].assigned
