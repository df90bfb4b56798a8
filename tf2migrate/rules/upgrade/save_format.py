"""TFM664: `tf.keras.models.save_model(model, path)` in TF1 code wrote HDF5; TF2 writes a SavedModel."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import arg_value
from tf2migrate.rules.manifest import BY_NAME
from tf2migrate.rules.upgrade.common import called, literal_str

SAVE = BY_NAME["save_format"].names  # the names its manifest line wakes it on
SUFFIXES = (".h5", ".hdf5", ".keras")


class SaveFormat(Plugin):
    """TF1's Keras saved to HDF5 whatever the file name; TF2's Keras 2 writes a SavedModel directory unless
    the path ends in `.h5`/`.keras`, and Keras 3 (TF 2.16+) refuses any other path. tf_upgrade_v2 adds
    `save_format="h5"`, an argument Keras 3 no longer takes, so nothing is rewritten: on TF1 code a path that
    is not a literal `*.h5` / `*.keras` name is reported. Give the file an `.h5` suffix to keep the format
    (and the loaders that read it)."""

    claims = SAVE
    infos = (
        RuleInfo(
            code="TFM664",
            name="keras-save-format",
            summary="tf.keras.models.save_model(model, path) without an .h5 path in TF1 code (format changes)",
            message="TF1 saved HDF5 here; TF2 writes a SavedModel directory (Keras 3 refuses the path): "
            "name the file `*.h5`",
            fix="report only",
            why=__doc__,
            before="import tensorflow.compat.v1 as tf\ntf.keras.models.save_model(model, export_path)\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        literal, canonical = called(self.ctx, original, SAVE)
        if canonical is None or arg_value(original, "save_format", 4) is not None:
            return updated
        path = literal_str(arg_value(original, "filepath", 1))
        if path is not None and path.lower().endswith(SUFFIXES):
            return updated
        tf1 = self.ctx.tf1_semantics(literal)
        if tf1:
            self.ctx.report(original, "TFM664")
        elif tf1 is None:  # TF1's reading wrote HDF5, TF2's a SavedModel directory: both named, nothing changed
            self.ctx.report(original, "TFM650", "`tf.keras.models.save_model` means something else in TF1 and TF2 "
                            "code: as TF1 it writes HDF5 (as `save_format='h5'` or an `.h5` path would), as TF2 a "
                            "SavedModel directory; not upgraded: cannot tell whether this file is TF1 or TF2 code "
                            f"({self.ctx.tf_version.reason}); set `source = \"tf1\"` or `\"tf2\"` in "
                            "[tool.tf2migrate] (or --source)", fixable=False)
        return updated
