"""TFM112: `options.experimental_distribute.auto_shard = False` -> `auto_shard_policy = AutoShardPolicy.OFF`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo

POLICY = {"False": "OFF", "True": "AUTO"}


class AutoShard(Plugin):
    """TF 2.1 replaced the boolean `DistributeOptions.auto_shard` with `auto_shard_policy`, an
    `AutoShardPolicy` (AUTO, FILE, DATA, OFF). `False` is OFF and `True` is AUTO; any other value is
    reported because its meaning is only known at run time."""

    infos = (
        RuleInfo(
            code="TFM112",
            name="auto-shard-policy",
            summary="options.experimental_distribute.auto_shard = False -> auto_shard_policy = AutoShardPolicy.OFF",
            message="`auto_shard` is `auto_shard_policy` (an AutoShardPolicy) since TF 2.1",
            why=__doc__,
            before="import tensorflow as tf\noptions = tf.data.Options()\noptions.experimental_distribute.auto_shard = False\n",
            after="import tensorflow as tf\noptions = tf.data.Options()\n"
            "options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF\n",
        ),
    )

    def leave_assign(self, original: cst.Assign, updated: cst.Assign):
        if len(original.targets) != 1:
            return updated
        target = original.targets[0].target
        if not (isinstance(target, cst.Attribute) and target.attr.value == "auto_shard"):
            return updated
        value = original.value
        policy = POLICY.get(value.value) if isinstance(value, cst.Name) else None
        if policy is None:
            self.ctx.report(original, "TFM112", "`auto_shard` takes an AutoShardPolicy since TF 2.1: "
                            "set `auto_shard_policy` by hand", fixable=False)
            return updated
        if not self.ctx.report(original, "TFM112"):
            return updated
        new_value = self.ctx.emit.attribute(f"tf.data.experimental.AutoShardPolicy.{policy}")
        new_target = updated.targets[0].with_changes(
            target=updated.targets[0].target.with_changes(attr=cst.Name("auto_shard_policy"))
        )
        return updated.with_changes(targets=[new_target], value=new_value)
