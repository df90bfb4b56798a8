"""TFM651: `tf.nn.dropout(x, keep_prob)` -> `tf.nn.dropout(x, rate=1 - keep_prob)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import keyword_arg
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import UNKNOWN_SOURCE, called, keyword, one_minus, positional, tf1_here, to_keywords

DROPOUT = BY_NAME["dropout"].names  # the names its manifest line wakes it on
TF1_ARGS = ("x", "keep_prob", "noise_shape", "seed", "name")


class Dropout(Plugin):
    """TF2's `tf.nn.dropout` takes the probability of *dropping* a unit (`rate`), TF1's the probability
    of *keeping* it (`keep_prob`, which TF2 no longer accepts). `keep_prob=p` becomes `rate=1 - (p)`.

    A positional second argument is the dangerous case: `tf.nn.dropout(x, 0.9)` keeps 90 % of the units
    in TF1 and drops 90 % in TF2, and both run without an error. It is upgraded only where the call is
    known to be TF1 (the file is TF1 code, or the call goes through `tensorflow.compat.v1`); elsewhere
    TFM650 reports it. Arguments after it are passed by keyword, so `noise_shape` cannot slide into
    `rate` (tf_upgrade_v2 moves `keep_prob` to the end and shifts them)."""

    claims = DROPOUT
    infos = (
        RuleInfo(
            code="TFM651",
            name="dropout-keep-prob",
            summary="tf.nn.dropout(x, keep_prob) -> tf.nn.dropout(x, rate=1 - keep_prob)",
            message="TF2's `tf.nn.dropout` takes `rate` = 1 - `keep_prob`",
            why=__doc__,
            before="import tensorflow as tf\nsess = tf.Session()\ny = tf.nn.dropout(x, 0.9)\n",
            after="import tensorflow as tf\nsess = tf.compat.v1.Session()\ny = tf.nn.dropout(x, rate=1 - (0.9))\n",
        ),
        UNKNOWN_SOURCE,
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, _ = called(self.ctx, original, DROPOUT)
        if literal is None:
            return updated
        given, args = keyword(updated, "keep_prob"), positional(updated)
        how = decide(self.ctx, original, literal, given is not None, keyword(updated, "rate") is not None, args)
        if how == "keep_prob":
            new = keyword_arg("rate", one_minus(given.value)).with_changes(comma=given.comma)
            return updated.with_changes(args=[new if a is given else a for a in updated.args])
        if how is None:
            return updated
        keep = args[1]
        moved = to_keywords(updated.args, (None, "rate") + TF1_ARGS[2:])
        rate = keyword_arg("rate", one_minus(keep.value)).with_changes(comma=keep.comma)
        return updated.with_changes(args=[rate if a.keyword is not None and a.keyword.value == "rate" else a
                                          for a in moved])


def decide(ctx, node, literal: str, keep_prob: bool, rate: bool, args) -> str | None:
    """The rule's decision on a call, its findings made: "keep_prob" (`keep_prob=` becomes `rate=`),
    "positional" (the second positional argument becomes `rate=`, the later ones keywords) or None to leave it.
    `keep_prob`, `rate`: those keywords are given; `args`: the positional arguments, None with a spread.
    Shared with the splice twin (rules/code_splice_rules.py)."""
    if keep_prob:
        return "keep_prob" if not rate and ctx.report(node, "TFM651") else None
    if args is None or len(args) < 2 or rate:
        return None
    if len(args) > len(TF1_ARGS):
        ctx.report(node, "TFM651", "`tf.nn.dropout`: more positional arguments than TF1's `x, keep_prob, "
                   "noise_shape, seed, name`: the call cannot be bound, fix it by hand", fixable=False)
        return None
    if not tf1_here(ctx, node, literal, "`tf.nn.dropout(x, keep_prob)` (the second argument is `rate` in TF2)"):
        return None
    return "positional" if ctx.report(node, "TFM651") else None
