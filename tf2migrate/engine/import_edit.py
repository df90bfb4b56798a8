"""Add the imports new names need; remove only the imports that the rewrite itself left unused."""
from __future__ import annotations

import ast
from collections import Counter

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ImportMap, dotted


def references(tree: ast.AST) -> Counter:
    """Name uses outside import statements, attribute names and keywords, counted with `ast`
    (a C parser: one LibCST traversal of a large file costs more than parsing it again)."""
    counts: Counter = Counter()
    for node in nodes(tree, ast.Name):
        counts[node.id] += 1
    return counts


class _Remove(cst.CSTTransformer):
    def __init__(self, names: set) -> None:
        self.names = names

    def _local(self, alias: cst.ImportAlias) -> str:
        if alias.asname is not None:
            return alias.asname.name.value
        return dotted(alias.name).split(".")[0]

    def _prune(self, updated):
        if isinstance(updated.names, cst.ImportStar):
            return updated
        kept = [a for a in updated.names if self._local(a) not in self.names]
        if len(kept) == len(updated.names):
            return updated
        if not kept:
            return cst.RemoveFromParent()
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(names=kept)

    def leave_Import(self, original, updated):
        return self._prune(updated)

    def leave_ImportFrom(self, original, updated):
        return self._prune(updated)


def _insert_at(module: cst.Module) -> int:
    last_import, index = -1, 0
    for i, stmt in enumerate(module.body):
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom)):
            last_import = i
        elif last_import == -1 and isinstance(stmt, cst.SimpleStatementLine) and isinstance(
            stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString)) and i == 0:
            index = 1
    return last_import + 1 if last_import >= 0 else index


class PartialRetarget(Exception):
    """Some references to a from-imported name were re-pointed and some were not (suppressed)."""

    def __init__(self, locals_: set) -> None:
        super().__init__(", ".join(sorted(locals_)))
        self.locals = locals_


def finish_imports(original: cst.Module, updated: cst.Module, imports: ImportMap, emit, seen, tree) -> str:
    """The final code. `seen` counts the references to each binding that the traversal met;
    `tree` is the original source parsed by `ast`."""
    partial = {local for local in emit.retargets if emit.rewritten[local] != seen[local]}
    if partial:
        raise PartialRetarget(partial)
    code = updated.code
    before, after = references(tree), references(ast.parse(code))
    unused = {
        local for local in imports.bindings
        if before[local] > 0 and after[local] == 0
    }
    unused |= set(emit.retargets)
    new_statements = emit.statements()
    if not unused and not new_statements:
        return code
    if unused:
        updated = updated.visit(_Remove(unused))
    if new_statements:
        at = _insert_at(updated)
        updated = updated.with_changes(body=[*updated.body[:at], *new_statements, *updated.body[at:]])
    return updated.code
