"""The forward pass written once per mode: `logits = model(image, training=True)` in the TRAIN branch and
`logits = model(image, training=False)` in the EVAL and PREDICT branches (TF's official MNIST model_fn).

The Estimator ran one of them per mode; Keras runs `call` with `training` True in fit and False in evaluate and
predict, which is what the literal says. So a statement of the TRAIN run with a `training=True` argument, whose
EVAL/PREDICT statements are the same but for `training=False`, is one statement of the forward pass (the general
conversion, model_subclass.py) written in `call` with `training=training`; its twins are not repeated in the steps.
"""
from __future__ import annotations

import libcst as cst


def find(runs: dict) -> dict:
    """id(an EVAL or PREDICT statement) -> the TRAIN statement it is the twin of (`runs`: model_subclass._runs)."""
    train = [s for s in runs["TRAIN"][0] if _has_literal(s, "True")]
    twins = {}
    for mode in ("EVAL", "PREDICT"):
        for stmt in runs[mode][0]:
            if not _has_literal(stmt, "False") or any(stmt is t for t in train):
                continue
            trained = _bare(stmt.visit(_Literal("False", "True")))
            match = next((t for t in train if _bare(t).deep_equals(trained)), None)
            if match is not None:
                twins[id(stmt)] = match
    return twins


class _Literal(cst.CSTTransformer):
    """`training=<old>` -> `training=<new>` (a literal, or the name `training` for `call`)."""

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def leave_Arg(self, original, updated):
        if original.keyword is not None and original.keyword.value == "training" and \
                isinstance(original.value, cst.Name) and original.value.value == self.old:
            return updated.with_changes(value=cst.Name(self.new))
        return updated


def in_call(stmt) -> cst.CSTNode:
    """The TRAIN twin as `call` runs it: `training=True` -> `training=training`."""
    return stmt.visit(_Literal("True", "training"))


def _bare(stmt):
    """The statement without the blank lines and comments above it (they differ from branch to branch)."""
    return stmt.with_changes(leading_lines=()) if hasattr(stmt, "leading_lines") else stmt


def _has_literal(stmt, value: str) -> bool:
    found = []

    class _V(cst.CSTVisitor):
        def visit_Arg(self, node):
            if node.keyword is not None and node.keyword.value == "training" and isinstance(node.value, cst.Name) \
                    and node.value.value == value:
                found.append(node)

    stmt.visit(_V())
    return bool(found)
