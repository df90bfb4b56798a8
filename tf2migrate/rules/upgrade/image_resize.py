"""TFM653: `tf.image.resize_bilinear(images, size)` and friends -> `tf.image.resize(images, size, method=...)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import append_arg, keyword_arg
from tf2migrate.rules.upgrade.common import called, literal_bool, positional, to_keywords

METHODS = {"resize_area": "AREA", "resize_bicubic": "BICUBIC", "resize_bilinear": "BILINEAR",
           "resize_nearest_neighbor": "NEAREST_NEIGHBOR"}
RESIZES = frozenset("tf.image." + name for name in METHODS)
TF1_ARGS = ("images", "size", "align_corners", "name", "half_pixel_centers")


class ImageResize(Plugin):
    """TF2 has one `tf.image.resize(images, size, method=...)`. It always samples at half-pixel centers
    and has no `align_corners`, while the TF1 ops default to `half_pixel_centers=False`: converting
    `resize_bilinear(images, size)` as tf_upgrade_v2 does shifts every output pixel by half an input
    pixel. So a call becomes `tf.image.resize` only when the numbers stay the same (`resize_area` without
    `align_corners`; bilinear, bicubic and nearest-neighbor with `half_pixel_centers=True`). Any other call
    is kept on the TF1 op, which TF2 still has as `tf.compat.v1.image.resize_*` (same numbers), and
    reported: switch to `tf.image.resize` when the half-pixel shift is acceptable (e.g. before retraining)."""

    claims = RESIZES
    infos = (
        RuleInfo(
            code="TFM653",
            name="image-resize-method",
            summary="tf.image.resize_bilinear(...) -> tf.image.resize(..., method=...) when the numbers stay the same",
            message="TF2 resizes with `tf.image.resize(images, size, method=...)`",
            fix="partial",
            why=__doc__,
            before="import tensorflow as tf\nsmall = tf.image.resize_area(images, [32, 32])\n"
            "big = tf.image.resize_bilinear(images, [64, 64], half_pixel_centers=True)\n",
            after="import tensorflow as tf\nsmall = tf.image.resize(images, [32, 32], method=tf.image.ResizeMethod.AREA)\n"
            "big = tf.image.resize(images, [64, 64], method=tf.image.ResizeMethod.BILINEAR)\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, RESIZES)
        if canonical is None:
            return updated
        name = canonical.rsplit(".", 1)[1]
        args = positional(updated)
        bound = TF1_ARGS[:len(args)] + tuple(a.keyword.value for a in updated.args if a.keyword) if args is not None else ()
        if args is None or len(args) > len(TF1_ARGS) or not _binds(bound):
            what = "*args" if args is None else "not TF1's `images, size, align_corners, name, half_pixel_centers`"
            self.ctx.report(original, "TFM653", f"`tf.image.{name}`: arguments that cannot be bound ({what}): "
                            "convert to `tf.image.resize` by hand", fixable=False)
            return updated
        args = to_keywords(updated.args, (None, None) + TF1_ARGS[2:])
        problem = kept_v1(name, {a.keyword.value: literal_bool(a.value) for a in args if a.keyword})
        if problem:
            if literal.startswith("tf.compat.v1."):
                return updated  # already the TF2 spelling of the TF1 op: same numbers, nothing to say
            if self.ctx.report(original, "TFM653", f"kept as `tf.compat.v1.image.{name}` (same numbers): {problem}",
                               fixable=True):
                return updated.with_changes(func=self.ctx.emit.compat_v1(canonical))
            return updated
        if not self.ctx.report(original, "TFM653"):
            return updated
        kept = [a for a in args if a.keyword is None or a.keyword.value in ("images", "size", "name")]
        kept[-1] = kept[-1].with_changes(comma=args[-1].comma)
        method = self.ctx.emit.attribute("tf.image.ResizeMethod." + METHODS[name])
        return updated.with_changes(func=self.ctx.emit.like(original.func, "tf.image.resize"),
                                    args=append_arg(kept, keyword_arg("method", method)))


def kept_v1(name: str, given: dict) -> str:
    """Why the call stays on TF1's op ("" when `tf.image.resize` gives the same numbers). `given`: each
    keyword the call binds (positional ones named by TF1's order) -> its literal boolean, else None. Shared
    with the splice twin (rules/splice_upgrades.py)."""
    if "align_corners" in given and given["align_corners"] is not False:
        return "TF2's `tf.image.resize` has no `align_corners`"
    if name == "resize_area" or given.get("half_pixel_centers") is True:
        return ""
    return ("TF2's `tf.image.resize` samples at half-pixel centers, this call does not "
            "(`half_pixel_centers=False`, the TF1 default)")


def _binds(bound: tuple) -> bool:
    """Do these argument names (positional ones by TF1's order, then the keywords) bind TF1's signature:
    each known, none twice, `images` and `size` given?"""
    return set(bound) <= set(TF1_ARGS) and len(set(bound)) == len(bound) and {"images", "size"} <= set(bound)
