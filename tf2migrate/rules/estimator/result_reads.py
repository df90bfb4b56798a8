"""What the program reads from `evaluate`'s and `predict`'s results, checked against what Keras will return.

`Estimator.evaluate` returned a dict with `loss`, `global_step`, the eval metrics and, for a canned estimator,
`average_loss`, `label/mean`, `prediction/mean` and more; `model.evaluate(return_dict=True)` returns `loss`
and the compiled metrics, under their TF1 keys. A key the program reads that Keras will not return would be
a KeyError in the migrated program, so it blocks the conversion, on its line. A canned estimator's `predict`
yielded one dict per example (`predictions`, `class_ids`, `probabilities`, ...); the Keras model returns
its output batch, so a program that iterates a canned estimator's predictions blocks too.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator import plans
from tf2migrate.rules.estimator.args import Unreadable
from tf2migrate.rules.estimator.uses import assignment, method_of


def blockers(module: cst.Module, prog) -> list:
    """Unreadable for each read the converted program could not answer (see the module docstring)."""
    var = prog.var
    results = {name for stmt in module.body for name, value in [assignment(stmt)]
               if name and method_of(value, var) == "evaluate"}
    known = {"loss"} | {_key(m) for m in (prog.model.metrics if prog.model is not None else ())}
    found = []

    class _Reads(cst.CSTVisitor):
        def visit_Subscript(self, node):
            key = _string_key(node)
            if isinstance(node.value, cst.Name) and node.value.value in results and key is not None \
                    and key not in known:
                found.append(Unreadable(node, f"the program reads `{key}` from evaluate's results, which the Keras "
                                        f"model does not report (it reports {', '.join(sorted(known))}): read "
                                        "another key, or add the metric to the model by hand"))

        def visit_Call(self, node):
            if plans.canned(prog.model) and method_of(node, var) == "predict":
                found.append(Unreadable(node, "a canned estimator's predict yielded one dict per example "
                                        "(predictions, class_ids, probabilities...); the Keras model returns its "
                                        "output batch: convert the predictions by hand"))

    module.visit(_Reads())
    return found


def _key(metric):
    key = metric.key
    return key.evaluated_value if isinstance(key, cst.SimpleString) else None


def _string_key(node: cst.Subscript):
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    value = node.slice[0].slice.value
    return value.evaluated_value if isinstance(value, cst.SimpleString) else None
