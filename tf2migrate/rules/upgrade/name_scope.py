"""TFM660: TF1's `tf.name_scope(name, default_name, values)` -> TF2's `tf.name_scope(name)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import keyword_arg
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import called, positional, to_keywords

NAME_SCOPE = BY_NAME["name_scope"].names  # the names its manifest line wakes it on
TF1_ARGS = ("name", "default_name", "values")


class NameScope(Plugin):
    """TF2's `tf.name_scope(name)` takes one argument, a string. TF1's also took `default_name` (used when
    `name` is None) and `values` (tensors checked to be in one graph, nothing else). So `values` is dropped;
    with `name=None` (or no name) the default name becomes the name; with a string name the default name
    never applied and is dropped. Re-entering a scope (`"outer/"`) works the same in both. When `name` is
    an expression that may be None at run time, the choice cannot be made from the text: the call is kept
    as `tf.compat.v1.name_scope` and reported (tf_upgrade_v2 moves every call with a name there)."""

    claims = NAME_SCOPE
    infos = (
        RuleInfo(
            code="TFM660",
            name="name-scope-arguments",
            summary="tf.name_scope(name, default_name, values) -> tf.name_scope(name)",
            message="TF2's `tf.name_scope` takes only a name",
            fix="partial",
            why=__doc__,
            before="import tensorflow as tf\n\n\ndef dense(x, scope=None):\n"
            "    with tf.name_scope(None, \"dense\", [x]):\n        return x\n",
            after="import tensorflow as tf\n\n\ndef dense(x, scope=None):\n"
            "    with tf.name_scope(name=\"dense\"):\n        return x\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, NAME_SCOPE)
        if canonical is None or literal.startswith("tf.compat.v1."):
            return updated  # through compat.v1 it is TF1's own function, which takes all three
        args = positional(updated)
        if args is None or len(args) > 3 or (len(updated.args) == 1 and not updated.args[0].keyword):
            return updated  # a one-argument call is TF2's already
        given = {a.keyword.value: a.value for a in to_keywords(updated.args, TF1_ARGS)}
        chosen = decide(self.ctx, original, {key: _kind(value) for key, value in given.items()})
        if chosen is None:
            return updated
        if chosen == "compat_v1":
            return updated.with_changes(func=self.ctx.emit.compat_v1(canonical))
        # the default name as `name=`, as tf_upgrade_v2 writes it; a name given stays as it was passed
        name = given[chosen]
        arg = cst.Arg(name) if updated.args[0].keyword is None and chosen == "name" else keyword_arg("name", name)
        return updated.with_changes(args=[arg])


def decide(ctx, node, given: dict) -> str | None:
    """The rule's decision on a call, its findings made: None to leave it, "compat_v1" to keep TF1's function,
    else the argument whose value becomes TF2's one name ("name" or "default_name"). `given`: each argument
    the call binds -> its value's kind, "none", "string" or another. Shared with the splice twin
    (rules/code_splice_rules.py)."""
    if set(given) - set(TF1_ARGS):
        return None
    name, default = given.get("name"), given.get("default_name")
    if default is not None and name in (None, "none"):
        chosen = "default_name"
    elif name in (None, "none"):
        ctx.report(node, "TFM660", "`name_scope` without a name: TF2 needs one", fixable=False)
        return None
    elif default is not None and name != "string":
        message = ("kept as `tf.compat.v1.name_scope`: `name` may be None at run time, when TF1 used "
                   "`default_name`; pass `name or default_name` to TF2's `tf.name_scope`")
        return "compat_v1" if ctx.report(node, "TFM660", message) else None
    else:
        chosen = "name"
    return chosen if ctx.report(node, "TFM660") else None


def _kind(expr) -> str:
    if isinstance(expr, cst.Name) and expr.value == "None":
        return "none"
    return "string" if isinstance(expr, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)) else "other"
