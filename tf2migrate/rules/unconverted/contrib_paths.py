"""Which import statements import `tensorflow.contrib`, read from Python's `ast` alone (free of LibCST: the
pre-pass, engine/process.py, asks before any rule is loaded; the rule is contrib_imports.py)."""
from __future__ import annotations

import ast

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import canonical_tf


def contrib_paths(node) -> list:
    """The `tensorflow.contrib...` modules an `ast` import statement imports (`from tensorflow import contrib`
    too), [] for any other."""
    if isinstance(node, ast.Import):
        paths = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
        paths = [f"{node.module}.{alias.name}" for alias in node.names]
    else:
        return []
    return [p for p in paths if (canonical_tf(p) or "").split(".")[:2] == ["tf", "contrib"]]


def imports_contrib(tree) -> bool:
    """Does the module import from tensorflow.contrib anywhere (the pre-pass's question: it must go to LibCST)."""
    return any(contrib_paths(node) for node in nodes(tree, ast.Import, ast.ImportFrom))  # the shared index
