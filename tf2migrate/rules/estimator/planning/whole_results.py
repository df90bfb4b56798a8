"""evaluate's results read whole (`print(results)`, `for key in sorted(results)`): the keys Keras does not give back.

`Estimator.evaluate` returned `loss`, `global_step` and the eval metrics; a canned estimator's head added its own
(measured on TF 2.15's estimator: a binary classifier's accuracy, accuracy_baseline, auc, auc_precision_recall,
average_loss, label/mean, precision, prediction/mean and recall; a multi-class one's accuracy and average_loss; a
regressor's average_loss, label/mean and prediction/mean). `model.evaluate(return_dict=True)` gives back `loss`
and the compiled metrics. A key read by name is checked (result_reads.py); a program that prints, iterates or
passes on the whole dict reads every key: a canned model compiles the head's metrics it can compute
(canned_results.py) and TFM353 names the keys the migrated program no longer prints (it still runs). A model_fn's
eval_metric_ops are compiled under their keys, so there only `global_step` is not given back: not noted.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import canned_results, plan_types
from tf2migrate.rules.estimator.planning.result_reads import TRAIN_AND_EVALUATE
from tf2migrate.rules.estimator.reading.uses import callee, method_of

CODE = "TFM353"
BINARY = ("accuracy", "accuracy_baseline", "auc", "auc_precision_recall", "average_loss", "label/mean", "precision",
          "prediction/mean", "recall")
MULTI_CLASS = ("accuracy", "average_loss")
REGRESSION = ("average_loss", "label/mean", "prediction/mean")


def notes(module: cst.Module, prog, ctx) -> list:
    """(node, TFM353, message) at the first whole read of evaluate's results, if the program has one."""
    if not plan_types.canned(prog.model):
        return []  # a model_fn's eval_metric_ops are compiled under their keys: only global_step is not given back
    found = _Whole(prog.var, _results(module, prog.var, ctx))
    module.visit(found)
    if not found.reads:
        return []
    node = found.reads[0]
    head = REGRESSION if not prog.model.classes else BINARY if prog.model.classes == 2 else MULTI_CLASS
    for key in head:  # the ones Keras computes from the logits become metrics of those names (canned_results.py)
        canned_results.add_read(prog.model, key, node)
    given = {"loss"} | {_key(m) for m in prog.model.metrics}
    lost = [key for key in head if key not in given]
    return [(node, CODE, f"the program reads evaluate's results whole: Keras' evaluate(return_dict=True) gives back "
             f"{', '.join(sorted(k for k in given if k))}, not the canned head's {', '.join(lost)} (nor global_step): "
             "add the metrics it needs to the model by hand")] if lost else []


def _key(metric):
    key = metric.key
    return key.evaluated_value if isinstance(key, cst.SimpleString) else None


def _results(module, var, ctx) -> set:
    """Names given evaluate's dict (or train_and_evaluate's first item) and assigned nothing else."""
    given, other = set(), set()

    class _Assigns(cst.CSTVisitor):
        def visit_Assign(self, node):
            for target in (t.target for t in node.targets):
                if isinstance(target, cst.Name):
                    (given if method_of(node.value, var) == "evaluate" else other).add(target.value)
                elif isinstance(target, (cst.Tuple, cst.List)) and target.elements \
                        and isinstance(target.elements[0].value, cst.Name):  # `metrics, exports = ...`
                    first = target.elements[0].value.value
                    (given if callee(node.value, ctx) == TRAIN_AND_EVALUATE else other).add(first)

        def visit_Param(self, node):
            other.add(node.name.value)  # a parameter of that name is another variable

        def visit_For(self, node):
            if isinstance(node.target, cst.Name):
                other.add(node.target.value)

    module.visit(_Assigns())
    return given - other


class _Whole(cst.CSTVisitor):
    """Uses of the results other than `results["key"]`, `results.get("key")` and `"{key}".format(**results)`
    (result_reads.py reads those), and `est.evaluate(...)` given to a call (`print(est.evaluate(...))`)."""

    def __init__(self, var: str, names: set) -> None:
        self.var, self.names, self.reads = var, names, []

    def visit_AssignTarget(self, node) -> bool:
        return False  # `results = ...` itself

    def visit_Subscript(self, node) -> bool:
        key = node.slice[0].slice if len(node.slice) == 1 else None
        if isinstance(node.value, cst.Name) and isinstance(key, cst.Index) and isinstance(key.value, cst.SimpleString):
            return False
        return True

    def visit_Call(self, node) -> bool:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Name) \
                and node.args and isinstance(node.args[0].value, cst.SimpleString):
            return False  # `results.get("auc")`
        if isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(func.value, cst.SimpleString):
            for arg in node.args:
                if arg.star != "**":
                    arg.visit(self)
            return False
        for arg in node.args:
            if method_of(arg.value, self.var) == "evaluate":
                self.reads.append(arg.value)
        return True

    def visit_Attribute(self, node) -> bool:
        node.value.visit(self)  # `x.results` is no read of `results`
        return False

    def visit_Arg(self, node) -> bool:
        node.value.visit(self)  # nor is `f(results=1)`
        return False

    def visit_Param(self, node) -> bool:
        return False

    def visit_Name(self, node) -> None:
        if node.value in self.names:
            self.reads.append(node)
