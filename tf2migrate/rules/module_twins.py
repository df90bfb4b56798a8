"""The splice twins of rules that read the whole module (`Reads.MODULE`): where such a rule's
`reads_whole_module()` is true, the splice path (rules/table_only.py) runs its twin on the spliced text instead
of giving the file to LibCST. A twin makes the rule's own decisions (a function both share) and writes them as
text edits, or raises `NotSure`; tests/test_code_splice.py compares the two paths.
"""
from __future__ import annotations

from tf2migrate.rules.unconverted import contrib_splice
from tf2migrate.rules.unconverted.contrib_imports import ContribImports

# rule class -> twin(ctx, tree, edits), run after every table and call edit, in the registry's order
TWINS = {ContribImports: contrib_splice.leave_module}


def needs_libcst(plugin) -> bool:
    """Does this rule need LibCST's traversal of the whole module here (no twin answers it)?"""
    return plugin.sees_every_statement() or type(plugin) not in TWINS and plugin.reads_whole_module()


def leave_module(plugins, ctx, tree, edits) -> None:
    for plugin in plugins:
        twin = TWINS.get(type(plugin))
        if twin is not None and plugin.reads_whole_module():
            twin(ctx, tree, edits)
