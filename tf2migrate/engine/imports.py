"""Which local names are TensorFlow, and what canonical TF1 name a dotted reference means.

Canonical names start with `tf.` and drop `compat.v1`/`compat.v2`: in TF1 code `tf.train.AdamOptimizer`
*is* the TF1 name, and `import tensorflow.compat.v1 as tf1` makes `tf1.X` mean the same thing.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from tf2migrate.engine.ast_index import nodes
from typing import Optional


COMPAT = ("compat.v1.", "compat.v2.")


@dataclass
class Binding:
    local: str
    target: str  # dotted module or object path, e.g. "tensorflow.compat.v1"
    asname: Optional[str] = None  # the `as` name, when the import has one
    from_module: Optional[str] = None  # set for `from M import name`
    assigned: bool = False  # `tf1 = tf.compat.v1`: resolves like an import, but new code is not written
    # through it (a statement above the assignment could not use it)


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


def canonical_tf(path: str) -> Optional[str]:
    """`tensorflow.compat.v1.train.X` -> `tf.train.X`; None for anything outside TensorFlow."""
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


_MODULE_ALIASES = re.compile(r"^tensorflow(\.compat\.v[12])?$|^tensorflow\.contrib(\.[a-z_0-9]+)?$")


def _assignment_aliases(tree: ast.AST, bindings: dict) -> None:
    """`tf1 = tf.compat.v1` or `slim = tf.contrib.slim` at module level: an alias of a TF module, read like
    `import tensorflow.compat.v1 as tf1` (so names resolve and new ones are written through it). Only
    module aliases: `log = tf.log` stays a plain variable."""
    for node in getattr(tree, "body", ()):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            head, _, rest = ast_dotted(node.value).partition(".")
            binding = bindings.get(head)
            if binding is None or binding.from_module is not None and binding.target.count(".") < 1:
                continue
            target = binding.target + ("." + rest if rest else "")
            if _MODULE_ALIASES.match(target):
                local = node.targets[0].id
                bindings[local] = Binding(local, target, local, assigned=True)


@dataclass
class ImportMap:
    bindings: dict = field(default_factory=dict)

    @classmethod
    def of(cls, module: cst.Module) -> "ImportMap":
        return cls.from_ast(ast.parse(module.code))

    @classmethod
    def from_ast(cls, tree: ast.AST) -> "ImportMap":
        """Every import in the file (module level or not), read from Python's own fast parser."""
        bindings: dict = {}
        for node in nodes(tree, ast.Import, ast.ImportFrom):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    target = alias.name if alias.asname else local
                    bindings[local] = Binding(local, target, alias.asname)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                for alias in node.names:
                    if alias.name != "*":
                        local = alias.asname or alias.name
                        bindings[local] = Binding(local, f"{node.module}.{alias.name}", alias.asname, node.module)
        _assignment_aliases(tree, bindings)
        return cls(bindings)

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
