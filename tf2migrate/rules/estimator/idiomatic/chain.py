"""The chain of layers a model_fn's forward pass builds, from `features` to the tensor the loss uses.

forward.py reads the forward pass into it; the idiomatic path writes its layers as a `tf.keras.Sequential`
(keras_source.py), the values derived from them (`argmax`, `softmax`) as the PREDICT function, and the metrics ask
it what a prediction is (`kind_of`: the model's output, a rounded sigmoid, an argmax).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.syntax.args import Unreadable, literal


@dataclass
class Step:
    name: str  # the local name the statement binds
    stmt: cst.CSTNode
    layer: object = None  # layers.Layer, or None for a derived value


@dataclass
class Chain:
    steps: list = field(default_factory=list)  # layers (the model) and derived values, in source order
    output: str = "features"
    partitioners: list = field(default_factory=list)  # (node, expression) from variable_scope(partitioner=)
    tainted: set = field(default_factory=set)  # names bound by statements that did not convert
    alias: Optional[str] = None  # `net = features`: another name for the end of the chain

    @property
    def layers(self) -> list:
        return [s for s in self.steps if s.layer is not None]

    def end(self) -> str:
        if self.alias is not None:
            return self.alias
        layers = self.layers
        return layers[-1].name if layers else "features"

    def derived(self) -> list:
        return [s for s in self.steps if s.layer is None]

    def finish(self, loss_output) -> None:
        """Cut the model at the tensor the loss uses; later activations become derived values."""
        if not isinstance(loss_output, cst.Name):
            raise Unreadable(loss_output, "the loss is computed on an expression: assign the logits to a name first")
        names = [s.name for s in self.layers]
        if loss_output.value == self.alias and names:  # `predictions = output`: the last layer's output renamed
            self.output = loss_output.value
            return
        if loss_output.value not in names:
            raise Unreadable(loss_output, f"the loss uses `{loss_output.value}`, not the output of the layers")
        cut = names.index(loss_output.value)
        for step in self.layers[cut + 1:]:
            if step.layer.kind != "Activation":
                raise Unreadable(step.stmt, "a layer after the tensor the loss uses: convert by hand")
            step.layer = None
        self.output = loss_output.value

    def _value_of(self, name):
        for step in self.derived():
            if step.name == name:
                return step.stmt.body[0].value
        return None

    def kind_of(self, expr, ctx):
        """What a prediction is relative to the model output: output, argmax, sigmoid, rounded_sigmoid, None."""
        if isinstance(expr, cst.Name):
            if expr.value == self.output:
                return "output"
            value = self._value_of(expr.value)
            return self.kind_of(value, ctx) if isinstance(value, cst.Call) else None
        if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name):  # predictions["classes"]
            found = self._value_of(expr.value.value)
            key = literal(expr.slice[0].slice.value) if isinstance(expr.slice[0].slice, cst.Index) else None
            for el in found.elements if isinstance(found, cst.Dict) else ():
                if isinstance(el, cst.DictElement) and isinstance(key, str) and literal(el.key) == key:
                    return self.kind_of(el.value, ctx)
            return None
        if isinstance(expr, cst.Call) and len(expr.args) == 1 and ctx.resolve(expr.func)[1] == "tf.round" \
                and self.kind_of(expr.args[0].value, ctx) == "sigmoid":
            return "rounded_sigmoid"
        if isinstance(expr, cst.Call) and expr.args and self.kind_of(expr.args[0].value, ctx) == "output":
            canonical = ctx.resolve(expr.func)[1]
            if canonical in ("tf.argmax", "tf.math.argmax"):
                axis = expr.args[1].value if len(expr.args) > 1 else None
                return "argmax" if literal(axis) in (1, -1) else None
            if canonical in ("tf.nn.sigmoid", "tf.sigmoid", "tf.math.sigmoid"):
                return "sigmoid"
        return None
