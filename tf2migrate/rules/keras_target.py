"""TFM320 under `--target tf-keras`: a rewritten file that uses Keras gets the switch that makes `tf.keras`
Keras 2 on TF 2.16+ (the tf-keras package, TF_USE_LEGACY_KERAS), placed before TensorFlow is imported.

Files the rewrite leaves unchanged are not touched: the switch belongs to a migration, not to every file
that mentions Keras. Estimator conversions get it from the Estimator rule (estimator/target.py), which
also writes it when `--target keras3` cannot be honoured (the shim, fit under ParameterServerStrategy).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.estimator.planning import target


class KerasTarget(Plugin):
    infos = ()   # TFM320 is declared with the Estimator codes (estimator/codes.py)

    def reads_whole_module(self) -> bool:
        return self.ctx.selection.target == target.TF_KERAS  # it reads the whole new code

    def leave_module(self, original: cst.Module, updated: cst.Module):
        ctx = self.ctx
        if ctx.selection.target != target.TF_KERAS or updated is original or not original.body:
            return updated
        code = updated.code
        if code == ctx.text or "keras" not in code or "TF_USE_LEGACY_KERAS" in code:
            return updated
        first = next((s for s in original.body if not target.is_docstring_or_future(s)), original.body[0])
        if not ctx.report(first, "TFM320", target.ASKED, severity=Severity.INFO):
            return updated
        return updated.with_changes(body=target.with_legacy_switch(list(updated.body), updated))
