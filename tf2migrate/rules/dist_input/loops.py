"""TFM501: `break` or `return` inside `for x in dist_dataset` within a `tf.function`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.dist_input.analysis import input_facts


def _is_tf_function(node: cst.FunctionDef, ctx) -> bool:
    for deco in node.decorators:
        expr = deco.decorator.func if isinstance(deco.decorator, cst.Call) else deco.decorator
        if ctx.imports.canonical(expr) == "tf.function":
            return True
    return False


class _Exits(cst.CSTVisitor):
    """`break`s that leave this loop and every `return`, not counting nested loops' breaks."""

    def __init__(self) -> None:
        self.found: list = []
        self._depth = 0

    def visit_Break(self, node: cst.Break) -> None:
        if self._depth == 0:
            self.found.append(node)

    def visit_Return(self, node: cst.Return) -> None:
        self.found.append(node)

    def visit_For(self, node) -> None:
        self._depth += 1

    def leave_For(self, node) -> None:
        self._depth -= 1

    def visit_While(self, node) -> None:
        self._depth += 1

    def leave_While(self, node) -> None:
        self._depth -= 1

    def visit_FunctionDef(self, node) -> bool:
        return False


class _Loops(cst.CSTVisitor):
    def __init__(self, ctx, dist_names: set, called_with_dist: dict) -> None:
        self.ctx, self.dist_names, self.called_with_dist = ctx, dist_names, called_with_dist
        self.found: list = []
        self._tf_fn: list = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        params = {p.name.value for p in node.params.params}
        dist_params = params & self.called_with_dist.get(node.name.value, set())
        self._tf_fn.append(dist_params if _is_tf_function(node, self.ctx) else None)

    def leave_FunctionDef(self, node) -> None:
        self._tf_fn.pop()

    def visit_For(self, node: cst.For) -> None:
        if not self._tf_fn or self._tf_fn[-1] is None or not isinstance(node.iter, cst.Name):
            return
        if node.iter.value in self.dist_names or node.iter.value in self._tf_fn[-1]:
            exits = _Exits()
            node.body.visit(exits)
            self.found.extend(exits.found)


class _CallsWithDist(cst.CSTVisitor):
    """Which parameters of which functions receive a distributed dataset: `train(dist_ds)`."""

    def __init__(self, dist_names: set, defs: dict) -> None:
        self.dist_names, self.defs = dist_names, defs
        self.params: dict = {}

    def visit_Call(self, node: cst.Call) -> None:
        if not isinstance(node.func, cst.Name) or node.func.value not in self.defs:
            return
        fn = self.defs[node.func.value][0]
        names = [p.name.value for p in fn.params.params]
        for i, arg in enumerate(node.args):
            if isinstance(arg.value, cst.Name) and arg.value.value in self.dist_names:
                name = arg.keyword.value if arg.keyword else (names[i] if i < len(names) else None)
                if name:
                    self.params.setdefault(fn.name.value, set()).add(name)


def find(ctx, module: cst.Module) -> list:
    facts = input_facts(ctx)
    if not facts.distributes:
        return []
    calls = _CallsWithDist(facts.dist_names, facts.defs)
    module.visit(calls)
    loops = _Loops(ctx, facts.dist_names, calls.params)
    module.visit(loops)
    return [(node, "TFM501", None) for node in loops.found]
