"""The one shared traversal: every plugin's hooks run inside a single pass over the tree.

The traversal decides what a *reference* is (not an attribute name, a keyword, a parameter or an
import) and tracks function scopes, so that plugins only say what to change.
"""
from __future__ import annotations

import dataclasses

import libcst as cst

from tf2migrate.engine.scopes import FunctionScopes, lambda_locals

HOOKS = ("leave_call", "leave_reference", "leave_assign", "leave_module")
_FIELDS: dict = {}  # node class -> its field names


def _same_children(original, updated) -> bool:
    """`updated` is `original` rebuilt from the very same children. Kept so, an unchanged module comes out
    as the same object (`apply._rewrite` then skips the code generation, a new `ast` parse and the
    import edits: most of a file that a rule reads but leaves as it was)."""
    names = _FIELDS.get(type(original))
    if names is None:
        names = _FIELDS[type(original)] = tuple(f.name for f in dataclasses.fields(original))
    for name in names:
        a, b = getattr(original, name), getattr(updated, name)
        if a is b:
            continue
        if type(a) in (tuple, list) and type(b) in (tuple, list):
            if len(a) != len(b) or any(x is not y for x, y in zip(a, b)):
                return False
        elif isinstance(a, cst.CSTNode) or isinstance(b, cst.CSTNode) or a != b:
            return False
    return True


class Traversal(cst.CSTTransformer):
    def __init__(self, ctx, plugins, quiet: dict) -> None:
        super().__init__()
        self.ctx = ctx
        self.hooks = {h: [getattr(p, h) for p in plugins if hasattr(p, h)] for h in HOOKS}
        self._not_refs: set = set()  # ids of Name nodes that are not references
        self._call_funcs: set = set()
        self._scopes = FunctionScopes(ctx.tree)
        self._quiet = quiet  # id(statement) -> skip.Quiet: statements no rule can act in

    # statements no rule can act in are not entered (engine/skip.py)
    def on_visit(self, node) -> bool:
        quiet = self._quiet.get(id(node))
        if quiet is None:
            return super().on_visit(node)
        self._scopes.skip(quiet.functions)
        self.ctx.positions.skip_calls(quiet.calls, quiet.attributes)
        return False

    def on_leave(self, original, updated):
        if id(original) in self._quiet:  # LibCST leaves every node it visited, stepped over or not
            return updated
        result = super().on_leave(original, updated)
        if result is updated and updated is not original and _same_children(original, updated):
            return original  # LibCST rebuilds every node it enters: keep the original where nothing changed
        return result

    # scopes
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._not_refs.add(id(node.name))
        self.ctx.scopes.append(self._scopes.next_for(node))

    def leave_FunctionDef(self, original, updated):
        self.ctx.scopes.pop()
        return updated

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.ctx.scopes.append(lambda_locals(node))

    def leave_Lambda(self, original, updated):
        self.ctx.scopes.pop()
        return updated

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._not_refs.add(id(node.name))

    def visit_Param(self, node: cst.Param) -> None:
        self._not_refs.add(id(node.name))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        """`tf1` in `tf1 = tf.compat.v1` defines an alias (engine/imports.py): it is not a use of one."""
        if isinstance(node.target, cst.Name):
            binding = self.ctx.imports.bindings.get(node.target.value)
            if binding is not None and binding.assigned:
                self._not_refs.add(id(node.target))

    # what is not a reference
    def visit_Import(self, node) -> bool:
        return False

    def visit_ImportFrom(self, node) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._not_refs.add(id(node.attr))
        self.ctx.positions.note_attribute(node)

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._not_refs.add(id(node.keyword))

    def visit_Name(self, node: cst.Name) -> None:
        """Count the references to each import binding, for re-pointing from-imports safely."""
        if id(node) not in self._not_refs and node.value in self.ctx.imports.bindings:
            if not self.ctx.shadowed(node.value):
                self.ctx.references[node.value] += 1

    def visit_Call(self, node: cst.Call) -> None:
        self._call_funcs.add(id(node.func))
        self.ctx.positions.note_call(node)

    # dispatch
    def _run(self, hook, original, updated):
        for fn in self.hooks[hook]:
            updated = fn(original, updated)
        return updated

    def leave_Call(self, original, updated):
        return self._run("leave_call", original, updated)

    def leave_Attribute(self, original, updated):
        if id(original) in self._call_funcs or id(original) in self._not_refs:
            return updated
        return self._run("leave_reference", original, updated)

    def leave_Name(self, original, updated):
        if id(original) in self._call_funcs or id(original) in self._not_refs:
            return updated
        return self._run("leave_reference", original, updated)

    def leave_Assign(self, original, updated):
        return self._run("leave_assign", original, updated)

    def leave_Module(self, original, updated):
        return self._run("leave_module", original, updated)
