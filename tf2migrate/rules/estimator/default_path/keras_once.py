"""Keras layers a model_fn makes in its forward pass, made once by the converted model (TFM327).

TF1 built the model_fn's graph once per mode, so `tf.keras.layers.Dense(128)(x)` there made one layer. Kept in
`call` as written, the layer would be made anew at every trace, which tf.function refuses ("only supports
singleton tf.Variables created on the first call", measured on TF 2.15). Each construction written directly in
the forward pass becomes `self.made_once(key, lambda: <construction>)`: made at the first call and kept in the
model (its weights are the model's, and train), the same object at every later call. A construction in a loop,
a comprehension, a lambda or a helper function makes one layer per pass: that still blocks (tf1_style.KERAS_MADE).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator.default_path import tf1_style
from tf2migrate.rules.estimator.reading.uses import assignment
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable

CODE = "TFM327"
NESTED = (cst.For, cst.While, cst.Lambda, cst.FunctionDef, cst.ClassDef, cst.ListComp, cst.SetComp, cst.DictComp,
          cst.GeneratorExp)
NESTED_MADE = ("a Keras layer made in a loop, comprehension or lambda of the model_fn's forward pass: TF1 made one per "
               "pass, and the converted model makes each layer written in the forward pass once (TFM327); convert by "
               "hand")
METHOD = '''def made_once(self, key, make):
{i}"""A Keras layer the model_fn made in its forward pass: made at the first call, the same one after (TFM327)."""
{i}if key not in self.keras_made:
{i}{i}self.keras_made[key] = make()
{i}return self.keras_made[key]
'''


def is_made(call, ctx, defs) -> bool:
    """`tf.keras.layers.Dense(...)`, or a class of the module whose base is a Keras class."""
    canonical = ctx.resolve(call.func)[1] or ""
    if canonical.startswith("tf.keras.") and canonical.rpartition(".")[2][:1].isupper():
        return True
    made = defs.get(call.func.value) if isinstance(call.func, cst.Name) else None
    return isinstance(made, cst.ClassDef) and "keras" in "".join(source(b.value) for b in made.bases)


def keys(stmts, ctx, defs) -> list:
    """The key of each Keras construction of the forward pass, in order (the name it is assigned to, when that
    names one); raises Unreadable for one made per pass of a loop or inside a helper."""
    found, depth = [], [0]

    class _V(cst.CSTVisitor):
        def on_visit(self, node):
            if isinstance(node, NESTED):
                depth[0] += 1
            if isinstance(node, cst.Call) and is_made(node, ctx, defs):
                if depth[0]:
                    raise Unreadable(node, NESTED_MADE)
                found.append(node)
            elif isinstance(node, cst.Call) and isinstance(node.func, cst.Name) \
                    and isinstance(defs.get(node.func.value), cst.FunctionDef) \
                    and tf1_style.keras_made([defs[node.func.value]], ctx, defs) is not None:
                raise Unreadable(node, tf1_style.KERAS_MADE)
            return True

        def on_leave(self, node):
            if isinstance(node, NESTED):
                depth[0] -= 1

    names = []
    for stmt in stmts:
        before = len(found)
        stmt.visit(_V())
        target, _ = assignment(stmt)
        names += [target if target and len(found) - before == 1 else None] * (len(found) - before)
    out = []
    for i, name in enumerate(names):
        key = name if name is not None and names.count(name) == 1 else f"layer_{i}"
        out.append(key)
    return out


class Once(cst.CSTTransformer):
    """Each Keras construction of the (updated) forward statements -> `self.made_once(key, lambda: ...)`."""

    def __init__(self, ctx, defs, keys_in_order):
        self.ctx, self.defs, self.keys = ctx, defs, list(keys_in_order)

    def leave_Call(self, original, updated):
        if not self.keys or not is_made(original, self.ctx, self.defs):
            return updated
        key = self.keys.pop(0)
        return cst.Call(cst.parse_expression("self.made_once"), [
            cst.Arg(cst.SimpleString(f'"{key}"'), comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
            cst.Arg(cst.Lambda(cst.Parameters(), updated, whitespace_after_lambda=cst.SimpleWhitespace("")))])


def with_method(cls: cst.ClassDef, w) -> cst.ClassDef:
    """The class with `made_once` after its `metrics` property."""
    body = list(cls.body.body)
    at = next(i for i, s in enumerate(body) if isinstance(s, cst.FunctionDef) and s.name.value == "metrics") + 1
    body.insert(at, templates.statement(METHOD, w).with_changes(leading_lines=[cst.EmptyLine(indent=False)]))
    return cls.with_changes(body=cls.body.with_changes(body=body))
