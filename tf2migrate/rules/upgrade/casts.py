"""TFM652: `tf.to_float(x)` and the other `tf.to_*` casts -> `tf.cast(x, dtype=tf.float32)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import append_arg, keyword_arg
from tf2migrate.rules.upgrade.common import called, positional, to_keywords

DTYPES = {"to_bfloat16": "bfloat16", "to_complex128": "complex128", "to_complex64": "complex64",
          "to_double": "float64", "to_float": "float32", "to_int32": "int32", "to_int64": "int64"}
CASTS = frozenset("tf." + name for name in DTYPES)


class Casts(Plugin):
    """TF2 removed the `tf.to_float`, `tf.to_int32`, ... shortcuts; `tf.cast(x, dtype)` does the same
    (`to_float` is float32, `to_double` float64). A positional `name` becomes `name=`, and the dtype is
    written through the file's own `tensorflow` alias."""

    claims = CASTS
    infos = (
        RuleInfo(
            code="TFM652",
            name="to-dtype-cast",
            summary="tf.to_float(x) -> tf.cast(x, dtype=tf.float32) (and to_int32, to_int64, to_double, ...)",
            message="`tf.to_*` casts are gone in TF2: use `tf.cast`",
            why=__doc__,
            before="import tensorflow as tf\nmask = tf.to_float(tf.equal(labels, 0), 'mask')\n",
            after="import tensorflow as tf\nmask = tf.cast(tf.equal(labels, 0), name='mask', dtype=tf.float32)\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        _, canonical = called(self.ctx, original, CASTS)
        if canonical is None or not decide(self.ctx, original, canonical, positional(updated)):
            return updated
        dtype = self.ctx.emit.attribute("tf." + DTYPES[canonical[3:]])
        new_args = append_arg(to_keywords(updated.args, (None, "name")), keyword_arg("dtype", dtype))
        return updated.with_changes(func=self.ctx.emit.like(original.func, "tf.cast"), args=new_args)


def decide(ctx, node, canonical: str, args) -> bool:
    """Is the call upgraded? Its finding made. `args`: the positional arguments, None with a spread. Shared
    with the splice twin (rules/code_splice_rules.py)."""
    if args is None or len(args) > 2:
        ctx.report(node, "TFM652", f"`{canonical}` is gone in TF2 and this call's arguments cannot "
                   "be bound (*args, or too many): use `tf.cast(x, dtype)` by hand", fixable=False)
        return False
    return ctx.report(node, "TFM652")
