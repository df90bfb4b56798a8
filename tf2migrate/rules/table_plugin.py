"""The one generic transformer for every table rule: one dictionary lookup per node.

For a call it applies, in tf_upgrade_v2's order: reports and argument warnings, argument edits (see
`call_edit`), then the symbol or method rename. A bare reference (no call) gets the rename or the
report only. A member of a reported module (`tf.contrib.rnn.LSTMCell`) gets one finding, for the most
specific module, unless a rule renames the whole name.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.engine.imports import dotted
from tf2migrate.rules import guards, undecided_calls
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.call_edit import arg_value, edit_args
from tf2migrate.rules.compat_modules import alias_sources, compat_v1_module, head
from tf2migrate.rules.receivers import is_module
from tf2migrate.rules.tables import Action, Tables


class TablePlugin(Plugin):
    def __init__(self, ctx, tables: Tables, claimed: frozenset = frozenset()) -> None:
        super().__init__(ctx)
        self.tables = tables
        self.claimed = claimed  # canonical names whose calls a code rule upgrades (`Plugin.claims`)
        self._modules: dict = {}  # id(chain node) -> (outermost node so far, module): reported at the end
        self._renamed_ids: set = set()  # ids of renamed names: what contains them is not in a reported module
        self._sources = None  # (line, col) of alias assignments' values (`layers = tf.layers`), read once

    def _symbol(self, expr) -> tuple:
        """(actions, literal name) for a TF name the tables know, else ((), literal)."""
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return (), None
        literal, canonical = self.ctx.resolve(expr)
        if literal is not None and literal.startswith("tf.compat.v2."):
            canonical = None  # a TF2 name: the TF1 tables do not apply to it
        if compat_v1_module(self.tables, canonical):
            return (), literal  # renamed only where an alias is made of it (_moved_alias_source)
        for key in (literal, canonical):
            actions = self.tables.by_symbol.get(key) if key else None
            if actions and _explicit_compat_v1(expr):
                actions = tuple(a for a in actions if not a.generated)  # written so on purpose: kept
            if actions and (self._alias_follows(expr) or self._alias_follows(head(expr))):
                actions = tuple(a for a in actions if a.new is None)  # the alias's source is renamed instead
            if actions:
                if any(a.new is not None and a.new == literal for a in actions):
                    return (), literal  # already written as its target (`tf1.Session` under compat.v1): done
                return self._usable(actions, literal), literal
        return (), literal

    def _usable(self, actions: tuple, literal: Optional[str]) -> tuple:
        """Upgrades of a name that TF2 also has (`tf.argmax`) run only where it means the TF1 API."""
        if any(a.needs_tf1 for a in actions) and not self.ctx.tf1_semantics(literal):
            return tuple(a for a in actions if not a.needs_tf1)
        return actions

    def _converted(self, call) -> bool:
        """A code rule (they run first) fixed this very call: the tables have nothing left to say about it."""
        place = self.ctx.positions.place(call)
        return place is not None and any(d.fixed and (d.line, d.col) == (place.line, place.col)
                                         for d in reversed(self.ctx.diagnostics[-8:]))

    def _method(self, expr) -> tuple:
        if not isinstance(expr, cst.Attribute):
            return ()
        actions = self.tables.by_method.get(expr.attr.value, ())
        if actions and is_module(expr.value, self.ctx):
            return ()  # `functools.reduce`, `inspect.unwrap`: a module, not a strategy
        return self._usable(actions, None) if actions else ()

    def _report(self, node, action: Action, name: str, new: str = "") -> bool:
        message = action.message or action.rule.info.message
        if "{" in message:
            message = message.replace("{name}", name).replace("{new}", new)
        return self.ctx.report(node, action.rule.info.code, message if message != action.rule.info.message else None,
                               severity=action.severity)

    def _renamed(self, original, updated_func, action: Action, literal: Optional[str], method: bool):
        """The new name (or method attribute), or None when it is already written so."""
        if method:
            return None if action.new == original.attr.value else updated_func.with_changes(attr=cst.Name(action.new))
        if action.new == literal:
            return None  # already written as the target (`tf1.Session` under compat.v1)
        return self.ctx.emit.like(original, action.new)

    # references

    def leave_reference(self, original, updated):
        inner = self._modules.pop(id(original.value), None) if isinstance(original, cst.Attribute) else None
        actions, literal = self._symbol(original)
        method = False
        moved = self._moved_alias_source(original) if not actions else None
        if moved is not None:
            return moved
        if not actions:
            self._module(original, inner)
            actions, method = self._method(original), True
        for action in actions:
            if action.report and not action.on_call:
                self._report(original, action, source(original))
        for action in actions:
            if action.new is not None and not action.on_call and not (action.call and action.call.guard):
                if not self.ctx.allowed(original, action.rule.info.code):
                    return updated
                new = self._renamed(original, updated, action, literal, method)
                if new is not None:
                    self._report(original, action, source(original), source(new))
                    self._renamed_ids.add(id(original))
                    return new
        return updated

    def _module(self, node, inner) -> None:
        """Carry a module finding outwards along `tf.contrib.rnn.X`: the outermost name is shown, the most
        specific module is named."""
        literal, canonical = self.ctx.resolve(node) if isinstance(node, (cst.Name, cst.Attribute)) else (None, None)
        if literal is not None and literal.startswith("tf.compat.v1.") and not literal.startswith("tf.compat.v1.contrib"):
            canonical = None  # `tf.compat.v1.app.flags` (this tool's own output): that module still exists
        if self._alias_follows(node):
            self._renamed_ids.add(id(node))
            canonical = None
        if isinstance(node, cst.Attribute) and id(node.value) in self._renamed_ids:
            self._renamed_ids.add(id(node))  # and their members: `tf.app.flags.FLAGS.batch_size`
            canonical = None  # `tf.app.flags` became `tf.compat.v1.app.flags`: its members are fine
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

    def _alias_follows(self, node) -> bool:
        """`flags` after `flags = tf.flags` (or `FLAGS` after `FLAGS = flags.FLAGS`): the assignment renames
        its source (or a name the source is under), so the alias means the new name and its uses stay."""
        if not isinstance(node, cst.Name) or self.ctx.shadowed(node.value):
            return False
        binding = self.ctx.imports.bindings.get(node.value)
        if binding is None or not binding.assigned:
            return False
        literal, canonical = self.ctx.resolve(node)
        if compat_v1_module(self.tables, canonical):
            return True  # `layers = tf.layers`: the source becomes tf.compat.v1.layers (_moved_alias_source)
        while canonical:
            actions = self._usable(self.tables.by_symbol.get(canonical, ()), literal)
            if any(a.new is not None and not a.on_call and not (a.call and a.call.guard) for a in actions):
                return True
            canonical = canonical.rpartition(".")[0]
        return False

    def _alias_sources(self) -> frozenset:
        if self._sources is None:
            self._sources = alias_sources(self.ctx.tree, self.ctx.imports)
        return self._sources

    def _moved_alias_source(self, node):
        """`layers = tf.layers`: a TF1 module that TF2 has only as `tf.compat.v1.layers`, named as an alias's
        source, is renamed there, so the alias and every use through it work (each use stays as written)."""
        if not isinstance(node, cst.Attribute):
            return None  # the alias itself (`layers`), or a bare module name
        literal, canonical = self.ctx.resolve(node)
        if not (literal and literal == canonical and compat_v1_module(self.tables, canonical)):
            return None
        sources = self._alias_sources()
        place = self.ctx.positions.place(node) if sources else None  # placing a name may cost a position pass
        if place is None or (place.line, place.col, dotted(node)) not in sources:
            return None
        new = "tf.compat.v1." + canonical[len("tf."):]
        if not self.ctx.report(node, "TFM610", f"`{source(node)}` is gone in TF2: `{new}` keeps its TF1 behaviour, "
                               "and every use through the alias with it"):
            return None
        self._renamed_ids.add(id(node))
        return self.ctx.emit.like(node, new)

    def leave_module(self, original, updated):
        for node, module in self._modules.values():
            self._report(node, self.tables.modules[module], source(node))
        self._modules.clear()
        self._renamed_ids.clear()
        return updated

    # calls

    def leave_call(self, original: cst.Call, updated: cst.Call):
        func = original.func
        inner = self._modules.pop(id(func.value), None) if isinstance(func, cst.Attribute) else None
        actions, literal = self._symbol(func)
        if self.ctx.resolve(func)[1] in self.claimed and (actions or inner is not None):
            return updated  # a code rule upgrades or reports it (a claimed name of a gone module too: TFM341)
        actions = self._undecided(original, updated, func, literal, actions)
        method = False
        if not actions:
            self._module(func, inner)
            pending = self._modules.pop(id(func), None)
            if pending is not None:
                self._report(func, self.tables.modules[pending[1]], source(func))
            actions, method = self._method(func), True
            if not actions or ("*." + func.attr.value in self.claimed and self._converted(original)):
                return updated  # no entry, or a method call a code rule converted (TFM657: no TFM607 beside it)
        actions = [a for a in actions if not (a.call and a.call.guard) or guards.check(a.call.guard, original, self.ctx)]
        for action in actions:
            if action.report:
                self._report(original, action, source(func))
                if action.on_call:
                    return updated  # a call only a code rule (or a human) can convert: left as it is
            for keyword, position, message, severity in action.warn:
                if arg_value(original, keyword, position if position >= 0 else None) is not None:
                    self.ctx.report(original, action.rule.info.code,
                                    message.replace("{name}", source(func)), severity=severity)
        start = updated
        for action in actions:
            if action.call is not None:  # a rename of the same rule reports the whole fix
                renamed = any(a.new is not None and a.rule is action.rule for a in actions)
                updated = self._edit(original, updated, action, renamed)
                if updated is None:
                    return start
        for action in actions:
            if action.new is not None:
                if not self.ctx.allowed(original, action.rule.info.code):
                    return start
                new = self._renamed(func, updated.func, action, literal, method) or updated.func
                final = updated.with_changes(func=new)
                if final.deep_equals(start):
                    return start  # nothing to do: `reduce(..., axis=None)` already has its axis
                self._report(original, action, source(func), source(new))
                return final
        return updated

    def _undecided(self, original, updated, func, literal, actions) -> tuple:
        """In a file not known to be TF1 or TF2: a call proven TF1's by its keywords gets the TF1 upgrades too,
        any other the TF1 upgrade would change gets TFM650 with both readings (undecided_calls.py)."""
        positional = sum(1 for a in original.args if a.keyword is None and not a.star)
        tf1_only = undecided_calls.tf1_only_actions(self.ctx, self.tables, func, literal, self.claimed, positional)
        if not tf1_only:
            return actions
        if any(undecided_calls.proves_tf1(original, a) for a in tf1_only):
            return tuple(actions) + tuple(a for a in tf1_only if a not in actions)
        reading = undecided_calls.tf1_reading(self.ctx, original, updated, tf1_only)
        if reading is not None:
            undecided_calls.report_two_readings(self.ctx, original, reading)
        return actions

    def _edit(self, original, updated, action: Action, renamed: bool = False):
        """`updated` with this action's argument edits; None when an argument blocks them (reported)."""
        args, blocker = edit_args(original, updated, action.call, self.ctx.emit.alias)
        if blocker is not None:
            code = blocker.code or action.rule.info.code
            self.ctx.report(blocker.node, code, _blocked(blocker, code, action, self.ctx.infos), fixable=False)
            return None
        fixed = updated.with_changes(args=args)
        if action.new is not None or renamed or fixed.deep_equals(updated):
            return fixed  # a rename reports the whole fix
        return fixed if self._report(original, action, source(original.func)) else updated


def _blocked(blocker, code: str, action: Action, infos: dict) -> str:
    if code == action.rule.info.code:
        return f"{action.rule.info.message}; not fixed: {blocker.message}"
    info = infos.get(code)
    return f"{info.message if info else code} ({blocker.message})"


def _explicit_compat_v1(expr) -> bool:
    """`tf.compat.v1.X` spelled out (not `tf1.X` through an alias): someone, often tf_upgrade_v2, chose it."""
    while isinstance(expr, cst.Attribute):
        if expr.attr.value == "v1" and isinstance(expr.value, cst.Attribute) and expr.value.attr.value == "compat":
            return True
        expr = expr.value
    return False
