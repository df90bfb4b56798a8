"""TFM340-TFM341: what a converted Estimator program leaves around it, where TF2 has the exact same value.

After the conversion, the input functions and data loaders beside the program keep TF1 names that TF 2.16
cannot import: `tf.estimator.ModeKeys.TRAIN` passed to a `read_dataset(..., mode=...)` helper, or the
tutorials' `tf.contrib.learn.datasets.load_dataset("mnist")`. Both have an exact TF2 spelling, so they are
rewritten instead of reported (the Unconverted rule then reports only what is still left).
"""
from __future__ import annotations

import ast

import libcst as cst

MODE_STRINGS = {"tf.estimator.ModeKeys.TRAIN": "train", "tf.estimator.ModeKeys.EVAL": "eval",
                "tf.estimator.ModeKeys.PREDICT": "infer"}  # the values of TF1's ModeKeys constants
LOAD_DATASET = "tf.contrib.learn.datasets.load_dataset"
TABLE = "tf.contrib.learn.datasets.DATASETS"  # its "mnist" entry is load_mnist(train_dir="MNIST-data")
LOADER = "load_mnist"
_SPLITS, _FIELDS = ("train", "validation", "test"), ("images", "labels", "num_examples")



def mnist_loads(tree: ast.AST, imports) -> list:
    """The `load_dataset("mnist")` calls of `tree` whose results are read only as contrib's data sets' arrays,
    or [] when one of them is read another way (all or none: the file then keeps its findings)."""
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and (imports.ast_canonical(n.func) == LOAD_DATASET
                                                                       or _from_table(n, imports))]
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for call in calls:
        target = parents.get(id(call))
        named = [call.args[0].value] if len(call.args) == 1 and isinstance(call.args[0], ast.Constant) else []
        if _from_table(call, imports):  # `DATASETS["mnist"](data_dir)`: read_data_sets(data_dir), the same arrays
            named = ["mnist"] if len(call.args) + len(call.keywords) <= 1 and all(
                k.arg == "train_dir" for k in call.keywords) else []
        elif call.keywords:
            named = []
        if named != ["mnist"] or not isinstance(target, ast.Assign) or len(target.targets) != 1 \
                or not isinstance(target.targets[0], ast.Name) or not _read_as_arrays(target, tree, parents):
            return []
    return calls


def _from_table(call: ast.Call, imports) -> bool:
    """`tf.contrib.learn.datasets.DATASETS["mnist"](...)`: contrib's `load_mnist(train_dir)`."""
    func = call.func
    return isinstance(func, ast.Subscript) and isinstance(func.slice, ast.Constant) and func.slice.value == "mnist" \
        and imports.ast_canonical(func.value) == TABLE


def _read_as_arrays(assign: ast.Assign, tree: ast.AST, parents: dict) -> bool:
    name = assign.targets[0].id
    scope = parents.get(id(assign))
    while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        scope = parents.get(id(scope))
    for node in ast.walk(scope or tree):
        if isinstance(node, ast.Name) and node.id == name and node is not assign.targets[0]:
            split, field = parents.get(id(node)), None
            if isinstance(split, ast.Attribute) and split.attr in _SPLITS:
                field = parents.get(id(split))
            if not (isinstance(field, ast.Attribute) and field.attr in _FIELDS and isinstance(field.ctx, ast.Load)):
                return False
    return True


def loader_source() -> str:
    return f'''def {LOADER}():
    """contrib's `load_dataset("mnist")` (read_data_sets' defaults) from tf.keras.datasets (tf2migrate TFM341)."""
    import types

    import numpy
    import tensorflow

    (train_images, train_labels), (test_images, test_labels) = tensorflow.keras.datasets.mnist.load_data()

    def data_set(images, labels):
        images = images.reshape(images.shape[0], 784).astype(numpy.float32) * numpy.float32(1.0 / 255.0)
        return types.SimpleNamespace(images=images, labels=labels, num_examples=images.shape[0])

    train = data_set(train_images[5000:], train_labels[5000:])
    validation = data_set(train_images[:5000], train_labels[:5000])
    return types.SimpleNamespace(train=train, validation=validation, test=data_set(test_images, test_labels))
'''


class Leftovers(cst.CSTTransformer):
    """Rewrites, in the converted module, the mode keys and (when `loader` is set) the MNIST loads."""

    def __init__(self, imports, loader: bool, modes: bool) -> None:
        self.imports, self.loader, self.modes, self.loads = imports, loader, modes, 0

    def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute):
        value = MODE_STRINGS.get(self.imports.canonical(original)) if self.modes else None
        return cst.SimpleString(f'"{value}"') if value else updated

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        func = original.func
        table = isinstance(func, cst.Subscript) and self.imports.canonical(func.value) == TABLE and len(func.slice) == 1 \
            and isinstance(func.slice[0].slice, cst.Index) and isinstance(func.slice[0].slice.value, cst.SimpleString) \
            and func.slice[0].slice.value.evaluated_value == "mnist"
        if not self.loader or not (table or self.imports.canonical(func) == LOAD_DATASET):
            return updated
        self.loads += 1
        return cst.Call(func=cst.Name(LOADER))


def rewrite(updated: cst.Module, refs: list, ctx) -> tuple:
    """`updated` with the leftovers rewritten, and the references (of `refs`, the ones still there) done."""
    modes = [r for r in refs if r.canonical in MODE_STRINGS]
    modes = modes if all(ctx.allowed(r.node, "TFM340") for r in modes) else []
    loads = mnist_loads(ctx.tree, ctx.imports) if _free(ctx.tree, LOADER) else []
    loads = loads if all(ctx.allowed(call, "TFM341") for call in loads) else []
    if not modes and not loads:
        return updated, []
    fixer = Leftovers(ctx.imports, bool(loads), bool(modes))
    updated = updated.visit(fixer)
    if fixer.loads:
        first = next(i for i, s in enumerate(updated.body) if f"{LOADER}()" in updated.code_for_node(s))
        helper = cst.parse_module(loader_source()).body[0]
        gap = [cst.EmptyLine(), cst.EmptyLine()]
        body = list(updated.body)
        body[first] = body[first].with_changes(leading_lines=gap)
        updated = updated.with_changes(body=[*body[:first], helper.with_changes(leading_lines=gap), *body[first:]])
    for ref in modes:
        ctx.report(ref.node, "TFM340")
    for call in loads:
        ctx.report(call, "TFM341")
    done = {id(call.func) for call in loads} | {id(call.func.value) for call in loads}  # DATASETS["mnist"]
    return updated, [r for r in refs if r in modes or id(r.node) in done]


def _free(tree: ast.AST, name: str) -> bool:
    """No top-level binding of `name` in `tree` (the helper's name is not taken)."""
    return not any(isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Name, ast.alias)) and
                   name in (getattr(n, "name", None), getattr(n, "id", None), getattr(n, "asname", None))
                   for n in ast.walk(tree))
