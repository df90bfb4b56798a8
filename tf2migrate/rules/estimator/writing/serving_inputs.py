"""The serving input an export call's block builds just for it, dropped with the export it fed.

official/mnist exports under `if flags.export_dir is not None:` with `image = tf.placeholder(...)`, `input_fn =
tf.estimator.export.build_raw_serving_input_receiver_fn({"image": image})` and `export_savedmodel(dir, input_fn)`.
The export becomes `model.save(dir)` (exporters.py), whose signature is the Keras model's call; the receiver fn is
then read by nothing, and its placeholder cannot run eagerly in TF2 (it raises). So, in the block of a converted
export, the statements that build its serving_input_receiver_fn and the placeholders only that fn reads go with
it (TFM318 says so); anything read elsewhere stays.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.reading.uses import EXPORTS, assignment, callee
from tf2migrate.rules.estimator.syntax.kept_source import references

RECEIVERS = ("tf.estimator.export.build_raw_serving_input_receiver_fn",
             "tf.estimator.export.build_parsing_serving_input_receiver_fn")
PLACEHOLDERS = ("tf.placeholder", "tf.compat.v1.placeholder")


def drop(orig, made, prog, ctx, module, notes):
    """`made` (the rendered block `orig`) without the statements that only built its export's serving input."""
    names = _dropped(orig, prog, ctx, module)
    if not names:
        return made
    notes.append((names[0][1], "TFM318", "the serving input built for the export (`" + "`, `".join(
        n for n, _ in names) + "`) went with it: model.save's serving signature is the Keras model's call, and "
        "TF1 placeholders do not run eagerly in TF2"))
    return made.visit(_Drop({n for n, _ in names}))


def _dropped(orig, prog, ctx, module) -> list:
    """[(name, value)] of the receiver fns and placeholders to drop, receivers first."""
    assigned = {}

    class _Find(cst.CSTVisitor):
        def __init__(self):
            self.exports = []

        def visit_SimpleStatementLine(self, node):
            name, value = assignment(node)
            if name is not None:
                assigned.setdefault(name, []).append(value)

        def visit_Call(self, node):
            func = node.func
            if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) \
                    and func.value.value == prog.var and func.attr.value in EXPORTS:
                self.exports.append(node)

    found = _Find()
    orig.visit(found)
    out = []
    for call in found.exports:
        fn = call.args[1].value if len(call.args) > 1 and call.args[1].keyword is None else next(
            (a.value for a in call.args if a.keyword and a.keyword.value == "serving_input_receiver_fn"), None)
        values = assigned.get(fn.value, []) if isinstance(fn, cst.Name) else []
        if len(values) != 1 or callee(values[0], ctx) not in RECEIVERS or _reads(module, fn.value) != 2:
            continue
        out.append((fn.value, values[0]))
        for name in _names(values[0]):
            held = assigned.get(name, [])
            if len(held) == 1 and callee(held[0], ctx) in PLACEHOLDERS and _reads(module, name) == 2:
                out.append((name, held[0]))
    return out


def _reads(module, name: str) -> int:
    """The plain uses of `name` in the statements that can see this body's `name`: a function that binds its
    own `name` (a parameter or an assignment, as a model_fn's `image`) is another scope."""
    return sum(references(stmt, name, plain=True) for stmt in module.body if not _binds(stmt, name))


def _binds(stmt, name: str) -> bool:
    if not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
        return False
    if isinstance(stmt, cst.FunctionDef) and name in {p.name.value for p in stmt.params.params}:
        return True
    found = []

    class _V(cst.CSTVisitor):
        def visit_AssignTarget(self, node):
            found.append(isinstance(node.target, cst.Name) and node.target.value == name)

    stmt.visit(_V())
    return any(found)


def _names(node) -> set:
    out = set()

    class _V(cst.CSTVisitor):
        def visit_Name(self, n):
            out.add(n.value)

    node.visit(_V())
    return out


class _Drop(cst.CSTTransformer):
    def __init__(self, names: set) -> None:
        self.names = names

    def leave_SimpleStatementLine(self, original, updated):
        return cst.RemovalSentinel.REMOVE if assignment(original)[0] in self.names else updated
