"""Calls and attributes are placed from Python's `ast` instead of LibCST's whole-module position pass;
the two must agree on every call and attribute of real code (nested, chained, decorated, in f-strings,
after non-ASCII, beside dotted imports)."""
from __future__ import annotations

import ast

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from tf2migrate.engine.positions import Positions
from tests.conftest import ROOT

TRICKY = '''\
# -*- coding: utf-8 -*-
"""Ünïcödé docstring: f(x)."""
import tensorflow as tf


@tf.function(jit_compile=True)
def step(x, name="é"): return f(g(x))(h(x)).k(l()) + tf.nn.relu(x)


label = f"{ratio(a, b)!r:>{width(c)}} é {tf.reduce_mean(x)}"
values = [m(n) for n in range(3) if p(n)]
chained = (tf.data.Dataset.range(8)
           .map(lambda x: x * 2)
           .batch(4))
'''

# LibCST spells dotted import names with Attributes, `ast` with strings: they must not shift the numbering
IMPORTS = ("import tensorflow.compat.v1 as tf\nfrom tensorflow.contrib import layers as contrib_layers\n"
           "x = tf.layers.dense(a.b, 3)\nimport os.path\n@tf.function\ndef f(y: np.ndarray): return os.path.join(y.z)\n")

# a form feed (some old files separate sections with one) is no line break to Python, but is to str.splitlines
FORM_FEED = "import tensorflow as tf\n\x0c\nx = 1; y = f(g(2))\n\x0c# page two\nz = h(3)\n"

SOURCES = [TRICKY, IMPORTS, FORM_FEED] + [p.read_text(encoding="utf-8") for p in sorted((ROOT / "fixtures").glob("*/*.before.py"))[:12]]


class _All(cst.CSTVisitor):
    """Every call, or every attribute outside import statements (LibCST's `import a.b` has one, `ast`'s not)."""

    def __init__(self, kind) -> None:
        self.kind, self.found = kind, []

    def visit_Import(self, node) -> bool:
        return self.kind is cst.Call

    def visit_ImportFrom(self, node) -> bool:
        return self.kind is cst.Call

    def on_visit(self, node) -> bool:
        if isinstance(node, self.kind):
            self.found.append(node)
        return super().on_visit(node)


@pytest.mark.parametrize("kind, place", [(cst.Call, "_from_ast"), (cst.Attribute, "_attribute_from_ast")],
                         ids=["calls", "attributes"])
@pytest.mark.parametrize("source", SOURCES, ids=range(len(SOURCES)))
def test_ast_placement_matches_libcst(source, kind, place):
    module = cst.parse_module(source)
    truth = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = Positions(module, ast.parse(source), source)
    visitor = _All(kind)
    module.visit(visitor)
    if not visitor.found:
        assert kind is cst.Attribute, "every source has calls"
        pytest.skip("no attribute outside imports in this source")
    for node in reversed(visitor.found):  # asked out of order, before any traversal numbered them
        found = getattr(positions, place)(node)
        assert found is not None
        expected = truth[node]
        assert (found.line, found.col, found.end_line) == (
            expected.start.line, expected.start.column + 1, expected.end.line)


def test_attribute_of_an_import_is_left_to_libcst():
    source = "import tensorflow.compat.v1 as tf\nx = tf.layers\n"
    module = cst.parse_module(source)
    positions = Positions(module, ast.parse(source), source)
    dotted_import = module.body[0].body[0].names[0].name
    assert isinstance(dotted_import, cst.Attribute)
    assert positions._attribute_from_ast(dotted_import) is None
    assert positions.place(dotted_import).line == 1  # still placed, by PositionProvider
