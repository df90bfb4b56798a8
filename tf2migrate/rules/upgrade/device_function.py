"""TFM665: `tf.device(device_function)` (a TF1 device function, e.g. `replica_device_setter`) ->
`tf.compat.v1.device(...)`."""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import called

DEVICE = BY_NAME["device_function"].names  # the names its manifest line wakes it on
SETTER = "tf.train.replica_device_setter"


class DeviceFunction(Plugin):
    """TF1's `tf.device` also took a function from an op to a device: `tf.train.replica_device_setter(...)`
    put variables on parameter servers that way. TF2's `tf.device` takes only a device name; the function
    form lives on as `tf.compat.v1.device`, in graph mode only. A call given a lambda, a
    `replica_device_setter(...)`, or a name bound to either or to a function defined in this module, or
    bound (alone or unpacked from a tuple) to what a function of this module returns when that function
    makes a `replica_device_setter` (`device, target = device_and_target()`: TF's dist_test and ecosystem
    samples), is kept on `tf.compat.v1.device` and reported: in TF2, parameter-server placement is
    `tf.distribute.experimental.ParameterServerStrategy`'s job. Device names (strings, or names that are
    not known functions) are left alone."""

    claims = DEVICE
    infos = (
        RuleInfo(
            code="TFM665",
            name="device-function",
            summary="tf.device(device_function) -> tf.compat.v1.device(device_function) (graph mode only)",
            message="TF2's `tf.device` takes only a device name: the device function is kept on "
            "`tf.compat.v1.device` (graph mode); in TF2, ParameterServerStrategy places variables",
            fix="partial",
            why=__doc__,
            before="import tensorflow as tf\nwith tf.device(tf.train.replica_device_setter(ps_tasks=2)):\n"
            "    w = tf.Variable(0.0)\n",
            after="import tensorflow as tf\nwith tf.compat.v1.device(tf.compat.v1.train.replica_device_setter(ps_tasks=2)):\n"
            "    w = tf.Variable(0.0)\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, DEVICE)
        if canonical is None or literal.startswith("tf.compat.v1.") or len(original.args) != 1:
            return updated
        if not self._is_function(original.args[0].value) or not self.ctx.report(original, "TFM665"):
            return updated
        return updated.with_changes(func=self.ctx.emit.compat_v1(canonical))

    def _is_function(self, value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.Lambda):
            return is_function(self.ctx, "lambda", None)
        if isinstance(value, cst.Call):
            return is_function(self.ctx, "call", self.ctx.resolve(value.func)[1])
        if isinstance(value, cst.Name):
            return is_function(self.ctx, "name", value.value)
        return False


def is_function(ctx, kind: str, name) -> bool:
    """Is `tf.device`'s one argument a device function? `kind`: "lambda", "call" (`name`: the callee's
    canonical name) or "name" (`name`: the identifier). Shared with the splice twin (rules/splice_upgrades.py)."""
    if kind == "lambda":
        return True
    if kind == "call":
        return name == SETTER
    if kind == "name":
        return name in _functions(ctx) or name in _from_setter_helpers(ctx) \
            or any(c == SETTER for c in ctx.facts.made_by.get(name, ()))
    return False


def _from_setter_helpers(ctx) -> set:
    """Names bound to a call of a module function that makes a replica_device_setter (alone or unpacked)."""
    key = "device_function.helper_results"
    if key not in ctx.memo:
        imports = ctx.imports
        helpers = {fn.name for fn in nodes(ctx.tree, ast.FunctionDef)
                   if any(isinstance(n, ast.Call) and imports.ast_canonical(n.func) == SETTER for n in ast.walk(fn))}
        bound = set()
        for node in nodes(ctx.tree, ast.Assign):
            call = node.value
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in helpers:
                for target in node.targets:
                    elts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                    bound |= {t.id for t in elts if isinstance(t, ast.Name)}
        ctx.memo[key] = bound
    return ctx.memo[key]


def _functions(ctx) -> set:
    key = "device_function.defs"
    if key not in ctx.memo:
        ctx.memo[key] = {n.name for n in nodes(ctx.tree, ast.FunctionDef)}
    return ctx.memo[key]
