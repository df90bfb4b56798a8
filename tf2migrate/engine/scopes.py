"""Names bound locally in a function, so a parameter or variable that shadows an import is left alone."""
from __future__ import annotations

import libcst as cst


class _Bound(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set = set()
        self.declared_global: set = set()

    def _targets(self, node) -> None:
        if isinstance(node, cst.Name):
            self.names.add(node.value)
        elif isinstance(node, (cst.Tuple, cst.List)):
            for el in node.elements:
                self._targets(el.value)
        elif isinstance(node, cst.StarredElement):
            self._targets(node.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._targets(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._targets(node.target)

    def visit_AsName(self, node: cst.AsName) -> bool:
        self._targets(node.name)
        return False

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._targets(node.target)

    def visit_Global(self, node: cst.Global) -> None:
        self.declared_global.update(n.name.value for n in node.names)

    def visit_Import(self, node: cst.Import) -> bool:
        return False  # function-level imports are resolved like module-level ones

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


def _params(params: cst.Parameters) -> set:
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    return names


def function_locals(node: cst.FunctionDef) -> set:
    bound = _Bound()
    node.body.visit(bound)
    return (bound.names | _params(node.params)) - bound.declared_global


def lambda_locals(node: cst.Lambda) -> set:
    return _params(node.params)


class LazyLocals:
    """A function's local names, collected only if someone asks (most functions never are)."""

    def __init__(self, node: cst.FunctionDef) -> None:
        self.node = node
        self.names = None

    def __contains__(self, name: str) -> bool:
        if self.names is None:
            self.names = function_locals(self.node)
        return name in self.names
