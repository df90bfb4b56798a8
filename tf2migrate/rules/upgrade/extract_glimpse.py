"""TFM662: `tf.image.extract_glimpse(..., uniform_noise=u)` -> `noise="uniform" | "gaussian"`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import arg_value, keyword_arg
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import choose, keyword, literal_bool, tf1_call_by_keyword

GLIMPSE = BY_NAME["extract_glimpse"].names  # the names its manifest line wakes it on
TF1_ARGS = (None, None, None, None, None, "uniform_noise", "name", "noise")


class ExtractGlimpse(Plugin):
    """TF2's `extract_glimpse(input, size, offsets, centered, normalized, noise, name)` says `noise="uniform"`
    or `"gaussian"` where TF1 said `uniform_noise=True/False` (and the positions after `normalized` moved, so
    they are passed by keyword). TF 2.3 also fixed the glimpse for `centered=False, normalized=False` in the
    TF2 op only: such a call is kept on TF1's op, `tf.compat.v1.image.extract_glimpse`, and reported."""

    claims = GLIMPSE
    infos = (
        RuleInfo(
            code="TFM662",
            name="extract-glimpse-noise",
            summary="tf.image.extract_glimpse(uniform_noise=u) -> noise=\"uniform\" / \"gaussian\"",
            message="TF2's `extract_glimpse` takes `noise=\"uniform\"|\"gaussian\"` instead of `uniform_noise`",
            fix="partial",
            why=__doc__,
            before="import tensorflow as tf\ng = tf.image.extract_glimpse(images, [8, 8], offsets, uniform_noise=False)\n",
            after="import tensorflow as tf\ng = tf.image.extract_glimpse(images, [8, 8], offsets, noise=\"gaussian\")\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        bound = tf1_call_by_keyword(self.ctx, original, updated, GLIMPSE, TF1_ARGS)
        if bound is None:
            return updated
        literal, canonical, args = bound
        call = cst.Call(func=updated.func, args=args)
        centered, normalized = arg_value(call, "centered", 3), arg_value(call, "normalized", 4)
        if all(v is not None and literal_bool(v) is not True for v in (centered, normalized)):
            message = ("kept as `tf.compat.v1.image.extract_glimpse`: TF 2.3 changed the TF2 op's result for "
                       "`centered=False, normalized=False`")
            if self.ctx.report(original, "TFM662", message):
                return updated.with_changes(func=self.ctx.emit.compat_v1(canonical))
            return updated
        uniform = keyword(call, "uniform_noise")
        if uniform is None and args == list(updated.args):
            return updated
        if uniform is not None and keyword(call, "noise") is not None:
            return updated  # both given: TF1 used `noise`; TF2 rejects `uniform_noise`, left for a human
        if not self.ctx.report(original, "TFM662"):
            return updated
        noise = keyword_arg("noise", choose(uniform.value, "uniform", "gaussian")).with_changes(comma=uniform.comma) \
            if uniform is not None else None
        return updated.with_changes(args=[noise if a is uniform else a for a in args])
