"""The Keras a converted program is written for: `--target keras3` (default) or `--target tf-keras`.

keras3: only APIs that Keras 3 (`tf.keras` on TF 2.16+) and TF 2.15's Keras 2 both have, so the program runs
on the old and the new TensorFlow: `RMSpropTF1` sets its slots in `build` (optimizers.py), numeric feature
columns become Keras inputs (canned.py). Some things have no Keras 3 form (`keras2_only`): the model-mapping
shim (`track_tf1_style_variables`), `fit` under ParameterServerStrategy, `add_loss` of a callable (weight
decay over the model's variables). A program that needs one is written for tf-keras instead, and TFM320 says so.

tf-keras: Keras 2, as on TF 2.15. TF 2.16+ keeps it in the `tf-keras` package, used as `tf.keras` when
TF_USE_LEGACY_KERAS is set before TensorFlow is imported: the output sets it first thing when the package
is installed (on TF 2.15 without it, `tf.keras` is Keras 2 already and setting it would break `tf.keras`).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import plan_types
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind

KERAS3, TF_KERAS = "keras3", "tf-keras"
LEGACY_SWITCH = '''import importlib.util
import os

if importlib.util.find_spec("tf_keras"):  # TF 2.16+: tf.keras is Keras 2 from tf-keras (--target tf-keras)
{i}os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
'''


def keras2_only(kind, shim_plan, model=None, ctx=None, steps_per_execution=False):
    """Why this program needs Keras 2, or None when Keras 3 can run it."""
    from tf2migrate.rules.estimator.planning import canned, canned_combined

    if canned_combined.is_combined(model):
        return canned_combined.NO_KERAS3
    if plan_types.canned(model) and model.built:
        return "feature columns built at run time (a comprehension, a loop or a helper) have no Keras 3 input form here"
    if plan_types.canned(model) and canned.run_time_units(model):
        return ("hidden_units known only at run time become a starred list of Dense layers of a Sequential model, "
                "fed by DenseFeatures")
    if plan_types.canned(model) and canned.keras3_inputs(model, ctx) is None:
        return "a feature column other than numeric_column(key, shape=[n]) has no Keras 3 input form here"
    if model is not None and any(step.layer.kind == "DenseFeatures" for step in model.layers):
        return "tf.feature_column.input_layer becomes DenseFeatures, which Keras 3 does not have"
    if model is not None and model.penalty is not None:
        return ("the weight decay added to the loss becomes model.add_loss(lambda: ...), and Keras 3's add_loss "
                "takes no callable")
    if steps_per_execution:
        return ("iterations_per_loop becomes steps_per_execution, and Keras 3's evaluate(steps=N) then runs whole "
                "executions of that many batches, not N (measured: TPUEstimator's evaluation differs on Keras 3)")
    if shim_plan is not None:
        return "the model-mapping shim (track_tf1_style_variables) has no Keras 3 form"
    if kind is StrategyKind.PARAMETER_SERVER:
        return "Keras 3 cannot train with fit under ParameterServerStrategy"
    return None


ASKED = ("written for tf-keras as asked (--target tf-keras): on TF 2.16+ install the tf-keras package; the "
         "file sets TF_USE_LEGACY_KERAS when it is installed")


def choose(wanted, kind, shim_plan, model=None, ctx=None, steps_per_execution=False):
    """(target, TFM320 message or None). Under tf-keras the switch comes from `rules/keras_target.py`."""
    why = keras2_only(kind, shim_plan, model, ctx, steps_per_execution)
    if wanted == TF_KERAS:
        return TF_KERAS, None
    if why:
        return TF_KERAS, (f"{why}: this file is written for tf-keras, not Keras 3 (on TF 2.16+ install the "
                          f"tf-keras package; the file sets TF_USE_LEGACY_KERAS when it is installed)")
    return KERAS3, None


def with_legacy_switch(body: list, module: cst.Module) -> list:
    """`body` with the TF_USE_LEGACY_KERAS switch before its first import (after a docstring and
    `from __future__` imports), so that it runs before TensorFlow is imported."""
    at = next((k for k, stmt in enumerate(body) if not (k == 0 and _is_docstring(stmt)) and not _is_future(stmt)),
              len(body))
    code = LEGACY_SWITCH.format(i=module.default_indent)
    switch = list(cst.parse_module(code, config=module.config_for_parsing).body)
    body, at = _without_own_os(body, at)
    if at < len(body):
        switch[0] = switch[0].with_changes(leading_lines=body[at].leading_lines)
        body = body[:at] + switch + [body[at].with_changes(leading_lines=[cst.EmptyLine()])] + body[at + 1:]
    else:
        body = body + switch
    return body


def _without_own_os(body: list, at: int) -> tuple:
    """The switch imports `os` before TensorFlow: the file's own top-level `import os` would be a second one.
    It is taken out (its comment lines go to the next statement); `os` is bound earlier, by the switch."""
    for k, stmt in enumerate(body):
        s = _small(stmt)
        if not (isinstance(s, cst.Import) and len(stmt.body) == 1 and len(s.names) == 1 and s.names[0].asname is None
                and isinstance(s.names[0].name, cst.Name) and s.names[0].name.value == "os"):
            continue
        if stmt.trailing_whitespace.comment is not None:
            return body, at  # a comment on the line itself: leave the user's line alone
        rest = body[:k] + body[k + 1:]
        if k < len(rest) and any(line.comment is not None for line in stmt.leading_lines):
            rest[k] = rest[k].with_changes(leading_lines=[*stmt.leading_lines, *rest[k].leading_lines])
        elif k < len(rest) and k == at:
            rest[k] = rest[k].with_changes(leading_lines=stmt.leading_lines)
        return rest, at - (k < at)
    return body, at


def _small(stmt):
    return stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and stmt.body else None


def _is_future(stmt):
    s = _small(stmt)
    return isinstance(s, cst.ImportFrom) and isinstance(s.module, cst.Name) and s.module.value == "__future__"


def is_docstring_or_future(stmt):
    return _is_docstring(stmt) or _is_future(stmt)


def _is_docstring(stmt):
    s = _small(stmt)
    return isinstance(s, cst.Expr) and isinstance(s.value, (cst.SimpleString, cst.ConcatenatedString))
