"""TFM113: `metric.reset_states()` -> `metric.reset_state()` when the receiver is a Keras metric."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.engine.facts import is_keras_metric
from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.receivers import on_object


class ResetState(Plugin):
    """Keras 2.5 renamed `Metric.reset_states()` to `reset_state()`; the old name is gone in Keras 3.
    Stateful RNN layers and models also have a `reset_states()` that was *not* renamed, so the call
    is rewritten only when the receiver was built from `tf.keras.metrics.*` in this module; any other
    `reset_states()` is reported for a look."""

    infos = (
        RuleInfo(
            code="TFM113",
            name="metric-reset-state",
            summary="metric.reset_states() -> metric.reset_state() (Keras metrics only)",
            message="`Metric.reset_states` is `reset_state` since Keras 2.5 (gone in Keras 3)",
            why=__doc__,
            before="import tensorflow as tf\ntrain_loss = tf.keras.metrics.Mean()\ntrain_loss.reset_states()\n",
            after="import tensorflow as tf\ntrain_loss = tf.keras.metrics.Mean()\ntrain_loss.reset_state()\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        if original.args or not on_object(original, "reset_states", self.ctx):
            return updated
        if not self.ctx.facts.made_by_any(original.func.value, is_keras_metric):
            self.ctx.report(original, "TFM113", "`reset_states()` on an object not known to be a Keras "
                            "metric: if it is one, call `reset_state()` (RNN layers keep `reset_states`)",
                            fixable=False, severity=Severity.INFO)
            return updated
        if not self.ctx.report(original, "TFM113"):
            return updated
        return updated.with_changes(func=updated.func.with_changes(attr=cst.Name("reset_state")))
