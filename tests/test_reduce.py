"""LibCST given only the statements a rule may act in (engine/reduce.py) rewrites exactly as with the whole text.

Every fixture and program is rewritten both ways and the code and diagnostics compared, and so are shapes
where a placeholder is easy to get wrong: decorators, comments and blank lines between and after the
statements left out, CRLF and lone-CR line endings, tabs, a file without a final newline, semicolons,
non-ASCII text, nested classes, a module docstring, statements after a `return`.
"""
from __future__ import annotations

import ast
import re

import pytest

from tf2migrate.engine import apply, reduce as reduce_text
from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.selection import Selection
from tests.conftest import ROOT

SOURCES = sorted([*(ROOT / "fixtures").glob("*/*.before.py"), *(ROOT / "fixtures" / "programs").glob("*/**/*.py")])

_FILLER = "".join(f"    v{i} = compute({i})  # é {i}\n" for i in range(6))
SHAPES = {
    "functions": "import tensorflow as tf\n\n\ndef quiet():\n" + _FILLER + "    return v0\n\n\n"
                 "def loud():\n" + _FILLER + "    return tf.log(v0)\n\n\n# after\ndef quiet2():\n" + _FILLER
                 + "    return 1\n",
    "decorators": "import tensorflow as tf\n\n\n@other\n# between\n@ other  (1)\ndef f(x):\n" + _FILLER
                  + "    return x\n\n\n@tf.function\ndef g(x):\n    return tf.log(x)\n",
    "class_body": "'''Module doc.'''\nimport tensorflow as tf\n\n\nclass A:\n    '''doc'''\n\n    def f(self):\n"
                  + _FILLER.replace("    ", "        ") + "        return 1\n\n    def g(self):\n"
                  "        return tf.log(1.0)\n\n    class B:\n        x = 1\n        y = 2\n        z = 3\n"
                  "        w = 4\n\n    # end of A\n",
    "crlf": ("import tensorflow as tf\n\n\ndef quiet():\n" + _FILLER + "    return 1\n\nz = tf.log(3.0)\n")
            .replace("\n", "\r\n"),
    "lone_cr": ("import tensorflow as tf\n\n\ndef quiet():\n" + _FILLER + "    return 1\n\nz = tf.log(3.0)\n")
               .replace("\n", "\r"),
    "tabs": "import tensorflow as tf\n\n\ndef quiet():\n" + _FILLER.replace("    ", "\t") + "\treturn 1\n\n"
            "def loud():\n\tx = 1\n\treturn tf.log(x)\n",
    "no_final_newline": "import tensorflow as tf\n\n\ndef quiet():\n" + _FILLER + "    return 1\nx = tf.log(1.0)",
    "semicolons": "import tensorflow as tf\n\n\ndef f():\n    a = 1; b = 2\n" + _FILLER + "    c = 3; d = 4\n"
                  "    return tf.log(a)\n",
    "trailing_comments": "import tensorflow as tf\n\n\ndef f():\n" + _FILLER + "    # a comment at the end\n\n"
                         "        # deeper\nx = tf.log(1.0)  # here\n",
    "new_import": "from tensorflow import Session, log as lg\n\n\ndef quiet():\n" + _FILLER
                  + "    return 1\n\n\ns = Session()\ny = lg(x)\n",
    "shadowing": "import tensorflow as tf\n\n\ndef f():\n    tf = helper()\n" + _FILLER
                 + "    return tf.log(1.0)\n\n\ndef g():\n    return tf.log(1.0)\n",
    "blocks": "import tensorflow as tf\n\nif flag:\n" + _FILLER + "    x = tf.log(1.0)\nelse:\n" + _FILLER
              + "for i in range(3):\n" + _FILLER + "try:\n" + _FILLER + "    y = tf.log(2.0)\nexcept E:\n    pass\n",
    "mixed_breaks": "import tensorflow as tf\na = 1\rb = 2\nc = 3\r\nd = 4\n\ndef f():\n" + _FILLER
                    + "    return tf.log(1.0)  # tf2migrate: skip\rx = tf.log(1.0)\n",
    "raw_cr_in_string": "import tensorflow as tf\ns = '''a\rb\nc'''\n" + _FILLER.replace("    ", "")
                        + "x = tf.log(1.0)\n",
    "strings": "import tensorflow as tf\n\n\ndef f():\n    s = '''\n    tf.log(1.0)\n'''\n" + _FILLER
               + "    return tf.log(s)\n",
}


def _both(text: str, path: str, selection=None) -> tuple:
    tree = ast.parse(text)
    whole = rewrite_text(text, path, selection, tree=tree, reduce=False, splice=False)
    reduced = rewrite_text(text, path, selection, tree=ast.parse(text), splice=False)
    return whole, reduced


def _same(whole, reduced) -> None:
    assert reduced.code == whole.code
    assert [str(d) for d in reduced.diagnostics] == [str(d) for d in whole.diagnostics]


@pytest.fixture(autouse=True)
def no_fallback():
    """A reduced rewrite that raised ran again on the whole text (apply.FALLBACKS): the answers would agree
    while the reduction hid a fault, so none may happen here."""
    before = sum(apply.FALLBACKS.values())
    yield
    assert sum(apply.FALLBACKS.values()) == before, dict(apply.FALLBACKS)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_reduced_rewrite_is_the_whole_one(path):
    _same(*_both(path.read_text(encoding="utf-8"), str(path)))


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_reduced_rewrite_is_the_whole_one_where_placeholders_are_hard(name, monkeypatch):
    made = []
    real = reduce_text.reduce

    def counted(*args):
        found = real(*args)
        made.append(found)
        return found

    monkeypatch.setattr(reduce_text, "reduce", counted)
    whole, reduced = _both(SHAPES[name], name, Selection(source="tf1"))
    _same(whole, reduced)
    assert reduced.code != SHAPES[name]  # a rewrite
    assert any(found is not None for found in made)  # and a reduced one
    compile(reduced.code, name, "exec")


def test_placeholders_keep_every_line_and_come_back():
    text = SHAPES["functions"]
    tree = ast.parse(text)
    hits = apply._hits(tree, text, apply.ImportMap.from_ast(tree), "tf1")
    reduced = reduce_text.reduce(text, tree, hits)
    assert reduced is not None and len(reduced.pieces) == 3  # quiet(), quiet2() and loud()'s first lines
    assert "    return tf.log(v0)\n" in reduced.text and "def loud():" in reduced.text
    assert reduced.text.count("\n") == text.count("\n")
    assert reduced.restore(reduced.text) == text
    moved = reduced.text.replace("+'''tf2migrate-quiet:0", "    +'''tf2migrate-quiet:0")
    with pytest.raises(reduce_text.Unreduced):
        reduced.restore(moved)


def test_a_long_statement_of_few_lines_is_left_out():
    """A generated table on one line (0.7 MB) was parsed by LibCST whole: fewer than MIN_LINES lines."""
    table = "DATA = [" + ", ".join(str(i) for i in range(1000)) + "]\n"
    text = "import tensorflow as tf\n" + table + "x = tf.log(1.0)\n"
    tree = ast.parse(text)
    reduced = reduce_text.reduce(text, tree, [1, 3])
    assert reduced is not None and reduced.text.splitlines()[1].startswith(reduce_text.MARK)
    assert reduced.restore(reduced.text) == text
    _same(*_both(text, "table.py", Selection(source="tf1")))


def test_a_text_whose_lines_would_move_is_not_reduced():
    """Line breaks are kept apart in a placeholder (a lone \\r then a \\n would read as one CRLF), and a reduced
    text whose lines do not all keep their number and text is not used."""
    text = "import tensorflow as tf\na = 1\rb = 2\nc = 3\nd = 4\nx = tf.log(1.0)\n"
    tree = ast.parse(text)
    reduced = reduce_text.reduce(text, tree, [1, 6])
    assert reduced is not None and reduced.text.splitlines()[-1] == "x = tf.log(1.0)"
    assert len(reduce_text.NEWLINE.findall(reduced.text)) == len(reduce_text.NEWLINE.findall(text))
    merged = text.replace("1\rb = 2\n", "1\r\n")  # what "\r" + "\n" side by side did: a line fewer
    assert not reduce_text._same_other_lines(text, merged, [(2, 5, "")])
    assert not reduce_text._same_other_lines(text, text.replace("x = tf.log", "x = tf.exp"), [(2, 5, "")])


def test_a_file_that_spells_the_marker_is_not_reduced():
    text = SHAPES["functions"].replace("return 1", "return \"+'''tf2migrate-quiet:0\"")
    tree = ast.parse(text)
    assert reduce_text.reduce(text, tree, []) is None
    _same(*_both(text, "marker.py", Selection(source="tf1")))


def test_every_rule_that_reads_the_whole_module_says_so():
    """LibCST parses a reduced text unless a rule says it reads more than the statements it acts in
    (`Plugin.reads_whole_module`). A rule whose package reads `ctx.module` or a module's whole new code must say so,
    or be listed here with the reason it may not."""
    import inspect
    from pathlib import Path

    from tf2migrate.rules.base import Plugin
    from tf2migrate.rules.registry import CODE_RULES

    reads = re.compile(r"ctx\.module\b|\b(?:updated|original)\.code\b")
    excused = {
        "Unconverted": "reads `updated.code` only after an Estimator conversion (TFM301), and the converter opts out",
    }
    flagged = set()
    for cls in CODE_RULES:
        path = Path(inspect.getsourcefile(cls))
        sources = path.parent.rglob("*.py") if path.parent.name != "rules" else [path]
        if any(reads.search(p.read_text(encoding="utf-8")) for p in sources):
            flagged.add(cls)
    offenders = [cls.__name__ for cls in flagged
                 if cls.__name__ not in excused and cls.reads_whole_module is Plugin.reads_whole_module]
    assert offenders == []
    # the scan finds the rules known to read the whole module: it can fail
    assert {"EstimatorToKeras", "LossScaling", "OutsideScope", "DistributedInput", "KerasTarget", "Unconverted"} <= {
        cls.__name__ for cls in flagged}
