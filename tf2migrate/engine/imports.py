"""Which local names are TensorFlow, and what canonical TF1 name a dotted reference means.

Canonical names start with `tf.` and drop `compat.v1`/`compat.v2`: in TF1 code `tf.train.AdamOptimizer`
*is* the TF1 name, and `import tensorflow.compat.v1 as tf1` makes `tf1.X` mean the same thing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

COMPAT = ("compat.v1.", "compat.v2.")


@dataclass
class Binding:
    local: str
    target: str  # dotted module or object path, e.g. "tensorflow.compat.v1"
    statement: cst.CSTNode
    alias: cst.ImportAlias
    from_module: Optional[str] = None  # set for `from M import name`


def dotted(node: cst.BaseExpression) -> Optional[str]:
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.append(node.value)
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


@dataclass
class ImportMap:
    bindings: dict = field(default_factory=dict)

    @classmethod
    def of(cls, module: cst.Module) -> "ImportMap":
        collector = _Collector()
        module.visit(collector)
        return cls(collector.bindings)

    def resolve(self, expr: cst.BaseExpression) -> tuple[Optional[str], Optional[str]]:
        """(literal, canonical) names for a reference, e.g. (`tf.compat.v1.X`, `tf.X`)."""
        name = dotted(expr)
        if name is None:
            return None, None
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
            if b.from_module is None and b.target in ("tensorflow", "tensorflow.compat.v2"):
                if b.alias.asname is not None or b.alias.name.value == "tensorflow":
                    return local
        return None

    def bound_to(self, local: str) -> Optional[str]:
        b = self.bindings.get(local)
        return b.target if b else None


class _Collector(cst.CSTVisitor):
    def __init__(self) -> None:
        self.bindings: dict[str, Binding] = {}

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            full = dotted(alias.name) or ""
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local, target = alias.asname.name.value, full
            else:
                local = target = full.split(".")[0]
            self.bindings[local] = Binding(local, target, node, alias)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return False
        module = dotted(node.module) or ""
        for alias in node.names:
            name = dotted(alias.name) or ""
            local = alias.asname.name.value if alias.asname is not None else name
            self.bindings[local] = Binding(local, f"{module}.{name}", node, alias, from_module=module)
        return False
