"""What the program reads from `evaluate`'s and `predict`'s results, checked against what Keras will return.

`Estimator.evaluate` returned a dict with `loss`, `global_step`, the eval metrics and, for a canned estimator,
`average_loss`, `label/mean`, `prediction/mean` and more (`train_and_evaluate` returned it as the first of a
pair); `model.evaluate(return_dict=True)` returns `loss` and the compiled metrics, under their TF1 keys. A canned
estimator's key the program reads is compiled into the Keras model as a metric of that name (canned_results.py).
A key the program reads that Keras will not return (`results["global_step"]`, `"{global_step}".format(**results)`)
would be a KeyError in the migrated program, so it blocks the conversion, on its line. (`predict`'s one dict per
example is given back by `examples_of`, runs.py; a canned estimator's dict by canned_results.py.)
"""
from __future__ import annotations

import re
import string

import libcst as cst

from tf2migrate.rules.estimator.planning import canned_results, plan_types
from tf2migrate.rules.estimator.reading.uses import callee, method_of
from tf2migrate.rules.estimator.syntax.args import Unreadable

TRAIN_AND_EVALUATE = "tf.estimator.train_and_evaluate"


def blockers(module: cst.Module, prog, ctx) -> list:
    """Unreadable for each read the converted program could not answer (see the module docstring)."""
    var = prog.var
    results, pairs = _results(module, var, ctx)
    known = {"loss"} | {_key(m) for m in (prog.model.metrics if prog.model is not None else ())}
    found = []

    def missing(node, key) -> None:
        if plan_types.canned(prog.model) and canned_results.add_read(prog.model, key, node):
            return  # `eval_result["average_loss"]`: a metric of that name in the Keras model
        found.append(Unreadable(node, f"the program reads `{key}` from evaluate's results, which the Keras model "
                                f"does not report (it reports {', '.join(sorted(known))}): read another key, or add "
                                "the metric to the model by hand"))

    class _Reads(cst.CSTVisitor):
        def visit_Subscript(self, node):
            key, read = _string_key(node), node.value
            if key is None or key in known:
                return
            # `metrics["auc"]` of `metrics = est.evaluate(...)`, `result[0]["auc"]` of `result = train_and_evaluate(...)`,
            # `est.evaluate(...)["auc"]`
            if _named(read, results) or isinstance(read, cst.Subscript) and _named(read.value, pairs) \
                    and _index(read) == 0 or method_of(read, var) == "evaluate":
                missing(node, key)

        def visit_Call(self, node):
            for key in sorted(_format_fields(node, results) - known):  # `"{accuracy:0.3f}".format(**eval_result)`
                missing(node, key)

    module.visit(_Reads())
    return found


def _results(module: cst.Module, var: str, ctx) -> tuple:
    """(names given evaluate's dict, names given train_and_evaluate's `(metrics, exports)` pair), in any block."""
    results, pairs = set(), set()

    class _Assigns(cst.CSTVisitor):
        def visit_Assign(self, node):
            for target in (t.target for t in node.targets):
                if isinstance(target, cst.Name) and method_of(node.value, var) == "evaluate":
                    results.add(target.value)
                elif callee(node.value, ctx) != TRAIN_AND_EVALUATE:
                    continue
                elif isinstance(target, cst.Name):
                    pairs.add(target.value)
                elif isinstance(target, (cst.Tuple, cst.List)) and target.elements \
                        and isinstance(target.elements[0].value, cst.Name):  # `metrics, exports = ...`
                    results.add(target.elements[0].value.value)

    module.visit(_Assigns())
    return results, pairs


def _format_fields(call: cst.Call, results: set) -> set:
    """The fields of `"...{accuracy}...".format(**eval_result)`: the keys it reads from the results."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "format" and isinstance(func.value, cst.SimpleString)
            and any(a.star == "**" and _named(a.value, results) for a in call.args)):
        return set()
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(func.value.evaluated_value) if f]
    except (ValueError, TypeError):  # not a format string Python reads, or bytes
        return set()
    return {key for key in (re.split(r"[.\[]", f)[0] for f in fields) if key and not key.isdigit()}


def _named(node, names: set) -> bool:
    return isinstance(node, cst.Name) and node.value in names


def _index(node: cst.Subscript):
    """The integer of `x[0]`, else None."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    value = node.slice[0].slice.value
    return int(value.value) if isinstance(value, cst.Integer) else None


def _key(metric):
    key = metric.key
    return key.evaluated_value if isinstance(key, cst.SimpleString) else None


def _string_key(node: cst.Subscript):
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    value = node.slice[0].slice.value
    return value.evaluated_value if isinstance(value, cst.SimpleString) else None
