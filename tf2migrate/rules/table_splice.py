"""The table rules without LibCST: `TablePlugin`'s answers for a file where no code rule has a place (issue 20).

Most files of a real TF1 tree change only through table edits (renames, keyword edits, `compat.v1` moves).
For those, LibCST's parse, traversal and code generation are most of the cost, so the same decisions are
made here on Python's `ast` tree (the pre-pass's) and written as text splices (`engine/text_edits.py`):
the same names and lookups (`TablePlugin`'s, in the same post-order), the same alias-aware names, the same
findings at the same places. Whatever this path cannot promise to write as LibCST would (a from-import to
re-point, a new import, an import left unused, parentheses around a renamed name, an f-string, a guard)
raises `NotSure`, and the engine rewrites the file with LibCST. tests/test_table_splice.py compares the two
on every fixture and program; bench/splice_agrees.py on a corpus.
"""
from __future__ import annotations

import ast

from tf2migrate.engine.imports import ast_dotted
from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules import code_splice
from tf2migrate.rules.call_splice import CallEdit
from tf2migrate.rules.compat_modules import alias_sources, compat_v1_module
from tf2migrate.rules.splice_names import SpliceNames, head as _head
from tf2migrate.rules.splice_walk import candidates
from tf2migrate.rules.undecided_calls import KERAS, keras_reads_otherwise


def _explicit_compat_v1(node) -> bool:
    while isinstance(node, ast.Attribute):
        if node.attr == "v1" and isinstance(node.value, ast.Attribute) and node.value.attr == "compat":
            return True
        node = node.value
    return False


class TableSplice(SpliceNames):
    """`TablePlugin` over `ast` nodes, writing into `text` (an `engine.text_edits.Text`)."""

    def __init__(self, ctx, tables, claimed: frozenset, text) -> None:
        super().__init__()
        self.ctx, self.tables, self.claimed, self.text = ctx, tables, claimed, text
        self._modules: dict = {}
        self._renamed_ids: set = set()
        self._sources = None

    def run(self, tree, hits) -> None:
        for node in candidates(tree, self.ctx.imports, self.tables, hits, self.text):
            if isinstance(node, ast.Call):
                self.leave_call(node)
            else:
                self.leave_reference(node)

    # TablePlugin's decisions (rules/table_plugin.py), one for one

    def _symbol(self, expr) -> tuple:
        if not isinstance(expr, (ast.Name, ast.Attribute)):
            return (), None
        literal, canonical = self.resolve(expr)
        if literal is not None and literal.startswith("tf.compat.v2."):
            canonical = None
        if compat_v1_module(self.tables, canonical):
            return (), literal
        for key in (literal, canonical):
            actions = self.tables.by_symbol.get(key) if key else None
            if actions and _explicit_compat_v1(expr):
                actions = tuple(a for a in actions if not a.generated)
            if actions and (self._alias_follows(expr) or self._alias_follows(_head(expr))):
                actions = tuple(a for a in actions if a.new is None)
            if actions:
                if any(a.new is not None and a.new == literal for a in actions):
                    return (), literal
                return self._usable(actions, literal), literal
        return (), literal

    def _usable(self, actions: tuple, literal) -> tuple:
        if any(a.needs_tf1 for a in actions) and not self.ctx.tf1_semantics(literal):
            return tuple(a for a in actions if not a.needs_tf1)
        return actions

    def _method(self, expr) -> tuple:
        if not isinstance(expr, ast.Attribute):
            return ()
        actions = self.tables.by_method.get(expr.attr, ())
        if actions:
            root = ast_dotted(expr.value)
            if root and self.ctx.imports.is_module_alias(root.split(".")[0]) and not self.shadowed(
                    root.split(".")[0], expr):
                return ()
        return self._usable(actions, None) if actions else ()

    def _report(self, node, action, name: str, new: str = "") -> bool:
        message = action.message or action.rule.info.message
        if "{" in message:
            message = message.replace("{name}", name).replace("{new}", new)
        return self.ctx.report(node, action.rule.info.code, message if message != action.rule.info.message else None,
                               severity=action.severity)

    def _renamed(self, node, action, literal, method: bool):
        """(the edit, the new text) of the new name or method attribute; None when already written so."""
        start, end = self.text.span(node)
        if method:
            if action.new == node.attr:
                return None
            at = end - len(node.attr)
            return (at, end, action.new), self.text.render(start, at) + action.new
        if action.new == literal:
            return None
        new = self.like(node, action.new)
        return (start, end, new), new

    def _alias_follows(self, node) -> bool:
        if not isinstance(node, ast.Name) or self.shadowed(node.id, node):
            return False
        binding = self.ctx.imports.bindings.get(node.id)
        if binding is None or not binding.assigned:
            return False
        literal, canonical = self.resolve(node)
        if compat_v1_module(self.tables, canonical):
            return True
        while canonical:
            actions = self._usable(self.tables.by_symbol.get(canonical, ()), literal)
            if any(a.new is not None and not a.on_call and not (a.call and a.call.guard) for a in actions):
                return True
            canonical = canonical.rpartition(".")[0]
        return False

    def _module(self, node, inner) -> None:
        literal, canonical = self.resolve(node) if isinstance(node, (ast.Name, ast.Attribute)) else (None, None)
        if literal is not None and literal.startswith("tf.compat.v1.") and not literal.startswith("tf.compat.v1.contrib"):
            canonical = None
        if self._alias_follows(node):
            self._renamed_ids.add(id(node))
            canonical = None
        if isinstance(node, ast.Attribute) and id(node.value) in self._renamed_ids:
            self._renamed_ids.add(id(node))
            canonical = None
        module = None
        if canonical is not None:
            if canonical in self.tables.modules:
                module = canonical
            elif inner is None:
                module = self.tables.module_of(canonical)
        if module is None and inner is not None:
            module = inner[1]
        if module is not None:
            self._modules[id(node)] = (node, module)

    def _moved_alias_source(self, node) -> bool:
        if not isinstance(node, ast.Attribute):
            return False
        literal, canonical = self.resolve(node)
        if not (literal and literal == canonical and compat_v1_module(self.tables, canonical)):
            return False
        if self._sources is None:
            self._sources = alias_sources(self.ctx.tree, self.ctx.imports)
        place = self.ctx.positions.place(node) if self._sources else None
        if place is None or (place.line, place.col, ast_dotted(node)) not in self._sources:
            return False
        new = "tf.compat.v1." + canonical[len("tf."):]
        if not self.ctx.report(node, "TFM610", f"`{self.src(node)}` is gone in TF2: `{new}` keeps its TF1 behaviour, "
                               "and every use through the alias with it"):
            return False
        self._renamed_ids.add(id(node))
        self.text.replace(*self.text.span(node), self.like(node, new))
        return True

    def _undecided(self, func, literal, positional: int) -> bool:
        """`undecided_calls.tf1_only_actions` has something to say (TFM650, or TF1's upgrades): LibCST's part."""
        if self.ctx.tf1_semantics(literal) is not None:
            return False
        canonical = self.resolve(func)[1]
        if canonical is None or canonical in self.claimed or canonical.startswith(KERAS) and not \
                keras_reads_otherwise(canonical, positional):
            return False
        for key in (literal, canonical):
            found = self.tables.by_symbol.get(key) if key else None
            if found:
                return any(a.needs_tf1 for a in found)
        return False

    def _converted(self, call) -> bool:
        """`TablePlugin._converted`: a code rule (they run first) fixed this very call."""
        place = self.ctx.positions.place(call)
        return place is not None and any(d.fixed and (d.line, d.col) == (place.line, place.col)
                                         for d in reversed(self.ctx.diagnostics[-8:]))

    def leave_module(self) -> None:
        for node, module in self._modules.values():
            self._report(node, self.tables.modules[module], self.src(node))
        self._modules.clear()

    # references and calls

    def leave_reference(self, node) -> None:
        inner = self._modules.pop(id(node.value), None) if isinstance(node, ast.Attribute) else None
        actions, literal = self._symbol(node)
        method = False
        if not actions:
            if self._moved_alias_source(node):
                return
            self._module(node, inner)
            actions, method = self._method(node), True
        for action in actions:
            if action.report and not action.on_call:
                self._report(node, action, self.src(node))
        for action in actions:
            if action.new is not None and not action.on_call and not (action.call and action.call.guard):
                if not self.ctx.allowed(node, action.rule.info.code):
                    return
                renamed = self._renamed(node, action, literal, method)
                if renamed is not None:
                    self._report(node, action, self.src(node), renamed[1])
                    self._renamed_ids.add(id(node))
                    self.text.replace(*renamed[0])
                    return

    def leave_call(self, call) -> None:
        code_splice.run(self, call)  # the code rules run first, as in LibCST's traversal
        func = call.func
        inner = self._modules.pop(id(func.value), None) if isinstance(func, ast.Attribute) else None
        actions, literal = self._symbol(func)
        if (actions or inner is not None) and self.resolve(func)[1] in self.claimed:
            return  # a code rule upgrades or reports it (a claimed name of a gone module too)
        if self._undecided(func, literal, sum(1 for a in call.args if not isinstance(a, ast.Starred))):
            raise NotSure("a call whose meaning differs between TF1 and TF2 in an undecided file")
        method = False
        if not actions:
            self._module(func, inner)
            pending = self._modules.pop(id(func), None)
            if pending is not None:
                self._report(func, self.tables.modules[pending[1]], self.src(func))
            actions, method = self._method(func), True
            if not actions:
                return
            if "*." + func.attr in self.claimed:
                if not self._converted(call):
                    raise NotSure("a method a code rule claims")
                return  # a code rule converted this very call: no TFM607 beside it
        if any(a.call and a.call.guard for a in actions):
            raise NotSure("a guarded table entry")
        CallEdit(self, call, list(actions), literal, method).run()
