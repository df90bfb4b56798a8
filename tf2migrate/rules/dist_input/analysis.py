"""What a module does with `tf.data` under a strategy: distributed datasets, input functions, and
whether it is a multi-worker program. Shared by the TFM5xx lints; built once per module."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.facts import is_strategy

DISTRIBUTE = {"experimental_distribute_dataset"}
FROM_FUNCTION = {"distribute_datasets_from_function", "experimental_distribute_datasets_from_function"}
MULTI_WORKER = ("MultiWorkerMirroredStrategy", "ParameterServerStrategy", "TPUStrategy",
                "CollectiveAllReduceStrategy", "TFConfigClusterResolver")


class _Scan(cst.CSTVisitor):
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.defs: dict = {}
        self.dist_names: set = set()
        self.input_fns: list = []  # FunctionDef or Lambda nodes given to *_from_function
        self.input_fn_names: set = set()
        self.distributes = False
        self.multi_worker = False
        self.replicas = None  # replica count of a MirroredStrategy with a literal device list

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.defs.setdefault(node.name.value, []).append(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            if value.func.attr.value in DISTRIBUTE | FROM_FUNCTION:
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        self.dist_names.add(target.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        if name in DISTRIBUTE | FROM_FUNCTION:
            self.distributes = True
        if name in FROM_FUNCTION and node.args:
            first = node.args[0].value
            if isinstance(first, cst.Lambda):
                self.input_fns.append(first)
            elif isinstance(first, cst.Name):
                self.input_fn_names.add(first.value)
        canonical = self.ctx.imports.canonical(func)
        if canonical and canonical.endswith(MULTI_WORKER):
            self.multi_worker = True
        if canonical and canonical.endswith("MirroredStrategy") and is_strategy(canonical):
            self.replicas = _device_count(node) or self.replicas

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if "TF_CONFIG" in node.value:
            self.multi_worker = True


def _device_count(call: cst.Call):
    for i, arg in enumerate(call.args):
        if (arg.keyword is not None and arg.keyword.value == "devices") or (arg.keyword is None and i == 0):
            if isinstance(arg.value, (cst.List, cst.Tuple)):
                return len(arg.value.elements)
    return None


class InputFacts:
    def __init__(self, ctx, module: cst.Module) -> None:
        scan = _Scan(ctx)
        module.visit(scan)
        self.dist_names = scan.dist_names
        self.distributes = scan.distributes
        self.multi_worker = scan.multi_worker
        self.replicas = scan.replicas
        self.defs = scan.defs
        self.input_fns = scan.input_fns + [fn for n in scan.input_fn_names for fn in scan.defs.get(n, ())]


def input_facts(ctx) -> InputFacts:
    if "input" not in ctx.memo:
        ctx.memo["input"] = InputFacts(ctx, ctx.module)
    return ctx.memo["input"]


def method_chain(expr) -> list:
    """`ds.map(f).batch(8).shard(2, 0)` -> [("map", call), ("batch", call), ("shard", call)], innermost first."""
    chain = []
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
        chain.append((expr.func.attr.value, expr))
        expr = expr.func.value
    return list(reversed(chain))

