"""Add the imports new names need; remove only the imports that the rewrite itself left unused."""
from __future__ import annotations

import ast
from collections import Counter
from typing import Callable, NamedTuple

import libcst as cst

from tf2migrate.engine.splice import module_code

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


class _Rename(cst.CSTTransformer):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def leave_Name(self, original, updated):
        return updated.with_changes(value=self.new) if updated.value == self.old else updated


def _freed_alias(unused: set, imports: ImportMap, emit, new_tree: Callable) -> str | None:
    """`tf` when the rewrite left `import tensorflow.compat.v1 as tf` unused: the new import takes the usual
    name (`import tensorflow as tf`, not `tf2`). A `tf1` alias is not reused: it would read as TF1.
    The new alias appears nowhere in the original text, so every Name spelling it is one the rewrite wrote."""
    if not emit.new_alias or emit.new_alias == "tf":
        return None
    for local in sorted(unused):
        b = imports.bindings.get(local)
        if local != "tf" or b is None or b.from_module is not None or b.asname != local or b.target not in TF_MODULES:
            continue
        if not any(_binds(node, local) for node in ast.walk(new_tree())):
            return local
    return None


TF_MODULES = ("tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v2")


def _binds(node, name: str) -> bool:
    """Whether `node` binds `name` other than by an import the rewrite removes (a parameter, def, class...)."""
    if isinstance(node, ast.arg):
        return node.arg == name
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return name in node.names
    if isinstance(node, ast.ExceptHandler):
        return node.name == name
    if isinstance(node, ast.alias):
        return (node.asname or node.name.split(".")[0]) == name and node.name not in TF_MODULES
    return isinstance(node, ast.MatchAs) and node.name == name


def _all_unused(stmt, unused: set) -> bool:
    """Is `stmt` an import statement every name of which `_Remove` takes away?"""
    if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
            and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom))) or isinstance(stmt.body[0].names, cst.ImportStar):
        return False
    return all(_Remove(unused)._local(alias) in unused for alias in stmt.body[0].names)


def _insert_at(module: cst.Module) -> int:
    """After the last top-level import, and never before the Keras switch (`TF_USE_LEGACY_KERAS`, set in an
    `if` that must run before TensorFlow is imported: the tf-keras target writes it as the first statement)."""
    last_import, index = -1, 0
    for i, stmt in enumerate(module.body):
        if isinstance(stmt, cst.SimpleStatementLine) and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom)):
            last_import = i
        elif isinstance(stmt, cst.If) and "TF_USE_LEGACY_KERAS" in module.code_for_node(stmt):
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


class Spliced(NamedTuple):
    """What LibCST parsed (`text`, and `tree`, the same parsed by `ast`), and how its code becomes the
    module's: `restore` puts back what `engine/reduce.py` left out of it."""
    tree: ast.Module
    text: str
    restore: Callable = str

    def code(self, original: cst.Module, updated: cst.Module) -> str:
        return self.restore(module_code(original, updated, self.tree, self.text))

    def with_references(self, original: cst.Module, updated: cst.Module, before: Counter) -> tuple:
        """(the module's new code, its name uses (`references`), a function giving its `ast` tree). `before`:
        the uses in the whole original. Where LibCST parsed a reduced text, the uses are counted on the new
        reduced code, plus those in the placeholders (unchanged: the original's less the reduced text's)."""
        if self.restore is str:
            code = module_code(original, updated, self.tree, self.text)
            new_tree = ast.parse(code)
            return code, references(new_tree), lambda: new_tree
        reduced = module_code(original, updated, self.tree, self.text)
        code = self.restore(reduced)
        hidden = before - references(self.tree)
        return code, references(ast.parse(reduced)) + hidden, lambda: ast.parse(code)


def finish_imports(original: cst.Module, updated: cst.Module, imports: ImportMap, emit, seen, tree,
                   parsed: Spliced) -> str:
    """The final code. `seen` counts the references to each binding that the traversal met;
    `tree` is the module's source parsed by `ast`, `parsed` what LibCST parsed."""
    partial = {local for local in emit.retargets if emit.rewritten[local] != seen[local]}
    if partial:
        raise PartialRetarget(partial)
    before = references(tree)
    code, after, new_tree = parsed.with_references(original, updated, before)
    unused = {
        local for local in imports.bindings
        if before[local] > 0 and after[local] == 0
    }
    unused |= set(emit.retargets)
    freed = _freed_alias(unused, imports, emit, new_tree) if emit.new_alias else None
    if freed is not None:
        updated = updated.visit(_Rename(emit.new_alias, freed))
        emit.new_alias = freed
    new_statements = emit.statements()
    if not unused and not new_statements:
        return code
    first_goes = bool(unused and updated.body) and _all_unused(updated.body[0], unused)
    if unused:
        updated = updated.visit(_Remove(unused))
    at = _insert_at(updated) if new_statements else -1
    if unused and first_goes and updated.body and at != 0:  # the first statement went: no blank line opens the file
        head = updated.body[0]
        updated = updated.with_changes(body=[head.with_changes(leading_lines=[
            line for line in head.leading_lines if line.comment is not None]), *updated.body[1:]])
    if new_statements:
        if at > 0 and isinstance(updated.body[at - 1], cst.If):  # after the Keras switch: a blank line, as black
            new_statements = [new_statements[0].with_changes(leading_lines=[cst.EmptyLine()]), *new_statements[1:]]
        updated = updated.with_changes(body=[*updated.body[:at], *new_statements, *updated.body[at:]])
    return parsed.code(original, updated)
