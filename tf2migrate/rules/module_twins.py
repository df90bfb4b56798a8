"""The splice twins of rules that read the whole module (`Reads.MODULE`): where such a rule's
`reads_whole_module()` is true, the splice path (rules/table_only.py) asks its twin instead of giving the file
to LibCST. A twin says whether it answers the file (`answers(ctx)`) and then makes the rule's own decisions (a
function both share) as text edits, or raises `NotSure`; tests/test_code_splice.py and tests/test_table_splice.py
compare the two paths.
"""
from __future__ import annotations

from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules.unconverted import contrib_splice
from tf2migrate.rules.unconverted.contrib_imports import ContribImports
from tf2migrate.rules.upgrade.learning_phase import LearningPhase


def _always(ctx) -> bool:
    return True


# rule class -> (answers(ctx), twin(ctx, tree, edits)), the twin run after every table and call edit. The
# Estimator converter needs none: its `reads_whole_module` is its idle proof (`idle_neighbours.may_act`, alone
# or with package neighbours), so where it is false the converter does nothing on either path
TWINS = {ContribImports: (_always, contrib_splice.leave_module)}


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
