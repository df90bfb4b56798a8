"""Write TF2 names in the file's own style and add only the imports they need.

A name is written through the alias the file already has for `tensorflow` (never de-aliased). A
bare name that came from a from-import stays bare: its import is re-pointed at the new module
(keeping the user's `as` alias) when that module can be imported; otherwise the attribute form
is used and `import tensorflow as tf` (or a free alias) is added once.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import Binding, ImportMap

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_EMPTY = cst.Module([])


def source(node: cst.CSTNode) -> str:
    """A node's code exactly as written (LibCST round-trips every node)."""
    return _EMPTY.code_for_node(node)

ALIAS_CANDIDATES = ("tf", "tf2", "tensorflow_v2")


class NameEmitter:
    def __init__(self, imports: ImportMap, importable: frozenset, text: str, no_retarget=frozenset()) -> None:
        self.imports = imports
        self.importable = importable
        self.taken = set(_WORD.findall(text))
        self.no_retarget = no_retarget
        self.new_alias: Optional[str] = None
        self.retargets: dict = {}  # local name -> (module, name, asname or None)
        self.rewritten: Counter = Counter()  # local name -> references re-pointed

    def snapshot(self) -> tuple:
        """The imports asked for so far, to `restore` when a rule gives up on what it emitted."""
        return self.new_alias, dict(self.retargets), Counter(self.rewritten)

    def restore(self, saved: tuple) -> None:
        self.new_alias, self.retargets, self.rewritten = saved[0], dict(saved[1]), Counter(saved[2])

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

    def compat_v1(self, canonical: str) -> cst.BaseExpression:
        """The TF1 API's `canonical` (`tf.data.make_one_shot_iterator`), for what TF2 keeps only under
        `compat.v1`: through the file's own `tensorflow.compat.v1` alias when it has one (`tf1.data....`),
        else `tf.compat.v1.data....` through its `tensorflow` alias."""
        local = next((b.local for b in self.imports.bindings.values() if b.target == "tensorflow.compat.v1"), None)
        if local is None:
            return self.attribute("tf.compat.v1." + canonical[3:])
        node: cst.BaseExpression = cst.Name(local)
        for part in canonical.split(".")[1:]:
            node = cst.Attribute(value=node, attr=cst.Name(part))
        return node

    def _module(self, canonical: str) -> tuple:
        parent, _, last = canonical.rpartition(".")
        module = "tensorflow" + parent[2:]
        return (module, last) if module in self.importable else (None, last)

    def _retarget(self, binding: Binding, canonical: str) -> Optional[cst.Name]:
        module, last = self._module(canonical)
        if module is None or binding.local in self.no_retarget:
            return None
        asname = binding.local if binding.asname is not None else None
        local = asname or last
        if local != binding.local and local in self.taken:
            return None
        self.retargets[binding.local] = (module, last, asname)
        self.rewritten[binding.local] += 1
        return cst.Name(local)

    def like(self, original: cst.BaseExpression, canonical: str) -> cst.BaseExpression:
        """`canonical` written the way `original` was: bare name or attribute chain."""
        if isinstance(original, cst.Name):
            binding = self.imports.bindings.get(original.value)
            if binding is not None and binding.from_module is not None:
                name = self._retarget(binding, canonical)
                if name is not None:
                    return name
        return self.attribute(canonical)

    def statements(self) -> list:
        out = []
        if self.new_alias:
            out.append(cst.parse_statement(f"import tensorflow as {self.new_alias}\n"))
        modules: dict = {}
        for module, name, asname in sorted(set(self.retargets.values())):
            entry = f"{name} as {asname}" if asname and asname != name else name
            if entry not in modules.setdefault(module, []):
                modules[module].append(entry)
        for module, names in modules.items():
            out.append(cst.parse_statement(f"from {module} import {', '.join(sorted(names))}\n"))
        return out
