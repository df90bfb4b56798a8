"""What a custom-loop module does with its strategy: which functions run on every replica, and
which name holds the global batch size.

A replica function is one passed to `strategy.run` / `experimental_run_v2` (or
`extended.call_for_each_replica`), plus every function of the same module it calls, transitively:
seed 004's `train_step` calls `loss_function`, which holds the `tf.reduce_mean`.
"""
from __future__ import annotations

import ast
import re

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.emit import source
from tf2migrate.engine.facts import is_strategy
from tf2migrate.engine.imports import ast_dotted
from tf2migrate.rules.custom_loops.loss_sites import LossSites
from tf2migrate.rules.idle import RUN_CALL

RUN_METHODS = {"run", "experimental_run_v2", "call_for_each_replica"}
_GLOBAL = re.compile(r"global.*batch|batch.*global", re.IGNORECASE)


class _Scan(cst.CSTVisitor):
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.defs: dict = {}  # name -> [FunctionDef]
        self.run_targets: set = set()  # names of functions given to strategy.run
        self.calls_in: dict = {}  # FunctionDef -> set of called simple names
        self.global_batch_candidates: list = []  # (priority, name)
        self.loss_objects: dict = {}  # name -> constructor Call of a Keras loss with default reduction
        self._stack: list = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.defs.setdefault(node.name.value, []).append(node)
        self._stack.append(node)
        self.calls_in[node] = set()

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._stack.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if self._stack and isinstance(node.func, cst.Name):
            self.calls_in[self._stack[-1]].add(node.func.value)
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in RUN_METHODS and node.args:
            if self._is_strategy_call(func):
                first = node.args[0].value
                if isinstance(first, cst.Name):
                    self.run_targets.add(first.value)

    def _is_strategy_call(self, func: cst.Attribute) -> bool:
        if func.attr.value == "experimental_run_v2":
            return True
        receiver = func.value
        if isinstance(receiver, cst.Attribute) and receiver.attr.value == "extended":
            receiver = receiver.value
        return self.ctx.facts.made_by_any(receiver, is_strategy)

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
            return
        name = node.targets[0].target.value
        if isinstance(node.value, cst.Call) and _default_reduction_loss(node.value, self.ctx):
            self.loss_objects[name] = node.value
        if isinstance(node.value, cst.BinaryOperation) and "num_replicas_in_sync" in source(node.value):
            self.global_batch_candidates.append((0, name))
        elif _GLOBAL.search(name) and not self._stack:
            self.global_batch_candidates.append((1, name))


def _default_reduction_loss(call: cst.Call, ctx) -> bool:
    """`tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)`: a class, no `reduction=`."""
    if not isinstance(call.func, (cst.Name, cst.Attribute)):
        return False
    canonical = ctx.imports.canonical(call.func) or ""
    if not canonical.startswith("tf.keras.losses.") or not canonical.rsplit(".", 1)[1][:1].isupper():
        return False
    if canonical.endswith(".Reduction"):
        return False
    return not any(a.keyword is not None and a.keyword.value == "reduction" for a in call.args)


class LoopFacts:
    def __init__(self, ctx, module: cst.Module) -> None:
        scan = _Scan(ctx)
        module.visit(scan)
        self.replica_fns = self._closure(scan)
        ranked = sorted(scan.global_batch_candidates, key=lambda c: c[0])
        self.global_batch = ranked[0][1] if ranked else None
        self.uses_strategy_run = bool(scan.run_targets)
        self.loss_objects = scan.loss_objects
        self.sites = []  # (FunctionDef, LossSites)
        for fn in self.replica_fns:
            sites = LossSites(ctx)
            fn.body.visit(sites)
            self.sites.append((fn, sites))
        self.mean_calls = set().union(*(s.mean_calls for _, s in self.sites))
        self.regularization = set().union(*(s.regularization for _, s in self.sites))

    @staticmethod
    def _closure(scan: _Scan) -> set:
        todo = [fn for name in scan.run_targets for fn in scan.defs.get(name, ())]
        found: set = set()
        while todo:
            fn = todo.pop()
            if fn in found:
                continue
            found.add(fn)
            for called in scan.calls_in.get(fn, ()):
                todo.extend(scan.defs.get(called, ()))
        return found


_RUN_CALL = RUN_CALL  # the pre-pass reads the same pattern (rules/idle.py)


class _NoLoop:
    """A module that never calls `*.run(...)`: no replica function, nothing to analyse."""

    replica_fns: frozenset = frozenset()
    global_batch = None
    uses_strategy_run = False
    loss_objects: dict = {}
    sites: list = []
    mean_calls: frozenset = frozenset()
    regularization: frozenset = frozenset()


def runs_on_a_strategy(ctx) -> bool:
    """A cheap proof, from the `ast` tree, that some `x.run(f)` is a strategy's (not `sess.run`)."""
    if ctx.text and not _RUN_CALL.search(ctx.text):
        return False
    if ctx.tree is None:
        return True
    for node in nodes(ctx.tree, ast.Call):
        if isinstance(node.func, ast.Attribute) and node.func.attr in RUN_METHODS:
            if node.func.attr == "experimental_run_v2":
                return True
            receiver = node.func.value
            if isinstance(receiver, ast.Attribute) and receiver.attr == "extended":
                receiver = receiver.value
            if isinstance(receiver, ast.Call):
                callee = ctx.imports.ast_canonical(receiver.func)
                if callee and is_strategy(callee):
                    return True
            elif any(is_strategy(c) for c in ctx.facts.made_by.get(ast_dotted(receiver), ())):
                return True
    return False


def loop_facts(ctx) -> LoopFacts:
    """Computed once per module, on first use, and only where a strategy's `run` is called."""
    if "loops" not in ctx.memo:
        ctx.memo["loops"] = LoopFacts(ctx, ctx.module) if runs_on_a_strategy(ctx) else _NoLoop()
    return ctx.memo["loops"]

