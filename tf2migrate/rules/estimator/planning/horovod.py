"""Horovod in a model_fn, reported exactly: `hvd.DistributedOptimizer(opt)` and `hvd.BroadcastGlobalVariablesHook(0)`.

Horovod's TF1 Estimator recipe wraps the TF1 optimizer so that its gradients are all-reduced across the MPI
processes, and broadcasts rank 0's initial variables with a session hook. Its TF2 recipe for a Keras model is
`horovod.tensorflow.keras.DistributedOptimizer` around the Keras optimizer (it all-reduces in apply_gradients, which
the converted train_step calls) and `horovod.tensorflow.keras.callbacks.BroadcastGlobalVariablesCallback(0)` in fit's
callbacks. The converter does not write Horovod (verify runs no MPI job, so no pair can prove it): the finding says
what to write instead of a generic reason.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.imports import dotted

OPTIMIZER = ("a Horovod DistributedOptimizer around the model_fn's TF1 optimizer: the converter does not write "
             "Horovod; by hand, wrap the Keras optimizer that build_model compiles with "
             "horovod.tensorflow.keras.DistributedOptimizer (it all-reduces the gradients in apply_gradients, which "
             "train_step calls) and keep the learning rate's hvd.size() scaling")
HOOK = ("Horovod's BroadcastGlobalVariablesHook has no automatic Keras callback here: by hand, pass "
        "horovod.tensorflow.keras.callbacks.BroadcastGlobalVariablesCallback(0) in fit's callbacks")


def names(node, ctx, attr: str) -> bool:
    """`node` is a call of Horovod's `attr` (`hvd.DistributedOptimizer(...)` through any import of horovod)."""
    if not isinstance(node, cst.Call):
        return False
    name = dotted(node.func)
    if name is None or name.rsplit(".", 1)[-1] != attr:
        return False
    head = name.split(".", 1)[0]
    binding = ctx.imports.bindings.get(head)
    return binding is not None and binding.target.split(".", 1)[0] == "horovod"


def wrapped_optimizer(stmt, ctx) -> bool:
    """`optimizer = hvd.DistributedOptimizer(optimizer)` as a statement."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    return isinstance(small, cst.Assign) and names(small.value, ctx, "DistributedOptimizer")
