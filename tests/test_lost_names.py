"""The check before writing (engine/lost_names.py, TFM617): a rewrite that takes away a name's import while the
code still reads it is reported, and the file is left byte-identical."""
from __future__ import annotations

import ast

from tf2migrate.engine import imports, lost_names
from tf2migrate.engine.context import Selection
from tf2migrate.engine.process import Mode, Status, precheck, transform
from tf2migrate.rules.wake_words import triggers

REBOUND = ("import tensorflow as tf\nfrom tensorflow import to_float\n\n\ndef wrap(f):\n    return f\n\n\n"
           "to_float = wrap(to_float)\nx = to_float(3)\n")


def _lost(before: str, after: str):
    return lost_names.lost_read(ast.parse(before), before, after)


def test_a_repointed_import_still_read_before_its_rebinding():
    after = REBOUND.replace("from tensorflow import to_float", "from tensorflow import cast")
    line, col, message = _lost(REBOUND, after)
    assert (line, col) == (2, 1) and "`to_float`" in message


def test_a_removed_import_still_read_in_a_function():
    before = "import numpy as np\nimport os\n\n\ndef f():\n    return np.zeros(os.sep)\n"
    after = before.replace("import numpy as np\n", "")
    assert _lost(before, after)[:2] == (1, 1)


def test_what_is_still_bound_is_not_lost():
    before = "import os\nfrom tensorflow import to_float\n\nx = to_float(1)\n"
    assert _lost(before, before.replace("import to_float", "import cast").replace("to_float(1)", "cast(1)")) is None
    rebound_first = "from numpy import to_float\nto_float = 3\nx = to_float\n"
    assert _lost(rebound_first, rebound_first.replace("from numpy import to_float\n", "")) is None
    local = "import os\n\n\ndef f(os):\n    return os\n"
    assert _lost(local, local.replace("import os\n", "")) is None
    builtin = "from six.moves import range\nx = range(3)\n"
    assert _lost(builtin, builtin.replace("from six.moves import range\n", "")) is None
    star = "import os\nfrom x import *\ny = os\n"
    assert _lost(star, star.replace("import os\n", "")) is None


def test_unchanged_import_statements_are_not_parsed_again(monkeypatch):
    monkeypatch.setattr(ast, "parse", lambda *a, **k: (_ for _ in ()).throw(AssertionError("parsed")))
    before = "import tensorflow as tf\nfrom tensorflow.compat.v1 import (\n    Session,\n)\nx = tf.to_float(1)\n"
    after = before.replace("tf.to_float(1)", "tf.cast(1, dtype=tf.float32)")
    assert lost_names.lost_read(None, before, after) is None
    assert lost_names.imports_changed(before, before.replace("    Session,", "    Graph,"))
    assert lost_names.imports_changed("import a, \\\n  b\n", "import a, \\\n  c\n")


def test_the_file_is_reported_and_left_as_it_was(tmp_path, monkeypatch):
    """With the rebinding left out of the import map (the bug this check is the net for), the rewrite re-pointed
    `from tensorflow import to_float` to `cast` while `to_float = wrap(to_float)` still read it."""
    monkeypatch.setattr(imports, "rebound", lambda tree, names: {})
    path = tmp_path / "a.py"
    path.write_text(REBOUND)
    data = path.read_bytes()
    src, done = precheck(str(path), data, triggers())
    assert done is None
    result = transform(str(path), data, src, Mode.WRITE, Selection())
    assert result.status is Status.FAILED
    assert [(d.line, d.col, d.code) for d in result.diagnostics] == [(2, 1, "TFM617")]
    assert path.read_bytes() == data
