"""The output generated only for the statements a rule changed (engine/splice.py) is LibCST's own output.

Every fixture and program is rewritten with `module_code` checked against `updated.code` (LibCST generating
the whole module), and a few shapes where the cut between two statements is easy to get wrong are
rewritten both ways: comments and blank lines between statements and at the end of a block, decorators
with comments between them, CRLF line endings, a file without a final newline, semicolons.
"""
from __future__ import annotations

import pytest

from tf2migrate.engine import import_edit, splice
from tf2migrate.engine.api import rewrite_text
from tests.conftest import ROOT

SOURCES = sorted([*(ROOT / "fixtures").glob("*/*.before.py"), *(ROOT / "fixtures" / "programs").glob("*/**/*.py")])

SHAPES = {
    "comments_between": "# head\n\nimport tensorflow as tf\n\n\n# about f\ndef f():\n    x = tf.log(1.0)\n"
                        "    # the end of f's block\n\n# about g\n\ndef g():\n    return tf.log(2.0)\n\n# tail\n",
    "decorators": "import tensorflow as tf\n\n\n@tf.function\n# between\n@ other  (1)\ndef f(x):\n"
                  "    return tf.log(x)\n\n\n@tf.function\ndef g(x):\n    return x\n",
    "crlf": "import tensorflow as tf\r\n\r\nx = tf.log(1.0)\r\n# c\r\ny = 2\r\nz = tf.log(3.0)\r\n",
    "no_final_newline": "import tensorflow as tf\nx = tf.log(1.0)\ny = 2",
    "semicolons": "import tensorflow as tf\na = 1; b = tf.log(a)\nc = 3\n",
    "class_body": "import tensorflow as tf\n\n\nclass A:\n    '''doc'''\n\n    def f(self):\n"
                  "        return tf.log(1.0)\n\n    # end of A\n\n\nclass B:\n    pass\n",
    "new_import": "from tensorflow import Session, log as lg\n\n\ns = Session()\ny = lg(x)\n",
}


@pytest.fixture
def checked(monkeypatch):
    real, seen = splice.module_code, []

    def both(original, updated, tree, text):
        got = real(original, updated, tree, text)
        assert got == updated.code
        seen.append(1)
        return got

    monkeypatch.setattr(import_edit, "module_code", both)
    return seen


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_spliced_code_is_libcsts(path, checked):
    rewrite_text(path.read_text(encoding="utf-8"), str(path), splice=False)  # LibCST's path


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_spliced_code_is_libcsts_where_cuts_are_hard(name, checked):
    from tf2migrate.engine.selection import Selection

    result = rewrite_text(SHAPES[name], name, Selection(source="tf1"), splice=False)
    assert result.code != SHAPES[name] and checked  # a rewrite, and spliced
