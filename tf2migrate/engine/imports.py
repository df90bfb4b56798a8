"""Which local names are TensorFlow, and what canonical TF1 name a dotted reference means.

Canonical names start with `tf.` and drop `compat.v1`/`compat.v2`: in TF1 code `tf.train.AdamOptimizer`
*is* the TF1 name, and `import tensorflow.compat.v1 as tf1` makes `tf1.X` mean the same thing. A name bound
once at module level to a TensorFlow path (`tf1 = tf.compat.v1`, `Est = tf.estimator.Estimator`) is an
alias like an import's (see `assignment_aliases`).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.rebinding import is_tf_path, rebound
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # annotations only: the pre-pass uses this module without LibCST
    import libcst as cst


COMPAT = ("compat.v1.", "compat.v2.")


@dataclass
class Binding:
    local: str
    target: str  # dotted module or object path, e.g. "tensorflow.compat.v1"
    asname: Optional[str] = None  # the `as` name, when the import has one
    from_module: Optional[str] = None  # set for `from M import name`
    assigned: bool = False  # bound by `name = tf.path` (an assignment alias), not by an import


def dotted(node: "cst.BaseExpression") -> Optional[str]:
    """`a.b.c` for a Name/Attribute chain, else None."""
    import libcst as cst  # imported here: the pre-pass uses this module without LibCST

    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
    return ".".join(reversed(parts))


def ast_dotted(node: ast.AST) -> str:
    """`a.b.c` for an `ast` Name/Attribute chain, else ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    parts.append(node.id)
    return ".".join(reversed(parts))


# tensorflow_estimator's public API is `tf.estimator` (its `python.estimator.*` modules are private)
ESTIMATOR_PUBLIC = ("tensorflow_estimator.estimator", "tensorflow_estimator._api.v1.estimator",
                    "tensorflow_estimator._api.v2.estimator", "tensorflow_estimator.python.estimator.api._v1.estimator",
                    "tensorflow_estimator.python.estimator.api._v2.estimator")


def is_private(path: str) -> bool:
    """TensorFlow's own modules (`tensorflow.python.*`): no rule knows their names, except the Estimator's
    (`tensorflow.python.estimator`, where TF 1.x code imported it from), which TF 2.16 removed."""
    return path.startswith(("tensorflow.python.", "tf.python.")) and not path.startswith(
        ("tensorflow.python.estimator", "tf.python.estimator"))


def canonical_tf(path: str) -> Optional[str]:
    """`tensorflow.compat.v1.train.X` -> `tf.train.X`, `tensorflow_estimator.estimator.X` -> `tf.estimator.X`;
    None for anything outside TensorFlow's public names."""
    if path.startswith("tensorflow_estimator"):
        for prefix in ESTIMATOR_PUBLIC:
            if path == prefix or path.startswith(prefix + "."):
                return "tf.estimator" + path[len(prefix):]
        return None
    if path == "tensorflow":
        return "tf"
    if not path.startswith("tensorflow."):
        return None
    rest = path[len("tensorflow."):]
    for prefix in COMPAT:
        if rest.startswith(prefix):
            rest = rest[len(prefix):]
        elif rest + "." == prefix:
            rest = ""
    return "tf." + rest if rest else "tf"


@dataclass
class ImportMap:
    bindings: dict = field(default_factory=dict)
    rebound: dict = field(default_factory=dict)  # local -> (Binding, first other binding): not TF (rebinding.py)

    @classmethod
    def of(cls, module: cst.Module) -> "ImportMap":
        return cls.from_ast(ast.parse(module.code))

    @classmethod
    def from_ast(cls, tree: ast.AST) -> "ImportMap":
        """Every import in the file (module level or not), read from Python's own fast parser."""
        bindings: dict = {}
        tf: dict = {}  # local -> its first binding by a TensorFlow import
        for node in nodes(tree, ast.Import, ast.ImportFrom):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    target = alias.name if alias.asname else local
                    bindings[local] = Binding(local, target, alias.asname)
                    if is_tf_path(target):
                        tf.setdefault(local, bindings[local])
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                for alias in node.names:
                    if alias.name != "*":
                        local = alias.asname or alias.name
                        bindings[local] = Binding(local, f"{node.module}.{alias.name}", alias.asname, node.module)
                        if is_tf_path(node.module):
                            tf.setdefault(local, bindings[local])
        moved = {}
        if isinstance(tree, ast.Module) and tf:  # a TF name bound again is no TF name (rebinding.py)
            moved = {local: (tf[local], node) for local, node in rebound(tree, tf).items()}
            for local in moved:
                bindings.pop(local, None)
        assignment_aliases(tree, bindings)
        return cls(bindings, moved)

    def resolve(self, expr: cst.BaseExpression) -> tuple[Optional[str], Optional[str]]:
        """(literal, canonical) names for a reference, e.g. (`tf.compat.v1.X`, `tf.X`)."""
        name = dotted(expr)
        return self.resolve_dotted(name) if name is not None else (None, None)

    def canonical(self, expr) -> Optional[str]:
        """The canonical TF name of any expression: None unless it is a chain that names TensorFlow.
        Scope-free, for whole-module analyses; rules inside the traversal use `Context.resolve`."""
        return self.resolve(expr)[1]

    def ast_canonical(self, node: ast.AST) -> Optional[str]:
        """`canonical` for an `ast` node (the fast tree of whole-module analyses)."""
        return self.resolve_dotted(ast_dotted(node))[1]

    def resolve_dotted(self, name: str) -> tuple[Optional[str], Optional[str]]:
        head, _, rest = name.partition(".")
        binding = self.bindings.get(head)
        if binding is None:
            return None, None
        full = binding.target + ("." + rest if rest else "")
        in_tf = full == "tensorflow" or full.startswith("tensorflow.")
        literal = "tf" + full[len("tensorflow"):] if in_tf else None
        return literal, canonical_tf(full)

    def is_module_alias(self, name: str) -> bool:
        return name in self.bindings

    def v2_alias(self) -> Optional[str]:
        """A local name bound to the TF2 `tensorflow` namespace, if the file has one."""
        for local, b in self.bindings.items():
            if b.from_module is None and not b.assigned and b.target in ("tensorflow", "tensorflow.compat.v2"):
                if b.asname is not None or b.target == "tensorflow":
                    return local
        return None

    def v1_alias(self) -> Optional[str]:
        """A local name bound to `tensorflow.compat.v1` itself (`import tensorflow.compat.v1 as tf1`,
        `tf1 = tf.compat.v1`), if the file has one."""
        for local, b in self.bindings.items():
            if b.target == "tensorflow.compat.v1" and not b.assigned and (b.asname is not None or b.from_module):
                return local
        return None

_TF_PATHS = ("tensorflow.", "tensorflow_estimator")
_BLOCKS = tuple(getattr(ast, kind) for kind in ("If", "For", "AsyncFor", "While", "With", "AsyncWith", "Try", "TryStar")
                if hasattr(ast, kind))


def _module_statements(body):
    """The statements that run in the module's own scope (inside if/for/with/try, not def/class)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, _BLOCKS):
            for name in ("body", "orelse", "finalbody"):
                yield from _module_statements(getattr(stmt, name, ()))
            for handler in getattr(stmt, "handlers", ()):
                yield from _module_statements(handler.body)


def _bound_names(stmt) -> list:
    """The names one module-level statement binds."""
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [a.asname or a.name.split(".")[0] for a in stmt.names]
    elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        return [h.name for h in stmt.handlers if h.name]
    else:
        return []
    out = []
    for target in targets:
        out.extend(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return out


def assignment_aliases(tree, bindings: dict, global_statements=None) -> None:
    """Add `tf1 = tf.compat.v1`, `layers = tf.contrib.layers`, `Est = tf.estimator.Estimator`: a module-level
    name assigned a dotted TensorFlow path, and bound nowhere else in the module (no second assignment, no
    import, def or loop, no `global` in a function), names what that path names, everywhere."""
    if not isinstance(tree, ast.Module):
        return
    statements = list(_module_statements(tree.body))
    candidates = [s for s in statements if isinstance(s, ast.Assign) and len(s.targets) == 1
                  and isinstance(s.targets[0], ast.Name) and isinstance(s.value, (ast.Name, ast.Attribute))]
    if not candidates:
        return
    counts: dict = {}
    for stmt in statements:
        for name in _bound_names(stmt):
            counts[name] = counts.get(name, 0) + 1
    found = global_statements if global_statements is not None else nodes(tree, ast.Global)
    declared = {name for node in found for name in node.names}
    for stmt in candidates:  # source order: `a = tf.compat; b = a.v1` resolves through `a`
        local = stmt.targets[0].id
        if counts.get(local) != 1 or local in declared or local in bindings:
            continue
        head, _, rest = ast_dotted(stmt.value).partition(".")
        binding = bindings.get(head)
        if binding is None or not (binding.target == "tensorflow" or binding.target.startswith(_TF_PATHS)):
            continue
        target = binding.target + ("." + rest if rest else "")
        bindings[local] = Binding(local, target, local, None, assigned=True)
