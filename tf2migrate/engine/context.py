"""The per-file context every rule reports through: positions, suppressions, selection, names.

`report()` is the single gate: it records the diagnostic and answers whether the fix may be applied
(the code is selected and not suppressed on the node's lines).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.engine.diagnostics import Diagnostic, Severity
from tf2migrate.engine.emit import NameEmitter
from tf2migrate.engine.facts import Facts
from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.positions import Place
from tf2migrate.engine.selection import Selection  # noqa: F401 (defined there, still importable here)
from tf2migrate.engine.suppress import Suppressions
from tf2migrate.engine.tf_version import TFVersion, Verdict, decide


@dataclass
class Context:
    path: str
    imports: ImportMap
    positions: object  # engine.positions.Positions: places a node only when it is reported
    suppressions: Suppressions
    selection: Selection
    emit: NameEmitter
    infos: dict  # code -> RuleInfo
    diagnostics: list = field(default_factory=list)
    scopes: list = field(default_factory=list)  # stack of locally bound names
    module: Optional[cst.Module] = None
    references: Counter = field(default_factory=Counter)  # import binding -> references seen
    memo: dict = field(default_factory=dict)  # per-module analyses that rules share, built on first use
    text: str = ""  # the module's source, for cheap text checks before an analysis
    tree: object = None  # the same source parsed by `ast`: fast to walk for whole-module facts
    package: object = None  # engine.package.PackageView: the modules of its package this file depends on
    vetoed: dict = field(default_factory=dict)  # plugin class name -> why its output failed check_output
    _facts: Optional[Facts] = None
    _verdict: Optional[Verdict] = None

    @property
    def facts(self) -> Facts:
        if self._facts is None:
            self._facts = Facts(self)
        return self._facts

    @property
    def tf_version(self) -> Verdict:
        """TF1 or TF2 for this file's plain `tensorflow` names: decided once, on first use."""
        if self._verdict is None:
            self._verdict = decide(self.tree, self.imports, self.selection.source)
        return self._verdict

    def tf1_semantics(self, literal: Optional[str]) -> Optional[bool]:
        """Does this reference mean the TF1 API? The reference decides when it names `compat.v1` or
        `compat.v2`; otherwise the file's verdict. None: unknown (a meaning-changing fix must not run)."""
        if literal is not None and literal.startswith("tf.compat.v1."):
            return True
        if literal is not None and literal.startswith("tf.compat.v2."):
            return False
        version = self.tf_version.version
        return None if version is TFVersion.UNKNOWN else version is TFVersion.TF1

    def read_other(self, text: str, path: str, package=None) -> tuple:
        """(LibCST module, Context) of another module of the package (`apply.context_for`), for a rule that
        reads it: the engine parses it, the rule need not know how."""
        from tf2migrate.engine.apply import context_for

        return context_for(text, path, self.selection, package)

    def rewrite_other(self, text: str, path: str, package=None):
        """Another module of the package rewritten as its own run does, with this file's selection and rules
        (`apply.rewrite_text`), for a rule whose answer depends on that rewrite."""
        from tf2migrate.engine.apply import rewrite_text

        return rewrite_text(text, path, self.selection, package=package)

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

    def allowed(self, node: cst.CSTNode, code: str) -> bool:
        """`code` is selected and not suppressed where `node` stands: what `report` checks, asked before
        a rule builds anything."""
        return self._gate(node, code) is not None

    def _gate(self, node, code):
        if not self.selection.enabled(code):
            return None
        place = self.positions.place(node) or Place(1, 1, 1)
        return None if self.suppressions.covers(code, place.line, place.end_line) else place

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
        place = self._gate(node, code)
        if place is None:
            return False
        line, col = place.line, place.col
        info = self.infos.get(code)
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
