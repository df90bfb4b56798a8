"""TFM661: `tf.nn.fractional_max_pool(..., deterministic=, seed2=)` -> TF2's `seed=` alone."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import append_arg, keyword_arg
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import keyword, literal_bool, tf1_call_by_keyword

POOLS = BY_NAME["pool_seed"].names  # the names its manifest line wakes it on
TF1_ARGS = (None, None, None, None, "deterministic", "seed", "seed2", "name")


class PoolSeed(Plugin):
    """TF2's fractional pools take one `seed` (non-zero means deterministic) where TF1 took `deterministic`,
    `seed` and `seed2`. `seed2` and `deterministic` are dropped (positions after `overlapping` are passed by
    keyword, since they moved); `deterministic=True` without a seed becomes `seed=42`, as tf_upgrade_v2 does,
    and with a seed that may be 0 it is reported."""

    claims = POOLS
    infos = (
        RuleInfo(
            code="TFM661",
            name="fractional-pool-seed",
            summary="fractional_max_pool/avg_pool(deterministic=, seed2=) -> seed=",
            message="TF2's fractional pools take only `seed` (non-zero: deterministic)",
            why=__doc__,
            before="import tensorflow as tf\nout = tf.nn.fractional_max_pool(x, [1.0, 1.4, 1.4, 1.0], deterministic=True)\n",
            after="import tensorflow as tf\nout = tf.nn.fractional_max_pool(x, [1.0, 1.4, 1.4, 1.0], seed=42)\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        bound = tf1_call_by_keyword(self.ctx, original, updated, POOLS, TF1_ARGS)
        if bound is None:
            return updated
        literal, canonical, args = bound
        call = cst.Call(func=updated.func, args=args)
        deterministic, seed2 = keyword(call, "deterministic"), keyword(call, "seed2")
        if deterministic is None and seed2 is None:
            return updated
        wants = deterministic is not None and literal_bool(deterministic.value) is not False
        seed = keyword(call, "seed")
        if wants and seed is not None and not (isinstance(seed.value, cst.Integer) and seed.value.evaluated_value):
            self.ctx.report(original, "TFM661", "`deterministic` with a seed that may be 0: TF2 is deterministic "
                            "only with a non-zero `seed`; set one", fixable=False)
            return updated
        if not self.ctx.report(original, "TFM661"):
            return updated
        kept = [a for a in args if a is not deterministic and a is not seed2]
        if kept and args[-1] is not kept[-1]:
            kept[-1] = kept[-1].with_changes(comma=args[-1].comma)
        if wants and seed is None:
            kept = append_arg(kept, keyword_arg("seed", cst.Integer("42")))
        return updated.with_changes(args=kept)
