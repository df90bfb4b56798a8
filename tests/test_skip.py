"""Stepping over statements no rule can act in (engine/skip.py) must never change an answer.

Every fixture and every program pair's original is rewritten twice, with and without stepping over, and
the code and the diagnostics must be the same; a few shapes check what is and is not stepped over.
"""
from __future__ import annotations

import ast

import libcst as cst
import pytest

from tf2migrate.engine import skip
from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.imports import ImportMap
from tf2migrate.rules.wake_words import triggers
from tests.conftest import ROOT

# every file of a program pair: scripts, and the files of package pairs (original/trainer/task.py, ...)
SOURCES = sorted([*(ROOT / "fixtures").glob("*/*.before.py"), *(ROOT / "fixtures" / "programs").glob("*/**/*.py")])


def _answer(text, path):
    result = rewrite_text(text, path)
    return result.code, [(d.line, d.col, d.code, d.message, d.fixed) for d in result.diagnostics]


def _id(path):
    """`seed_estimator/original.py`; in a package pair `custom_loop_package/original/pkg/task.py`."""
    programs = ROOT / "fixtures" / "programs"
    return str(path.relative_to(programs)) if programs in path.parents else f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", SOURCES, ids=_id)
def test_stepping_over_changes_no_answer(path, monkeypatch):
    text = path.read_text(encoding="utf-8")
    stepped = _answer(text, str(path))
    monkeypatch.setattr(skip, "quiet_statements", lambda *args: {})
    assert _answer(text, str(path)) == stepped


def _quiet_lines(text):
    """First line of each statement that would be stepped over."""
    module, tree = cst.parse_module(text), ast.parse(text)
    imports = ImportMap.from_ast(tree)
    words = triggers()
    quiet = skip.quiet_statements(module, tree, skip.hit_lines(text, words.regex(),
                                  skip.trigger_aliases(imports, words.symbols, words.modules)))
    lines = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            lines.setdefault(node.lineno, node)
    found = []

    class Find(cst.CSTVisitor):
        def on_visit(self, node):
            if id(node) in quiet:
                found.append(cst.Module([]).code_for_node(node).strip().splitlines()[0])
            return True

    module.visit(Find())
    return found, quiet


SHAPES = '''\
import tensorflow as tf
from tensorflow.compat.v1 import fixed_size_partitioner as fsp

x = 1; y = 2


@decorate(tf.fill(1))
def quiet(a):
    return tf.abs(a)


class Model:
    def loud(self, strategy):
        return strategy.experimental_run_v2(self.step)

    def step(self):
        return fsp(3)

    def also_quiet(self):
        return [tf.fill(2, 0) for _ in range(3)]
'''


def test_statements_without_rule_words_are_stepped_over_and_counted():
    found, quiet = _quiet_lines(SHAPES)
    assert found == ["import tensorflow as tf", "x = 1; y = 2", "@decorate(tf.fill(1))", "def also_quiet(self):"]
    counts = sorted((q.functions, q.calls) for q in quiet.values())
    assert counts == [(0, 0), (0, 0), (1, 2), (1, 3)]     # defs and calls inside, decorators included


def test_old_mac_line_endings_count_as_lines():
    text = "import tensorflow as tf\rx = 1\rdef f(strategy):\r    return strategy.experimental_run_v2(g)\r"
    found, _ = _quiet_lines(text)
    assert "def f(strategy):" not in found          # its rule word is on its own (CR-ended) line
    assert "strategy.run(g)" in rewrite_text(text).code


def test_an_alias_of_a_rule_word_keeps_its_statement():
    found, _ = _quiet_lines(SHAPES)
    assert "def step(self):" not in found          # `fsp` is fixed_size_partitioner under another name
    result = rewrite_text(SHAPES)
    assert "FixedShardsPartitioner(3)" in result.code and "strategy.run(self.step)" in result.code
