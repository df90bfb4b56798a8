"""The shared `ast` index (engine/ast_index.py): the nodes `ast.walk` gives, and a tree that goes with its file."""
from __future__ import annotations

import ast
import gc
import warnings
from pathlib import Path

import pytest

from tf2migrate.engine import ast_index
from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.context import Context
from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.selection import Selection
from tf2migrate.engine.suppress import parse_suppressions

ROOT = Path(__file__).resolve().parent.parent
SHARED = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)  # singletons: never indexed
ODD = """\
def f(a, /, b=1, *c, d, e=2, **g) -> int:
    x = {**a, 'k': b, **c}
    match x:
        case {'k': [1, *rest]} | Point(x=0, y=_) if rest: pass
        case str() as s: pass
    async def h():
        async with a as (p, q), b: await p
        async for i in q: yield i
    return lambda y=not a: -y @ b ** 2 if a < b <= c else f'{a!r:>{b}}'
try:
    pass
except* ValueError as exc:
    del exc
global_name: int = 0
"""


def _texts():
    yield "odd", ODD
    for path in sorted((ROOT / "fixtures").rglob("*.py"))[:400]:
        yield str(path.relative_to(ROOT)), path.read_text("utf-8", "replace")


def _walked(tree) -> dict:
    found: dict = {}
    for node in ast.walk(tree):
        if not isinstance(node, SHARED):
            found.setdefault(type(node), []).append(node)
    return found


def test_every_class_is_indexed_in_ast_walk_order():
    checked = 0
    for name, text in _texts():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                tree = ast.parse(text)
            except SyntaxError:
                continue
        expected = _walked(tree)
        for kind, found in expected.items():
            assert nodes(tree, kind) == found, (name, kind.__name__)
        kinds = list(expected)[:4]
        assert nodes(tree, *kinds) == [n for kind in kinds for n in expected[kind]], name
        for fn in nodes(tree, ast.FunctionDef)[:3]:  # a subtree has its own index, its root first
            assert nodes(fn, ast.FunctionDef) == [n for n in ast.walk(fn) if isinstance(n, ast.FunctionDef)]
        checked += 1
    assert checked > 50


def test_a_class_whose_signature_cannot_be_read_is_walked_field_by_field(monkeypatch):
    monkeypatch.setattr(ast_index, "_SIGNATURE", __import__("re").compile(r"(?!)"))  # no signature matches
    monkeypatch.setattr(ast_index, "_CHILDREN", {})
    tree = ast.parse(ODD)
    for kind, found in _walked(tree).items():
        assert nodes(tree, kind) == found, kind.__name__


@pytest.mark.parametrize("facts", [False, True])
def test_an_indexed_tree_is_freed_without_the_cyclic_collector(facts):
    """The index (and the context's facts) must hold no cycle through the tree: a cycle keeps every node of the
    file until the collector scans it, again and again (the pre-pass of tensor2tensor spent a fifth of its time so)."""
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        tree = ast.parse(ODD + "import tensorflow as tf\nm = tf.keras.metrics.Mean()\n")
        nodes(tree, ast.Name)
        if facts:
            ctx = Context(path="x.py", imports=ImportMap.from_ast(tree), positions=None, text=ODD,
                          suppressions=parse_suppressions(ODD), selection=Selection(), emit=None, infos={}, tree=tree)
            assert ctx.facts.made_by == {"m": {"tf.keras.metrics.Mean"}}
            del ctx
        del tree
        assert gc.collect() == 0
    finally:
        if collecting:
            gc.enable()
