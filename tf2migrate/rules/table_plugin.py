"""The one generic transformer for every table rule: one dictionary lookup per node.

For a call it applies, in order: reports, argument edits (see `call_edit`), then the symbol or
method rename. A bare reference (no call) gets the rename or the report only.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules import guards
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.call_edit import edit_args
from tf2migrate.rules.receivers import is_module
from tf2migrate.rules.tables import TableRule, Tables


class TablePlugin(Plugin):
    def __init__(self, ctx, tables: Tables) -> None:
        super().__init__(ctx)
        self.tables = tables

    def _symbol(self, expr) -> tuple:
        if not isinstance(expr, (cst.Name, cst.Attribute)):
            return None, None
        literal, canonical = self.ctx.resolve(expr)
        for key in (literal, canonical):
            rule = self.tables.by_symbol.get(key) if key else None
            if rule is not None:
                return rule, key
        return None, None

    def _method(self, expr) -> Optional[TableRule]:
        if not isinstance(expr, cst.Attribute):
            return None
        rule = self.tables.by_method.get(expr.attr.value)
        if rule is None:
            return None
        if is_module(expr.value, self.ctx):
            return None  # `functools.reduce`, `inspect.unwrap`: a module, not a strategy
        return rule

    def leave_reference(self, original, updated):
        rule, key = self._symbol(original)
        if rule is not None:
            if key in rule.renames:
                if self.ctx.report(original, rule.info.code):
                    return self.ctx.emit.like(original, rule.renames[key])
            else:
                self.ctx.report(original, rule.info.code)
            return updated
        rule = self._method(original)
        if rule is not None and rule.call.guard is None and original.attr.value in rule.methods:
            if self.ctx.report(original, rule.info.code):
                return updated.with_changes(attr=cst.Name(rule.methods[original.attr.value]))
        return updated

    def leave_call(self, original: cst.Call, updated: cst.Call):
        rule, key = self._symbol(original.func)
        method = None
        if rule is None:
            rule = self._method(original.func)
            if rule is None:
                return updated
            method = original.func.attr.value
        if rule.call.guard and not guards.check(rule.call.guard, original, self.ctx):
            return updated
        if (key in rule.reports) or (method in rule.report_methods):
            self.ctx.report(original, rule.info.code)
            return updated
        args, blocker = edit_args(original, updated, rule.call, self.ctx.emit.alias)
        if blocker is not None:
            code = blocker.code or rule.info.code
            self.ctx.report(blocker.node, code, _blocked(blocker, code, rule, self.ctx.infos), fixable=False)
            return updated
        if method is not None:
            fixed = updated.with_changes(func=updated.func.with_changes(attr=cst.Name(rule.methods[method])), args=args)
            if fixed.deep_equals(updated):
                return updated  # nothing to do: `reduce(..., axis=None)` already has its axis
            return fixed if self.ctx.report(original, rule.info.code) else updated
        if not self.ctx.report(original, rule.info.code):
            return updated
        return updated.with_changes(func=self.ctx.emit.like(original.func, rule.renames[key]), args=args)


def _blocked(blocker, code: str, rule: TableRule, infos: dict) -> str:
    if code == rule.info.code:
        return f"{rule.info.message}; not fixed: {blocker.message}"
    info = infos.get(code)
    return f"{info.message if info else code} ({blocker.message})"
