"""TFM108: `strategy.make_dataset_iterator(ds)` -> `iter(strategy.experimental_distribute_dataset(ds))`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.receivers import on_object


class MakeDatasetIterator(Plugin):
    """TF1 strategies returned an initializable iterator; TF2 distributes the dataset itself and a
    plain Python `iter()` over the distributed dataset gives the iterator (no initializer to run)."""

    infos = (
        RuleInfo(
            code="TFM108",
            name="make-dataset-iterator",
            summary="strategy.make_dataset_iterator(ds) -> iter(strategy.experimental_distribute_dataset(ds))",
            message="`make_dataset_iterator` is gone in TF2: iterate over `experimental_distribute_dataset(ds)`",
            why=__doc__,
            before="import tensorflow as tf\nit = strategy.make_dataset_iterator(dataset)\n",
            after="import tensorflow as tf\nit = iter(strategy.experimental_distribute_dataset(dataset))\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        if not on_object(original, "make_dataset_iterator", self.ctx):
            return updated
        if not self.ctx.report(original, "TFM108"):
            return updated
        inner = updated.with_changes(
            func=updated.func.with_changes(attr=cst.Name("experimental_distribute_dataset"))
        )
        return cst.Call(func=cst.Name("iter"), args=[cst.Arg(inner)])
