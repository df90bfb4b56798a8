"""What the Estimator converter decides, declared in one place: the strategy kind and the model plan.

A model_fn or canned estimator is read by one of three paths, each in its own module: the idiomatic
path (model_fn.py: a compiled `tf.keras.Sequential`), the canned path (canned.py) and the general path
(model_subclass.py: a `tf.keras.Model` subclass that keeps the model_fn's code). Every path's plan is a
`ModelPlan`: the writers and the notes read the attributes declared here, with the defaults given here
when a path has no such thing (a canned estimator has no schedule, the general path no layer chain), instead
of probing with `getattr(plan, name, default)` or `isinstance`.
"""
from __future__ import annotations

from enum import Enum
from typing import Any, ClassVar, Optional, Sequence


class StrategyKind(str, Enum):
    """The `tf.distribute` strategy the Keras model is built under (the values are `--strategy`'s)."""

    NONE = "none"
    MIRRORED = "mirrored"
    MULTI_WORKER = "multi-worker"
    PARAMETER_SERVER = "parameter-server"
    TPU = "tpu"

    def __str__(self) -> str:
        return self.value

    __format__ = str.__format__  # f"{kind}" spells the value, as `--strategy` does

    @property
    def replicated(self) -> bool:
        """A strategy whose replicas each take their own batch (TF1 could feed them the same way)."""
        return self in (StrategyKind.MIRRORED, StrategyKind.MULTI_WORKER)


class ModelPath(Enum):
    IDIOMATIC = "idiomatic"  # model_fn.py: Sequential + compile + fit
    CANNED = "canned"  # canned.py: a canned estimator's Keras equivalent
    GENERAL = "general"  # model_subclass.py: a Keras Model subclass keeping the model_fn's statements
    KERAS = "keras"  # keras_estimator.py: model_to_estimator's Keras model, trained itself


class ModelPlan:
    """The protocol of every path's plan. Read-only defaults for what a path does not have; each path's
    dataclass declares (as fields) what it fills."""

    path: ClassVar[ModelPath]
    # Declared by every path without a default (a dataclass would take an inherited one as its field's):
    node: Any  # the model_fn (None for a canned estimator)
    chain: Any  # chain.Chain: the layers of a Sequential model (None on the canned and general paths)
    blockers: Sequence = ()  # args.Unreadable: why the model does not convert
    forward_blockers: Sequence = ()  # args.Unreadable in the forward pass (the shim may keep those statements)
    notes: Sequence = ()  # (node, code, message) reported when the program converts
    uses_params: bool = False  # the model takes `params`: the builder gets them
    optimizer: Any = None  # optimizers.Optimizer
    schedule: Any = None  # schedules.Schedule: a learning-rate decay
    metrics: Sequence = ()  # the Keras metrics mapped from eval_metric_ops
    predictions: Any = None  # the PREDICT dict (or tensor) a `predictions_of` function returns
    penalty: Any = None  # a weight decay added to the loss (regularization.py)
    training_hooks: Any = None  # EstimatorSpec(training_hooks=...)
    columns_name: Any = None  # the Name a canned estimator's feature columns were assigned to
    columns_helper: Any = None  # the function returning them (`cols = get_columns()`)

    @property
    def partitioners(self) -> Sequence:
        """(node, partitioner expression) of the forward pass's variable scopes."""
        return self.chain.partitioners if self.chain is not None else ()

    @property
    def layers(self) -> Sequence:
        return self.chain.layers if self.chain is not None else ()


def canned(plan: Optional[ModelPlan]) -> bool:
    return plan is not None and plan.path is ModelPath.CANNED


def keras(plan: Optional[ModelPlan]) -> bool:
    return plan is not None and plan.path is ModelPath.KERAS
