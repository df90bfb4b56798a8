"""TFM663: TF1's `tf.nn.dilation2d(input, filter, strides, rates, padding)` (and `erosion2d`) -> TF2's
`(input, filters, strides, padding, data_format="NHWC", dilations=...)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import append_arg, keyword_arg
from tf2migrate.rules.upgrade.common import UNKNOWN_SOURCE, called, keyword, positional, tf1_here, to_keywords

# TF1 positional order, None where TF2 keeps the same argument at the same place
TF1_ARGS = {"tf.nn.dilation2d": (None, None, None, "rates", "padding", "name"),
            "tf.nn.erosion2d": (None, None, None, "rates", "padding", "name")}
RENAMES = {"filter": "filters", "kernel": "filters", "rates": "dilations"}


class Morphology(Plugin):
    """TF2's `dilation2d`/`erosion2d` put `padding` fourth, where TF1 had `rates`, call the kernel `filters`
    and the rates `dilations`, and require `data_format` (only "NHWC", TF1's only layout, exists). So the
    arguments from the fourth on are passed by keyword, renamed, and `data_format="NHWC"` is added
    (tf_upgrade_v2 only adds `data_format`, so TF1's positional rates land in `padding`). A positional call
    reads differently in TF2 code, so it is rewritten only where the call is known to be TF1."""

    claims = frozenset(TF1_ARGS)
    infos = (
        RuleInfo(
            code="TFM663",
            name="morphology-arguments",
            summary="tf.nn.dilation2d/erosion2d(input, filter, strides, rates, padding) -> TF2's order and names",
            message="TF2's `dilation2d`/`erosion2d` order and name their arguments differently and need `data_format`",
            why=__doc__,
            before="import tensorflow as tf\nsess = tf.Session()\n"
            "out = tf.nn.dilation2d(images, kernel, [1, 1, 1, 1], [1, 2, 2, 1], \"SAME\")\n",
            after="import tensorflow as tf\nsess = tf.compat.v1.Session()\nout = tf.nn.dilation2d(images, kernel, [1, 1, 1, 1], "
            "dilations=[1, 2, 2, 1], padding=\"SAME\", data_format=\"NHWC\")\n",
        ),
        UNKNOWN_SOURCE,
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, self.claims)
        if canonical is None or literal.startswith("tf.compat.v1.") or keyword(updated, "data_format") is not None:
            return updated  # through compat.v1 TF1's own function; with data_format, TF2's call already
        args = positional(updated)
        if args is None or len(args) > 6:
            return updated
        tf1_words = any(a.keyword is not None and a.keyword.value in RENAMES for a in updated.args)
        if len(args) > 3 and not tf1_words and not tf1_here(self.ctx, original, literal, f"`{canonical}` with "
                                                            "a fourth positional argument (TF1's rates, TF2's padding)"):
            return updated
        if not tf1_words and len(args) <= 3:
            return updated  # TF2 would reject it for lack of padding: nothing to read
        if not self.ctx.report(original, "TFM663"):
            return updated
        moved = [a.with_changes(keyword=cst.Name(RENAMES[a.keyword.value]))
                 if a.keyword is not None and a.keyword.value in RENAMES else a
                 for a in to_keywords(updated.args, TF1_ARGS[canonical])]
        return updated.with_changes(args=append_arg(moved, keyword_arg("data_format", cst.SimpleString('"NHWC"'))))
