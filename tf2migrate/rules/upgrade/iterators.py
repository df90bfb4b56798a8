"""TFM657: `dataset.make_one_shot_iterator()` -> `tf.compat.v1.data.make_one_shot_iterator(dataset)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.imports import dotted
from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.receivers import module_root

METHODS = ("make_one_shot_iterator", "make_initializable_iterator")


class DatasetIterators(Plugin):
    """TF2's `tf.data.Dataset` has no `make_one_shot_iterator()` / `make_initializable_iterator()`
    methods; the TF1 behaviour (an iterator op in the graph) lives on as the functions
    `tf.compat.v1.data.make_one_shot_iterator(dataset)` and `make_initializable_iterator(dataset)`. In eager
    TF2 code, `iter(dataset)` is the idiomatic replacement: change to it when the graph code goes."""

    claims = frozenset("*." + name for name in METHODS)  # the tables' TFM607 "convert by hand" is not for these
    infos = (
        RuleInfo(
            code="TFM657",
            name="dataset-iterator-method",
            summary="dataset.make_one_shot_iterator() -> tf.compat.v1.data.make_one_shot_iterator(dataset)",
            message="`Dataset.make_one_shot_iterator()` is gone in TF2: the compat.v1 function keeps TF1's iterator",
            why=__doc__,
            before="import tensorflow as tf\nfeatures, labels = dataset.make_one_shot_iterator().get_next()\n",
            after="import tensorflow as tf\n"
            "features, labels = tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        func = original.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in METHODS or original.args:
            return updated
        if not decide(self.ctx, original, dotted(func.value), self.ctx.shadowed):
            return updated
        function = self.ctx.emit.compat_v1("tf.data." + func.attr.value)
        receiver = updated.func.value  # its own parentheses kept, as tf_upgrade_v2 keeps them
        return cst.Call(func=function, args=[cst.Arg(receiver)], lpar=updated.lpar, rpar=updated.rpar)


def decide(ctx, node, receiver, shadowed) -> bool:
    """Is `receiver.make_one_shot_iterator()` upgraded? Not on a module (`receivers.module_root`: `receiver` is
    its dotted name, `shadowed(head)` says a local hides `head`). Its finding made. Shared with the splice twin
    (rules/code_splice_rules.py)."""
    return not module_root(ctx, receiver, shadowed) and ctx.report(node, "TFM657")
