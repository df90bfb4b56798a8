"""An Estimator the program builds and never uses: the true cause when its model_fn blocks the conversion.

`my_classifier = tf.estimator.Estimator(model_fn=my_model, ...)` that nothing trains, evaluates, predicts with or
exports (survey 43: the program trains a DNNClassifier instead, and `my_model` uses `tf.metrics.auc`): TF1 never
called that model_fn, so what blocks it blocks nothing the program runs. The user reads that first, at the
model_fn (its findings follow there), not an auc to convert by hand.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import references


def cause(prog, ctx, module: cst.Module) -> Optional[Unreadable]:
    """TFM302 at the model_fn's name when the program's Estimator variable is only assigned and another Estimator
    of the module is what the program runs, else None (a lone Estimator nothing uses: nothing to say more)."""
    from tf2migrate.rules.estimator.program.analyze import is_estimator
    from tf2migrate.rules.estimator.reading.uses import assignment

    others = [v for v in (assignment(s)[1] for s in module.body) if v is not prog.call and is_estimator(v, ctx)]
    fn = prog.bound.get("model_fn") if prog.bound else None
    if not others:
        return None
    if not prog.var or not isinstance(fn, cst.Name) or not isinstance(prog.defs.get(fn.value), cst.FunctionDef):
        return None
    if references(module, prog.var, plain=True) != 1:  # its assignment only
        return None
    return Unreadable(prog.defs[fn.value].name, f"`{fn.value}` is the model_fn of `{prog.var}`, an Estimator "
                      "this program never trains, evaluates, predicts with or exports: TF1 never called it, so what "
                      "blocks it here blocks nothing the program runs; delete that Estimator, then convert")
