"""TFM343: an import of `tensorflow.contrib` left in the output, which TF2 cannot import.

TF2 has no `tf.contrib`: `from tensorflow.contrib import summary` raises ModuleNotFoundError when the module is
imported, whatever else converted. The tables rename what a program reaches through such an import and the
engine then drops the import; what is left after every rule is either unused (it was unused in the input too:
removed here, with a note) or still used by what no rule converts (reported here, an error, even where no other
finding names the module: `import tensorflow.contrib.slim as slim`).
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.diagnostics import Severity
from tf2migrate.engine.imports import ast_dotted
from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.unconverted.contrib_paths import contrib_paths, imports_contrib

INFOS = (
    RuleInfo(
        code="TFM343", name="contrib-import-left", fix="partial", severity=Severity.ERROR,
        summary="an import of tensorflow.contrib left after the rewrite: removed when unused, else reported "
                "(ModuleNotFoundError in TF2)",
        message="tf.contrib import left",
        why="TF 2.0 removed tf.contrib: a module that imports from it stops at that import (ModuleNotFoundError), "
            "whatever else converted. The rewrite converts what it knows of contrib where it is used, and the "
            "engine then drops the import. One that nothing uses (the TPU templates import "
            "`tensorflow.contrib.summary` and never call it) is removed, with a note. One whose names are still "
            "used afterwards (slim, contrib.layers, contrib.training, ...) is reported as an error on its own line, "
            "so that a program that cannot start is never written in silence: replace what it gives (Keras "
            "layers, TF Addons, a copy of the code you need) and remove the import.",
        before="import tensorflow as tf\nfrom tensorflow.contrib import summary\n\nx = tf.zeros([2])\n",
        after="import tensorflow as tf\n\nx = tf.zeros([2])\n"),
)


class ContribImports(Plugin):
    infos = INFOS

    def reads_whole_module(self) -> bool:
        return self.ctx.tree is not None and imports_contrib(self.ctx.tree)

    def leave_module(self, original, updated):
        ctx = self.ctx
        if ctx.tree is None or not ctx.selection.enabled("TFM343"):
            return updated
        gone, _ = decide(ctx, lambda: updated.code)
        if not gone:
            return updated
        gone = [ast.unparse(node) for node in gone]
        body, carried = [], []
        for stmt in updated.body:
            if isinstance(stmt, cst.SimpleStatementLine) and _code(stmt) in gone:
                carried += [line for line in stmt.leading_lines if line.comment is not None or not body]
                continue  # its comments stay, on the next statement
            if carried:
                stmt, carried = stmt.with_changes(leading_lines=[*carried, *stmt.leading_lines]), []
            body.append(stmt)
        return updated.with_changes(body=body)


def decide(ctx, code) -> tuple:
    """The rule's decisions, shared with its splice twin (contrib_splice.py): (the top-level imports to remove,
    the imports the engine drops because the rewrite took their last use); every other one is reported.
    `code()`: the module's text after every rule before this one."""
    found = [n for n in nodes(ctx.tree, ast.Import, ast.ImportFrom) if contrib_paths(n)]
    if not found:
        return [], []
    wanted = {name for node in found for name in _bound(node)}
    before, after = _loads(ctx.tree, wanted), _loads_after(code(), wanted)
    gone, dropped = [], []
    for node in sorted(found, key=lambda n: (n.lineno, n.col_offset)):
        bound = _bound(node)
        if any(before.get(name, 0) for name in bound) and not any(after.get(name, 0) for name in bound):
            dropped.append(node)
            continue  # its uses were all rewritten: the engine drops the import
        if not any(after.get(name, 0) for name in bound) and _top_level(node, ctx.tree) \
                and not _binds_more_than_contrib(node, ctx.tree):
            if ctx.report(node, "TFM343", f"`{_shown(node)}` is unused and TF2 has no tf.contrib: removed",
                          severity=Severity.INFO):
                gone.append(node)
            continue
        used = sorted(name for name in bound if after.get(name, 0))
        what = f"`{'`, `'.join(used)}` still used" if used else "kept"
        ctx.report(node, "TFM343", f"`{_shown(node)}`: TF2 has no tf.contrib, so this import stops the module "
                   f"(ModuleNotFoundError); {what} after the rewrite: replace what it gives, then remove it",
                   fixable=False)
    return gone, dropped


def _loads(tree, wanted: set) -> dict:
    """How often each name of `wanted` is read (a dotted `tensorflow.contrib.slim` chain counted as its whole
    spelling too). Only names and dotted chains are counted: no other attribute (`f().x`) spells a name an
    import binds."""
    counts: dict = {}
    for node in nodes(tree, ast.Name):
        if node.id in wanted and type(node.ctx) is ast.Load:
            counts[node.id] = counts.get(node.id, 0) + 1
    last = {name.rsplit(".", 1)[-1] for name in wanted if "." in name}
    for node in nodes(tree, ast.Attribute) if last else ():
        if node.attr in last:
            dotted = ast_dotted(node)
            if dotted in wanted:
                counts[dotted] = counts.get(dotted, 0) + 1
    return counts


def _loads_after(code: str, wanted: set) -> dict:
    """`_loads` of the rewritten text, parsed only when it still spells every part of some wanted name (ASCII
    text: `ast` reads other identifiers NFKC-normalised)."""
    if code.isascii() and not any(all(part in code for part in name.split(".")) for name in wanted):
        return {}
    return _loads(ast.parse(code), wanted)


def _bound(node) -> list:
    """The names an import statement makes usable: an alias, or the dotted path of `import a.b.c`."""
    return [alias.asname or alias.name for alias in node.names]


def _binds_more_than_contrib(node, tree) -> bool:
    """`import tensorflow.contrib.x` binds `tensorflow` too: removable only when another import binds it."""
    if not isinstance(node, ast.Import) or any(alias.asname for alias in node.names):
        return isinstance(node, (ast.Import, ast.ImportFrom)) and len(contrib_paths(node)) < len(node.names)
    others = [n for n in nodes(tree, ast.Import) if n is not node
              and any(alias.name == "tensorflow" and not alias.asname for alias in n.names)]
    return not others or len(contrib_paths(node)) < len(node.names)


def _top_level(node, tree) -> bool:
    return node in tree.body and sum(1 for s in tree.body if s.lineno == node.lineno) == 1


def _shown(node) -> str:
    return ast.unparse(node)


def _code(stmt) -> str:
    """The import of a one-statement line, unparsed as `ast` would show it (so both sides compare alike)."""
    if len(stmt.body) != 1 or not isinstance(stmt.body[0], (cst.Import, cst.ImportFrom)):
        return ""
    return ast.unparse(ast.parse(cst.Module([]).code_for_node(stmt.body[0]).strip()).body[0])
