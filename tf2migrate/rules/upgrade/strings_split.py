"""TFM659: TF1's `tf.strings.split(s)` (a SparseTensor) -> `tf.strings.split(s).to_sparse()`."""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.ast_index import nodes

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import UNKNOWN_SOURCE, called, keyword, literal_str, positional, tf1_here

SPLIT = BY_NAME["strings_split"].names  # the names its manifest line wakes it on


class StringsSplit(Plugin):
    """TF1's `tf.strings.split(source, sep, maxsplit, result_type="SparseTensor")` returned a SparseTensor;
    TF2's `tf.strings.split(input, sep, maxsplit)` returns a RaggedTensor and has no `result_type`.
    The result is turned back into a SparseTensor with `.to_sparse()` (`result_type="SparseTensor"` dropped,
    `source=` becomes `input=`); any other `result_type` keeps the call on TF1's function,
    `tf.compat.v1.strings.split` (as tf_upgrade_v2 does for one it cannot read), and is reported: dropping
    `result_type="RaggedTensor"` would make the call read like a TF1 one again, and a second run would
    convert it back. The call reads the same in TF2 code, where
    `.to_sparse()` would change its result, so it is upgraded only where the call is known to be TF1; through
    `tensorflow.compat.v1` it still is TF1's function and needs nothing."""

    claims = SPLIT
    infos = (
        RuleInfo(
            code="TFM659",
            name="strings-split-ragged",
            summary="TF1 tf.strings.split(s) -> tf.strings.split(s).to_sparse() (TF2 returns a RaggedTensor)",
            message="TF2's `tf.strings.split` returns a RaggedTensor, TF1's a SparseTensor",
            why=__doc__,
            before="import tensorflow as tf\nsess = tf.Session()\nwords = tf.strings.split(lines, sep=' ')\n",
            after="import tensorflow as tf\nsess = tf.compat.v1.Session()\nwords = tf.strings.split(lines, sep=' ').to_sparse()\n",
        ),
        UNKNOWN_SOURCE,
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, SPLIT)
        if canonical is None or literal.startswith("tf.compat.v1.") or positional(updated) is None:
            return updated  # through compat.v1 it still is TF1's function
        if self._sparse_already(original):
            return updated
        kind = keyword(updated, "result_type")
        wanted = literal_str(kind.value) if kind is not None else "SparseTensor"
        if wanted != "SparseTensor":  # `result_type` is TF1's alone: the call is TF1's, whatever the file
            if self.ctx.report(original, "TFM659", "kept as `tf.compat.v1.strings.split` (TF1's function, the same "
                               "result): TF2's has no `result_type` and returns a RaggedTensor; drop the argument "
                               "there (and `.to_sparse()` the result where a SparseTensor is wanted)", fixable=True):
                return updated.with_changes(func=self.ctx.emit.compat_v1(canonical))
            return updated
        proven = kind is not None  # `result_type="SparseTensor"` is TF1's alone: the call is TF1's anywhere
        if not (proven or tf1_here(self.ctx, original, literal, "`tf.strings.split` (TF2's returns a RaggedTensor, "
                                   "TF1's a SparseTensor)")) or not self.ctx.report(original, "TFM659"):
            return updated
        args = [a.with_changes(keyword=cst.Name("input")) if a.keyword and a.keyword.value == "source" else a
                for a in updated.args if a is not kind]
        if kind is not None and args and kind is updated.args[-1]:
            args[-1] = args[-1].with_changes(comma=kind.comma)
        return cst.Call(func=cst.Attribute(value=updated.with_changes(args=args), attr=cst.Name("to_sparse")))

    def _sparse_already(self, call: cst.Call) -> bool:
        """`tf.strings.split(s).to_sparse()`: TF2 code (or this rule's own output)."""
        if "to_sparse" not in self.ctx.text:
            return False
        key = "strings_split.to_sparse"
        if key not in self.ctx.memo:
            self.ctx.memo[key] = {(n.value.lineno, n.value.col_offset + 1) for n in nodes(self.ctx.tree, ast.Attribute)
                                  if n.attr == "to_sparse" and isinstance(n.value, ast.Call)}
        place = self.ctx.positions.place(call)  # its column counts characters, `ast`'s bytes: ASCII lines agree
        return place is not None and (place.line, place.col) in self.ctx.memo[key]
