"""TFM109: `strategy.extended.call_for_each_replica(fn, args)` -> `strategy.run(fn, args)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.receivers import on_object


class CallForEachReplica(Plugin):
    """In TF2 user code runs a function on every replica with `Strategy.run(fn, args, kwargs)`;
    `extended.call_for_each_replica` is an internal API whose semantics (no automatic
    `tf.function`, merge calls) differ. When the strategy is not visible as `X.extended`, the call
    is reported for a hand edit."""

    infos = (
        RuleInfo(
            code="TFM109",
            name="call-for-each-replica",
            summary="strategy.extended.call_for_each_replica(fn, args) -> strategy.run(fn, args)",
            message="`extended.call_for_each_replica` is internal in TF2: use `strategy.run`",
            why=__doc__,
            before="import tensorflow as tf\nout = strategy.extended.call_for_each_replica(step, args=(x,))\n",
            after="import tensorflow as tf\nout = strategy.run(step, args=(x,))\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        if not on_object(original, "call_for_each_replica", self.ctx):
            return updated
        receiver = updated.func.value
        if not (isinstance(receiver, cst.Attribute) and receiver.attr.value == "extended"):
            self.ctx.report(original, "TFM109", "`call_for_each_replica` on an object that is not "
                            "`<strategy>.extended`: call `strategy.run(fn, args, kwargs)` instead", fixable=False)
            return updated
        if not self.ctx.report(original, "TFM109"):
            return updated
        return updated.with_changes(func=cst.Attribute(value=receiver.value, attr=cst.Name("run")))
