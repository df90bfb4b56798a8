"""The per-file context every rule reports through: positions, suppressions, selection, names.

`report()` is the single gate: it records the diagnostic and answers whether the fix may be applied
(the code is selected and not suppressed on the node's lines).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.engine.diagnostics import Diagnostic, Severity, code_matches
from tf2migrate.engine.emit import NameEmitter
from tf2migrate.engine.facts import Facts
from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.suppress import Suppressions


@dataclass(frozen=True)
class Selection:
    """Which codes run (prefix match), plus the rewrite's choices (`strategy`: auto, none, ...)."""

    select: tuple = ("ALL",)
    ignore: tuple = ()
    strategy: str = "auto"

    def enabled(self, code: str) -> bool:
        return code_matches(code, self.select) and not code_matches(code, self.ignore)


@dataclass
class Context:
    path: str
    imports: ImportMap
    positions: dict
    suppressions: Suppressions
    selection: Selection
    emit: NameEmitter
    infos: dict  # code -> RuleInfo
    diagnostics: list = field(default_factory=list)
    scopes: list = field(default_factory=list)  # stack of locally bound names
    functions: list = field(default_factory=list)  # stack of enclosing FunctionDef nodes (original)
    module: Optional[cst.Module] = None
    references: Counter = field(default_factory=Counter)  # import binding -> references seen
    memo: dict = field(default_factory=dict)  # per-module analyses that rules share, built on first use
    _facts: Optional[Facts] = None

    @property
    def facts(self) -> Facts:
        if self._facts is None:
            self._facts = Facts(self, self.module)
        return self._facts

    def shadowed(self, name: str) -> bool:
        """A local variable or parameter hides the imported name here."""
        return any(name in scope for scope in self.scopes)

    def resolve(self, expr: cst.BaseExpression):
        """(literal, canonical) TF names of a reference, or (None, None) when shadowed or not TF."""
        head = expr
        while isinstance(head, cst.Attribute):
            head = head.value
        if isinstance(head, cst.Name) and self.shadowed(head.value):
            return None, None
        return self.imports.resolve(expr)

    def report(
        self,
        node: cst.CSTNode,
        code: str,
        message: Optional[str] = None,
        *,
        fixable: Optional[bool] = None,
        severity: Optional[Severity] = None,
    ) -> bool:
        """Record a finding at `node`; True when its fix may be applied."""
        info = self.infos.get(code)
        if not self.selection.enabled(code):
            return False
        pos = self.positions.get(node)
        line, col = (pos.start.line, pos.start.column + 1) if pos else (1, 1)
        last = pos.end.line if pos else line
        if self.suppressions.covers(code, line, last):
            return False
        fixable = info.fixable if fixable is None and info else bool(fixable)
        self.diagnostics.append(
            Diagnostic(
                path=self.path,
                line=line,
                col=col,
                code=code,
                message=message or (info.message if info else code),
                severity=severity or (info.severity if info else Severity.WARNING),
                fixable=fixable,
                fixed=fixable,
            )
        )
        return fixable
