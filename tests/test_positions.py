"""Calls are placed from Python's `ast` instead of LibCST's whole-module position pass; the two
must agree on every call of real code (nested, chained, decorated, in f-strings, after non-ASCII)."""
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

# a form feed (some old files separate sections with one) is no line break to Python, but is to str.splitlines
FORM_FEED = "import tensorflow as tf\n\x0c\nx = 1; y = f(g(2))\n\x0c# page two\nz = h(3)\n"

SOURCES = [TRICKY, FORM_FEED] + [p.read_text(encoding="utf-8") for p in sorted((ROOT / "fixtures").glob("*/*.before.py"))[:12]]


class _AllCalls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.calls = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)


@pytest.mark.parametrize("source", SOURCES, ids=range(len(SOURCES)))
def test_ast_placement_matches_libcst(source):
    module = cst.parse_module(source)
    truth = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    positions = Positions(module, ast.parse(source), source)
    visitor = _AllCalls()
    module.visit(visitor)
    assert visitor.calls
    for node in reversed(visitor.calls):  # asked out of order, before any traversal numbered them
        place = positions._from_ast(node)
        assert place is not None
        expected = truth[node]
        assert (place.line, place.col, place.end_line) == (
            expected.start.line, expected.start.column + 1, expected.end.line)
