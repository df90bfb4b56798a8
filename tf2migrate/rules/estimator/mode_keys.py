"""`tf.estimator.ModeKeys.TRAIN` left outside the model_fn of a converted program -> its value, `"train"`.

Input-function builders take the mode too (`read_dataset(prefix, tf.estimator.ModeKeys.TRAIN, batch_size)`,
`if mode == tf.estimator.ModeKeys.TRAIN: dataset = dataset.shuffle(...)`): they shuffle and repeat for
training only. ModeKeys are plain strings ("train", "eval", "infer"), so once the Estimator program is
converted the constants become those strings in whatever statements keep them: the same comparisons, the
same values, and no `tf.estimator` left for TF 2.16 to miss.
"""
from __future__ import annotations

import libcst as cst

CODE = "TFM334"
VALUES = {"tf.estimator.ModeKeys.TRAIN": "train", "tf.estimator.ModeKeys.EVAL": "eval",
          "tf.estimator.ModeKeys.PREDICT": "infer"}


def strings(body: list, ctx) -> tuple:
    """(body with every ModeKeys constant spelled as its string, how many were replaced)."""
    swap = _Swap(ctx)
    out = [stmt.visit(swap) for stmt in body]
    return out, swap.count


class _Swap(cst.CSTTransformer):
    def __init__(self, ctx) -> None:
        super().__init__()
        self.ctx, self.count = ctx, 0

    def leave_Attribute(self, original, updated):
        value = VALUES.get(self.ctx.resolve(original)[1])
        if value is None:
            return updated
        self.count += 1
        return cst.SimpleString(f'"{value}"')
