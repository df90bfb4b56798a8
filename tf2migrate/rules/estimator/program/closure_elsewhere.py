"""A model_fn closure built by a builder of another module: `model_fn = model.generate_model_fn(...)` (cloudml-samples'
census customestimator). The conversion does not write a builder of another module (imported_model_fn.not_given
says so); when the package is given, the builder is read there so that the finding names what else stands in the way.

The census sample's closure returns `tpu_estimator.TPUEstimatorSpec(...)` to a plain `tf.estimator.Estimator`, which
TF1 itself rejects at its first call of the model_fn (`ValueError: model_fn should return an EstimatorSpec`): the
program never ran as written, so no conversion can keep what it did. That is the cause the finding gives.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import dotted
from tf2migrate.engine.package import imported_modules
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.reading.uses import assignment


def site_index(module, prog, built) -> Optional[int]:
    """The top-level statement `model_fn = module.builder(...)` that makes the closure (its finding covers it)."""
    return next((i for i, stmt in enumerate(module.body) if assignment(stmt)[1] is built), None)


def tpu_spec_to_estimator(prog, ctx, built) -> Optional[str]:
    """Why the closure `built` (a call of another module's builder) cannot run as written under the program's plain
    Estimator: it returns a TPUEstimatorSpec. None when the builder's module is not given or returns no such spec."""
    from tf2migrate.rules.estimator.program.analyze import callee

    if ctx.package is None or callee(prog.call, ctx) != "tf.estimator.Estimator":
        return None
    module, attr = imported_modules(ctx.tree, ctx.package.name).get(dotted(built.func.value), (None, None))
    nb = built_elsewhere.neighbour(ctx, f"{module}.{attr}" if attr else module) if module else None
    builder = nb.defs.get(built.func.attr.value) if nb is not None else None
    inner = _returned_function(builder)
    if inner is None:
        return None
    where = built_elsewhere.shown(ctx, nb.path)
    for node in _returns(inner):
        func = node.value.func if isinstance(node.value, cst.Call) else None
        canonical = nb.ctx.resolve(func)[1] if func is not None else None
        if canonical and canonical.startswith("tf.") and canonical.endswith(".TPUEstimatorSpec"):
            return (f"the model_fn `{inner.name.value}` that `{dotted(built.func)}(...)` returns ({where}) returns a "
                    "TPUEstimatorSpec to this plain tf.estimator.Estimator, which TF1 rejects at its first call "
                    "(`ValueError: model_fn should return an EstimatorSpec`): the program does not run as written; "
                    "return tf.estimator.EstimatorSpec there (or build a TPUEstimator), then convert")
    return None


def _returned_function(builder) -> Optional[cst.FunctionDef]:
    """`def builder(...): def _model_fn(...): ...; return _model_fn` -> `_model_fn`."""
    if not isinstance(builder, cst.FunctionDef) or not isinstance(builder.body, cst.IndentedBlock):
        return None
    defs = {s.name.value: s for s in builder.body.body if isinstance(s, cst.FunctionDef)}
    last = builder.body.body[-1] if builder.body.body else None
    small = last.body[0] if isinstance(last, cst.SimpleStatementLine) and len(last.body) == 1 else None
    if isinstance(small, cst.Return) and isinstance(small.value, cst.Name):
        return defs.get(small.value.value)
    return None


def _returns(fn) -> list:
    found = []

    class _V(cst.CSTVisitor):
        def visit_Return(self, node):
            found.append(node)

        def visit_FunctionDef(self, node):
            return node is fn  # a nested metric_fn's returns are its own

    fn.visit(_V())
    return found
