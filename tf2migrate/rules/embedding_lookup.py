"""TFM205: `tf.nn.embedding_lookup` relying on TF1's default `partition_strategy="mod"`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo

# canonical name -> index of `partition_strategy` in the TF1 signature
LOOKUPS = {"tf.nn.embedding_lookup": 2, "tf.nn.embedding_lookup_sparse": 3}


class EmbeddingLookupStrategy(Plugin):
    """TF1 `embedding_lookup` over a partitioned variable defaulted to `partition_strategy="mod"`
    (id i lives in shard i % n). TF2 always uses the "div" layout (contiguous ranges) and has no
    argument for it; tf_upgrade_v2 drops the argument with a warning, which silently changes which
    shard serves which id and so breaks restored checkpoints. The call is reported, never changed:
    keep the TF1 layout by re-partitioning the checkpoint, or confirm the params are not partitioned."""

    wake = "embedding_lookup"
    infos = (
        RuleInfo(
            code="TFM205",
            name="embedding-lookup-mod",
            summary='embedding_lookup relying on partition_strategy="mod" (TF2 uses "div")',
            message='relies on TF1\'s partition_strategy="mod"; TF2 always uses "div": with partitioned '
            "params each id is read from a different shard",
            fix="report only",
            why=__doc__,
            before="import tensorflow.compat.v1 as tf1\nrows = tf1.nn.embedding_lookup(params, ids)\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        _, canonical = self.ctx.resolve(original.func)
        index = LOOKUPS.get(canonical)
        if index is None:
            return updated
        positional = [a for a in original.args if a.keyword is None and not a.star]
        given = [a for a in original.args if a.keyword and a.keyword.value == "partition_strategy"]
        if len(positional) > index:
            given.append(positional[index])
        if any(a.star for a in original.args):
            return updated
        if not given or _is_mod(given[0].value):
            self.ctx.report(original, "TFM205")
        return updated


def _is_mod(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.SimpleString) and value.evaluated_value == "mod"
