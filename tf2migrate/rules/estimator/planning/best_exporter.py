"""`EvalSpec(exporters=BestExporter(...))` -> the model saved after its evaluation, as a LatestExporter is (TFM354).

A BestExporter exported a SavedModel after each evaluation whose loss was the lowest so far (its default
compare_fn; the first evaluation always exports) to `model_dir/export/<name>/<timestamp>`. The converted
train_and_evaluate is fit, then one evaluate: the model it evaluates is the one saved, in TF1's
`model_dir/export/<name>` folder (exporters.py). That is TF1's best export when TF1 evaluated once, as a short
local run does (evaluations follow checkpoints); with several, TF1 kept the one of the lowest loss, which the
warning says. A custom compare_fn, event_file_pattern, assets_extra or as_text is not followed: TFM302.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

BEST = "tf.estimator.BestExporter"
PARAMS = ("name", "serving_input_receiver_fn", "event_file_pattern", "compare_fn", "assets_extra", "as_text",
          "exports_to_keep")
DEFAULT_NAME = '"best_exporter"'
CODE = "TFM354"
NOTE = ("BestExporter exported after each evaluation of a lower loss; the converted program evaluates once, after "
        "training, and saves the model it evaluated there: TF1's best export when TF1 evaluated once, its last "
        "otherwise (TF1 kept the export of the lowest loss): save from a callback that watches val_loss to keep that")


def read(call: cst.Call) -> tuple:
    """(call, name expression) of a BestExporter the conversion follows; raises Unreadable."""
    bound = bind(call, PARAMS, BEST)
    if set(bound) - {"name", "serving_input_receiver_fn", "exports_to_keep"}:
        raise Unreadable(call, "BestExporter with compare_fn/event_file_pattern/assets_extra/as_text: save the model "
                         "by hand")
    return call, bound.get("name", cst.SimpleString(DEFAULT_NAME))


def notes(exporters: list, ctx) -> list:
    """TFM354 at each BestExporter of the converted ones."""
    return [(call, CODE, NOTE) for call, _ in exporters if ctx.resolve(call.func)[1] == BEST]
