"""Where the loss of a replica function is computed: the calls the loss-scaling rules may touch.

Walks only the replica functions found by `analysis`, so nothing outside `strategy.run` is judged.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.imports import dotted

MEANS = {"tf.reduce_mean", "tf.math.reduce_mean"}
ADD_N = {"tf.add_n", "tf.math.add_n"}
AVERAGE = {"tf.nn.compute_average_loss"}
SCALE_REG = {"tf.nn.scale_regularization_loss"}


def _is_loss_name(target) -> bool:
    return isinstance(target, cst.Name) and "loss" in target.value.lower()


class LossSites(cst.CSTVisitor):
    """Collects, inside one replica function, the calls that compute its loss."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.mean_calls: set = set()  # tf.reduce_mean(x) that *is* the loss
        self.regularization: set = set()  # sum(model.losses) not yet scaled
        self.gradient_targets: set = set()  # names passed first to tape.gradient
        self.averaged_names: set = set()  # names passed first to compute_average_loss
        self.averaged_calls: set = set()  # calls passed first to compute_average_loss
        self.assigned_calls: dict = {}  # id(call) -> target name, for `t = f(...)`
        self.returned_calls: set = set()
        self._scaled_depth = 0

    def _canonical(self, func) -> str:
        return self.ctx.imports.canonical(func) or ""

    def visit_Return(self, node: cst.Return) -> None:
        if isinstance(node.value, cst.Call):
            self.returned_calls.add(id(node.value))
            if self._is_plain_mean(node.value):
                self.mean_calls.add(id(node.value))

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.value, cst.Call):
            target = node.targets[0].target
            if isinstance(target, cst.Name):
                self.assigned_calls[id(node.value)] = target.value
            if _is_loss_name(target) and self._is_plain_mean(node.value):
                self.mean_calls.add(id(node.value))

    def visit_Call(self, node: cst.Call) -> None:
        canonical = self._canonical(node.func)
        first = node.args[0].value if node.args else None
        if isinstance(node.func, cst.Attribute) and node.func.attr.value == "gradient" and isinstance(first, cst.Name):
            self.gradient_targets.add(first.value)
        if canonical in AVERAGE and isinstance(first, cst.Name):
            self.averaged_names.add(first.value)
        elif canonical in AVERAGE and isinstance(first, cst.Call):
            self.averaged_calls.add(id(first))
        if canonical in SCALE_REG:
            self._scaled_depth += 1
        elif self._scaled_depth == 0 and self._sums_layer_losses(node, canonical):
            self.regularization.add(id(node))

    def leave_Call(self, node: cst.Call) -> None:
        if self._canonical(node.func) in SCALE_REG:
            self._scaled_depth -= 1

    def visit_FunctionDef(self, node) -> bool:
        return False  # nested functions are replica functions of their own, or not

    def _is_plain_mean(self, call: cst.Call) -> bool:
        return (self._canonical(call.func) in MEANS and len(call.args) == 1
                and call.args[0].keyword is None and not call.args[0].star)

    def _sums_layer_losses(self, call: cst.Call, canonical: str) -> bool:
        is_sum = canonical in ADD_N or (isinstance(call.func, cst.Name) and call.func.value == "sum"
                                        and not self.ctx.imports.is_module_alias("sum"))
        if not is_sum or len(call.args) != 1:
            return False
        arg = call.args[0].value
        return isinstance(arg, cst.Attribute) and arg.attr.value == "losses" and dotted(arg) is not None
