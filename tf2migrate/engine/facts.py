"""What a module says about its own names: `x = tf.keras.metrics.Mean()` makes `x` a Keras metric.

Rules use these facts as proofs before touching a method call whose name alone is ambiguous
(`reset_states`, `unwrap`). Collected once per module, on first use.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.imports import dotted


class _Assignments(cst.CSTVisitor):
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.made_by: dict = {}  # dotted target -> set of canonical callee names

    def _record(self, target, value) -> None:
        name = dotted(target)
        if name is None or not isinstance(value, cst.Call):
            return
        _, canonical = self.ctx.imports.resolve(value.func)
        if canonical:
            self.made_by.setdefault(name, set()).add(canonical)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._record(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._record(node.target, node.value)


class Facts:
    def __init__(self, ctx, module: cst.Module) -> None:
        collector = _Assignments(ctx)
        module.visit(collector)
        self.made_by = collector.made_by

    def made_by_any(self, expr: cst.BaseExpression, predicate, ctx) -> bool:
        """True if `expr` is, or names something assigned from, a call to a matching TF symbol."""
        if isinstance(expr, cst.Call):
            _, canonical = ctx.resolve(expr.func)
            return bool(canonical) and predicate(canonical)
        name = dotted(expr)
        return name is not None and any(predicate(c) for c in self.made_by.get(name, ()))


# Words one of which a module must contain to build or fetch a strategy (for the cheap pre-pass).
STRATEGY_WORDS = {
    "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "TPUStrategy",
    "ParameterServerStrategy", "CentralStorageStrategy", "CollectiveAllReduceStrategy", "get_strategy",
    "experimental_run_v2", "call_for_each_replica",
}


def is_strategy(canonical: str) -> bool:
    return canonical.endswith("Strategy") or canonical in (
        "tf.distribute.get_strategy",
        "tf.distribute.experimental.get_strategy",
    )


def is_keras_metric(canonical: str) -> bool:
    return canonical.startswith("tf.keras.metrics.") or canonical.startswith("keras.metrics.")
