"""Write TF2 names in the file's own style and add only the imports they need.

A name is written through the alias the file already has for `tensorflow` (never de-aliased); a
reference that came from a from-import stays a bare name with a from-import when its module can
be imported; otherwise `import tensorflow as tf` (or a free alias) is added once.
"""
from __future__ import annotations

import re
from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import ImportMap

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ALIAS_CANDIDATES = ("tf", "tf2", "tensorflow_v2")


class NameEmitter:
    def __init__(self, imports: ImportMap, importable: frozenset, text: str) -> None:
        self.imports = imports
        self.importable = importable
        self.taken = set(_WORD.findall(text))
        self.new_alias: Optional[str] = None
        self.new_from: list = []  # (module, name)

    def alias(self) -> str:
        existing = self.imports.v2_alias()
        if existing:
            return existing
        if self.new_alias is None:
            self.new_alias = next(a for a in ALIAS_CANDIDATES if a not in self.taken)
        return self.new_alias

    def attribute(self, canonical: str) -> cst.BaseExpression:
        node: cst.BaseExpression = cst.Name(self.alias())
        for part in canonical.split(".")[1:]:
            node = cst.Attribute(value=node, attr=cst.Name(part))
        return node

    def bare(self, canonical: str) -> Optional[cst.Name]:
        parent, _, last = canonical.rpartition(".")
        module = "tensorflow" + parent[2:]
        if module not in self.importable:
            return None
        existing = self.imports.bindings.get(last)
        if existing is not None:
            return cst.Name(last) if existing.target == f"{module}.{last}" else None
        if (module, last) not in self.new_from:
            if last in self.taken:
                return None
            self.new_from.append((module, last))
        return cst.Name(last)

    def like(self, original: cst.BaseExpression, canonical: str) -> cst.BaseExpression:
        """`canonical` written the way `original` was: bare name or attribute chain."""
        if isinstance(original, cst.Name):
            bare = self.bare(canonical)
            if bare is not None:
                return bare
        return self.attribute(canonical)

    def statements(self) -> list:
        out = []
        if self.new_alias:
            out.append(cst.parse_statement(f"import tensorflow as {self.new_alias}\n"))
        modules: dict = {}
        for module, name in self.new_from:
            modules.setdefault(module, []).append(name)
        for module, names in modules.items():
            out.append(cst.parse_statement(f"from {module} import {', '.join(names)}\n"))
        return out
