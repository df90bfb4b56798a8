"""TFM654: TF1's `tf.nn.softmax_cross_entropy_with_logits(labels=y, ...)` -> `labels=tf.stop_gradient(y)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import UNKNOWN_SOURCE, called, keyword, tf1_here

SOFTMAX = BY_NAME["softmax_labels"].names  # the names its manifest line wakes it on
POSITIONAL_WHAT = "`softmax_cross_entropy_with_logits` with positional arguments (TF 0.x: logits, labels; TF2: labels, logits)"
POSITIONAL = ("positional arguments: TF 0.x read them as (logits, labels), TF 1.x refused them and TF2 reads them as "
              "(labels, logits), so the two tensors would be swapped; name them (`labels=`, `logits=`)")

DIM = "TF2's `softmax_cross_entropy_with_logits` names TF1's `dim` argument `axis`"


class SoftmaxLabels(Plugin):
    """TF1's `tf.nn.softmax_cross_entropy_with_logits` never back-propagated into `labels`; TF2's (TF1's
    `_v2`) does. Wrapping the labels in `tf.stop_gradient` keeps the TF1 gradients (it matters when labels
    are computed from trainable variables, as in distillation). The call is the same text in TF2 code, where
    the wrap would change its meaning, so it is made only where the call is known to be TF1; a call through
    `tensorflow.compat.v1` still is TF1's function and needs nothing. TF1's `dim=` becomes `axis=` (TF2's
    function has no `dim`), which also proves the call is TF1's."""

    claims = SOFTMAX
    infos = (
        RuleInfo(
            code="TFM654",
            name="softmax-labels-stop-gradient",
            summary="TF1 softmax_cross_entropy_with_logits(labels=y) -> labels=tf.stop_gradient(y)",
            message="TF2's `softmax_cross_entropy_with_logits` back-propagates into `labels`; TF1's did not",
            why=__doc__,
            before="import tensorflow as tf\nx = tf.placeholder(tf.float32)\n"
            "loss = tf.nn.softmax_cross_entropy_with_logits(labels=y, logits=x)\n",
            after="import tensorflow as tf\nx = tf.compat.v1.placeholder(tf.float32)\n"
            "loss = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(y), logits=x)\n",
        ),
        UNKNOWN_SOURCE,
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, SOFTMAX)
        if canonical is None:
            return updated
        labels, dim = keyword(updated, "labels"), keyword(updated, "dim")
        positional = any(arg.keyword is None and not arg.star for arg in updated.args)
        wrap = decide(self.ctx, original, literal, positional, labels is not None and not self._stopped(labels.value),
                      dim is not None)
        if wrap is None:
            return updated
        out = []
        for arg in updated.args:
            if arg is labels and wrap:
                arg = arg.with_changes(value=cst.Call(func=self.ctx.emit.attribute("tf.stop_gradient"),
                                                      args=[cst.Arg(labels.value)]))
            elif arg is dim:
                arg = arg.with_changes(keyword=cst.Name("axis"))
            out.append(arg)
        return updated.with_changes(args=out)

    def _stopped(self, value) -> bool:
        return isinstance(value, cst.Call) and self.ctx.resolve(value.func)[1] == "tf.stop_gradient"


def decide(ctx, node, literal: str, positional: bool, unstopped: bool, dim: bool):
    """The rule's decision on a call, its findings made: None to leave it, else whether `labels=` gets wrapped
    (`dim=` becomes `axis=` whenever given). `unstopped`: `labels=` is given, not already `tf.stop_gradient(...)`.
    Shared with the splice twin (rules/splice_upgrades.py)."""
    if positional:
        # TF 0.x took `(logits, labels)` positionally, TF 1.x refused positional arguments, TF2 reads them as
        # `(labels, logits)`: in TF1 code such a call is TF 0.x's, and TF2 would swap its two tensors silently
        if literal.startswith("tf.compat.v1.") or tf1_here(ctx, node, literal, POSITIONAL_WHAT):
            ctx.report(node, "TFM654", POSITIONAL, fixable=False, severity=Severity.ERROR)
        return None
    if literal.startswith("tf.compat.v1.") or not unstopped and not dim:
        return None
    # TF2's function takes `axis`, not TF1's `dim` (a TypeError): a `dim=` proves the call is TF1's
    if not dim and not tf1_here(ctx, node, literal, "`softmax_cross_entropy_with_logits(labels=...)` "
                                "(TF2's back-propagates into labels, TF1's did not)"):
        return None
    if not ctx.report(node, "TFM654", None if unstopped else DIM):
        return None
    return unstopped
