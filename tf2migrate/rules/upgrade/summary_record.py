"""TFM615: `tf.contrib.summary.always_record_summaries()` / `never_record_summaries()` ->
`tf.compat.v2.summary.record_if(True)` / `record_if(False)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.upgrade.common import called

_CONTRIB = "tf.contrib.summary."
RECORD = {_CONTRIB + "always_record_summaries": "True", _CONTRIB + "never_record_summaries": "False"}


class SummaryRecording(Plugin):
    """`tf.contrib` is gone in TF2. Its `always_record_summaries()` and `never_record_summaries()` are the
    context managers that TF2 spells `tf.summary.record_if(True)` and `record_if(False)` (the condition is
    checked where each summary is written, as contrib's was); written `tf.compat.v2.summary.record_if`, as
    tf_upgrade_v2 writes them, so that TF1 code, whose `tf.summary` is TF1's, gets TF2's function. The two took no
    arguments: a call with any is left and reported."""

    claims = frozenset(RECORD)
    infos = (
        RuleInfo(
            code="TFM615",
            name="contrib-summary-recording",
            summary="tf.contrib.summary.always_record_summaries() -> tf.compat.v2.summary.record_if(True) "
            "(never_record_summaries: False)",
            message="`tf.contrib.summary` is gone in TF2: `record_if` says when summaries are written",
            why=__doc__,
            before="import tensorflow as tf\nwith tf.contrib.summary.always_record_summaries():\n"
            "    tf.contrib.summary.scalar(\"loss\", loss, step=step)\n",
            after="import tensorflow as tf\nwith tf.compat.v2.summary.record_if(True):\n"
            "    tf.compat.v2.summary.scalar(name=\"loss\", data=loss, step=step)\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        _, canonical = called(self.ctx, original, self.claims)
        if canonical is None:
            return updated
        if updated.args:
            self.ctx.report(original, "TFM615", f"`{canonical}` takes no arguments: convert it to "
                            "`tf.summary.record_if(condition)` by hand", fixable=False)
            return updated
        if not self.ctx.report(original, "TFM615"):
            return updated
        return updated.with_changes(func=self.ctx.emit.attribute("tf.compat.v2.summary.record_if"),
                                    args=[cst.Arg(cst.Name(RECORD[canonical]))])
