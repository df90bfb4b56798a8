"""The splice twins of rules that read the whole module (`Reads.MODULE`): where such a rule's
`reads_whole_module()` is true, the splice path (rules/table_only.py) asks its twin instead of giving the file
to LibCST. A twin says whether it answers the file (`answers(ctx)`) and then makes the rule's own decisions (a
function both share) as text edits, or raises `NotSure`; tests/test_code_splice.py and tests/test_table_splice.py
compare the two paths.
"""
from __future__ import annotations

import ast

from tf2migrate.engine.ast_index import nodes
from tf2migrate.rules.estimator.plugin import EstimatorToKeras
from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules.unconverted import contrib_splice
from tf2migrate.rules.unconverted.contrib_imports import ContribImports
from tf2migrate.rules.upgrade.learning_phase import LearningPhase


def _always(ctx) -> bool:
    return True


def _estimator_idle(ctx) -> bool:
    """The Estimator converter has nothing to convert or report in a file of no package that builds no Estimator
    (its own `ast` proof, `analyze._builds_estimator`) and trains nothing (`not_converted_report.report_foreign`'s
    calls): every path of `EstimatorToKeras._convert` starts from one of those. Its words woke it on a class of
    `tf.estimator` it does not build (`EstimatorSpec`, `ServingInputReceiver`: tensor2tensor 1.14.0, 5 files)."""
    from tf2migrate.rules.estimator.program import analyze

    if ctx.package is not None or ctx.tree is None or analyze._builds_estimator(ctx):
        return False
    for call in nodes(ctx.tree, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in ("train", "export_saved_model") \
                or ctx.imports.ast_canonical(func) == "tf.estimator.train_and_evaluate":
            return False
    return True


def _nothing(ctx, tree, edits) -> None:
    return None


# rule class -> (answers(ctx), twin(ctx, tree, edits)), the twin run after every table and call edit
TWINS = {EstimatorToKeras: (_estimator_idle, _nothing), ContribImports: (_always, contrib_splice.leave_module)}


def _reports_only(plugin) -> None:
    """A rule whose `leave_module` reads only `ast` and reports unless the Estimator converter made the program
    Keras (TFM301), which never happens on the splice path: run as it is, with no LibCST module, where its word
    is in the text (none of its calls can be named without it; a walk of every spliced tree would cost more)."""
    if REPORT_ONLY[type(plugin)] not in plugin.ctx.text:
        return
    if any(d.code == "TFM301" and d.fixed for d in plugin.ctx.diagnostics):
        raise NotSure("a program the Estimator converter made Keras")
    plugin.leave_module(None, None)


# rule class -> the word its calls are named with: rules that read only `ast` in `leave_module` on the splice
# path (their manifest words are among code_splice.RULES')
REPORT_ONLY = {LearningPhase: "set_learning_phase"}


def needs_libcst(plugin) -> bool:
    """Does this rule need LibCST's traversal of the whole module here (no twin answers it)?"""
    if plugin.sees_every_statement():
        return True
    twin = TWINS.get(type(plugin))
    return plugin.reads_whole_module() and (twin is None or not twin[0](plugin.ctx))


def leave_module(plugins, ctx, tree, edits) -> None:
    for plugin in plugins:
        if type(plugin) in REPORT_ONLY:
            _reports_only(plugin)
        twin = TWINS.get(type(plugin))
        if twin is not None and plugin.reads_whole_module():
            twin[1](ctx, tree, edits)
