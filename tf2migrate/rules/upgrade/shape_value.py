"""TFM667: `x.shape[-1].value` (TF1's `Dimension.value`) -> `tf.compat.dimension_value(x.shape[-1])`."""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.upgrade.shape_places import SHAPE_ATTRS, SHAPE_CALLS, matches, places


class ShapeValue(Plugin):
    """A TF1 `TensorShape` holds `Dimension`s, so code reads a static size as `x.shape[-1].value` (BERT:
    `hidden_size = output_layer.shape[-1].value`). TF2 shapes hold plain ints (or None), and `.value`
    raises AttributeError, in graph mode too. `tf.compat.dimension_value(x.shape[-1])` (the function
    `tf.compat.v1.dimension_value` is) returns the int under either behaviour, so in a file known to be TF1
    the `.value` is replaced by it, written through the file's own TensorFlow alias. Elsewhere (a `.value`
    on something that may not be a TF shape) it is reported, not rewritten."""

    infos = (
        RuleInfo(
            code="TFM667",
            name="dimension-value",
            summary="x.shape[i].value / x.get_shape()[i].value -> tf.compat.dimension_value(x.shape[i])",
            message="`Dimension.value` is gone in TF2 (shapes hold ints): use `tf.compat.dimension_value`",
            why=__doc__,
            before="import tensorflow as tf\n\n\ndef head(x, num_labels):\n"
                   "    hidden_size = x.shape[-1].value\n"
                   "    w = tf.get_variable(\"w\", [num_labels, hidden_size])\n"
                   "    return tf.matmul(x, w, transpose_b=True)\n",
            after="import tensorflow as tf\n\n\ndef head(x, num_labels):\n"
                  "    hidden_size = tf.compat.dimension_value(x.shape[-1])\n"
                  "    w = tf.compat.v1.get_variable(\"w\", [num_labels, hidden_size])\n"
                  "    return tf.matmul(x, w, transpose_b=True)\n",
        ),
    )

    def leave_reference(self, original, updated):
        if not (isinstance(original, cst.Attribute) and original.attr.value == "value"
                and _dimension(original.value)):
            return updated
        at = self._ast_place(original)
        if not self.ctx.tf1_semantics(None):
            self._report_only(at)
            return updated
        if not self.ctx.report(at, "TFM667"):
            return updated
        function = self._dimension_value()
        dimension = updated.value.with_changes(lpar=[], rpar=[])
        return cst.Call(func=function, args=[cst.Arg(dimension)], lpar=updated.lpar, rpar=updated.rpar)

    def _report_only(self, at) -> None:
        answer = self.ctx.tf1_semantics(None)
        why = "this file is TF2 code" if answer is False else (
            f"cannot tell whether this file is TF1 code ({self.ctx.tf_version.reason})")
        self.ctx.report(at, "TFM667", "`.value` of a shape dimension raises AttributeError on TF2 "
                        f"shapes; not rewritten: {why}. `tf.compat.dimension_value(...)` works on both",
                        fixable=False)

    def report_from_ast(self) -> None:
        """A file not known to be TF1 whose only places are these (the pre-pass proved it: engine/wake.py):
        the same findings as the traversal, at the same `ast` nodes, without LibCST."""
        if self.ctx.tf1_semantics(None):
            return
        for node in places(self.ctx.tree) or ():
            self._report_only(node)

    def _ast_place(self, original):
        """The same `.value` in the file's `ast` tree (the k-th in source order, as the traversal meets them),
        so that a report needs no whole-module LibCST position pass (2.7 s on a 4,000-line file); the LibCST
        node when the two trees do not pair up."""
        if self.ctx.tree is None:
            return original
        found = self.ctx.memo.setdefault("TFM667 places", {"ast": None, "met": 0})
        if found["ast"] is None:
            found["ast"] = matches(self.ctx.tree)
        k, found["met"] = found["met"], found["met"] + 1
        if k >= len(found["ast"]) or any(isinstance(n, ast.Attribute) and n.attr == "value"
                                         for n in ast.walk(found["ast"][k].value)):
            return original  # out of step, or nested: LibCST places it
        return found["ast"][k]

    def _dimension_value(self) -> cst.BaseExpression:
        """`tf.compat.dimension_value`: the same function as `tf.compat.v1.dimension_value`, in TF 1.13+ and
        TF2 and under `tensorflow.compat.v1` too, so it is written through the file's own alias (no new
        import) and no table renames it again."""
        v2, v1 = self.ctx.imports.v2_alias(), self.ctx.imports.v1_alias()
        if v2 is None and v1 is not None:
            return cst.parse_expression(f"{v1}.compat.dimension_value")
        return self.ctx.emit.attribute("tf.compat.dimension_value")


def _dimension(node) -> bool:
    """`<shape>[i]` with one plain index, where `<shape>` is `.shape`, `.dims` or `.get_shape()`."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)):
        return False
    if isinstance(node.slice[0].slice.value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return False  # `config.shape["value"]`: a mapping, not a shape
    shape = node.value
    if isinstance(shape, cst.Attribute):
        return shape.attr.value in SHAPE_ATTRS
    return isinstance(shape, cst.Call) and not shape.args and isinstance(shape.func, cst.Attribute) \
        and shape.func.attr.value in SHAPE_CALLS
