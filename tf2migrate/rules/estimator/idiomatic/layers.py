"""TF1 layers inside a `model_fn` -> Keras layer constructors for a `Sequential` model.

`tf1.layers.Dense(n)(x)`, `tf1.layers.dense(x, n)` and `tf.keras.layers.Dense(n)(x)` all become
`tf.keras.layers.Dense(n)`: the TF1 layer classes are Keras layers with the same constructor arguments,
and the functional forms take the same arguments after `inputs`. `training=` comes from the mode in
TF1 and from `fit`/`evaluate` in Keras, so it is dropped. Keras names the layers as TF1 did
(`dense`, `dense_1`, `conv2d`), which keeps weights comparable.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.syntax.args import Unreadable, bind, literal

CLASSES = {
    "Dense", "Conv1D", "Conv2D", "Conv3D", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D",
    "AveragePooling2D", "AveragePooling3D", "Flatten", "Dropout", "BatchNormalization", "Conv2DTranspose",
    "SeparableConv2D",
}
FUNCTIONS = {
    "dense": "Dense", "conv1d": "Conv1D", "conv2d": "Conv2D", "conv3d": "Conv3D", "max_pooling1d": "MaxPooling1D",
    "max_pooling2d": "MaxPooling2D", "average_pooling1d": "AveragePooling1D",
    "average_pooling2d": "AveragePooling2D", "flatten": "Flatten", "dropout": "Dropout",
    "batch_normalization": "BatchNormalization",
}
ACTIVATIONS = {"tf.nn." + a for a in "relu relu6 elu selu sigmoid tanh softmax softplus softsign swish gelu".split()}
ACTIVATIONS |= {"tf.sigmoid", "tf.tanh", "tf.math.sigmoid", "tf.math.tanh"}
CALL_ONLY = {"training"}  # call-time keywords of the TF1 functional forms
FUNCTIONAL_BLOCKED = {"reuse"}
INPUT_LAYER_PARAMS = ("features", "feature_columns", "weight_collections", "trainable", "cols_to_vars",
                      "cols_to_output_tensors")


@dataclass
class Layer:
    """One Keras layer: `kind` (Keras class name), the constructor arguments to copy, and the input."""

    kind: str
    args: list  # cst.Arg, copied from the TF1 call
    input: cst.BaseExpression
    node: cst.CSTNode
    activation: Optional[cst.BaseExpression] = None  # for Activation layers: the function reference
    reshape: Optional[cst.BaseExpression] = None  # for Reshape: the target shape without the batch axis
    key: Optional[cst.BaseExpression] = None  # for Select: the feature key of `features["x"]`
    loop: Optional[cst.For] = None  # the `for` statement that repeats this layer


def _input_of(args, label: str, node):
    for a in args:
        if a.keyword is not None and a.keyword.value == "inputs":
            return a
    for a in args:
        if a.keyword is None and not a.star:
            return a
    raise Unreadable(node, f"`{label}` without an input tensor")


def read_scaling(value, end: str) -> Optional[Layer]:
    """`image = features / 255.`: arithmetic of the previous output with a number, kept as written in a Lambda
    layer (a Rescaling layer would multiply by 1/255, which is not the same float)."""
    if not isinstance(value, cst.BinaryOperation) or not isinstance(
            value.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)):
        return None
    sides = (value.left, value.right)
    numbers = [s for s in sides if isinstance(literal(s), (int, float)) and not isinstance(literal(s), bool)]
    inputs = [s for s in sides if isinstance(s, cst.Name) and s.value == end]
    if len(numbers) == 1 and len(inputs) == 1:
        return Layer("Lambda", [], inputs[0], value, activation=value)
    return None


def read_selection(value) -> Optional[Layer]:
    """`features["x"]`: the first layer picks one feature of the dict the input function yields."""
    if not (isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1):
        return None
    key = value.slice[0].slice
    if isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):
        return Layer("Select", [], value.value, value, key=key.value)
    return None


def read_layer(call: cst.Call, ctx) -> Optional[Layer]:
    """The Keras layer that `call` (the value of a forward-pass assignment) builds, or None if it is no layer."""
    func = call.func
    if isinstance(func, cst.Call):  # tf1.layers.Dense(...)(x) / tf.keras.layers.Dense(...)(x)
        _, canonical = ctx.resolve(func.func)
        if not canonical:
            return None
        head, _, name = canonical.rpartition(".")
        if head not in ("tf.layers", "tf.keras.layers") or (head == "tf.layers" and name not in CLASSES):
            return None
        inputs = [a for a in call.args if not (a.keyword and a.keyword.value in CALL_ONLY)]
        if len(inputs) != 1 or inputs[0].keyword is not None or inputs[0].star:
            raise Unreadable(call, f"`{name}` layer called with more than one input: convert it by hand")
        return Layer(name, list(func.args), inputs[0].value, call)
    _, canonical = ctx.resolve(func)
    if not canonical:
        return None
    if canonical in ACTIVATIONS:
        if len(call.args) != 1 or call.args[0].keyword is not None:
            raise Unreadable(call, f"`{canonical}` with extra arguments: use a Keras layer by hand")
        return Layer("Activation", [], call.args[0].value, call, activation=func)
    if canonical == "tf.feature_column.input_layer":
        bound = bind(call, INPUT_LAYER_PARAMS, canonical)
        if set(bound) - {"features", "feature_columns"}:
            raise Unreadable(call, "`input_layer` with weight_collections/trainable/cols_to_vars: use "
                             "tf.keras.layers.DenseFeatures by hand")
        return Layer("DenseFeatures", [cst.Arg(bound["feature_columns"])], bound["features"], call)
    if canonical == "tf.reshape":
        shape = call.args[1].value if len(call.args) > 1 else None
        if not isinstance(shape, (cst.List, cst.Tuple)) or not shape.elements or literal(shape.elements[0].value) != -1:
            raise Unreadable(call, "`reshape` that does not keep the batch axis (-1 first): use a Keras layer by hand")
        return Layer("Reshape", [], call.args[0].value, call, reshape=shape)
    head, _, name = canonical.rpartition(".")
    if head != "tf.layers" or name not in FUNCTIONS:
        return None
    inp = _input_of(call.args, name, call)
    rest = []
    for a in call.args:
        if a is inp or (a.keyword is not None and a.keyword.value in CALL_ONLY):
            continue
        if a.keyword is not None and a.keyword.value in FUNCTIONAL_BLOCKED:
            raise Unreadable(a, f"`{name}({a.keyword.value}=...)` shares variables: convert it by hand")
        if a.keyword is None and name == "flatten":
            raise Unreadable(a, "`flatten` with a positional name: pass `name=` by keyword")
        rest.append(a)
    return Layer(FUNCTIONS[name], rest, inp.value, call)
