"""The engine knows no rule: no module under `tf2migrate/engine/` imports `tf2migrate.rules`, and no import
circle joins the two rooms. Read from every module's `ast` (imports inside functions count too), so a lazy
import cannot hide an arrow.
"""
from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "tf2migrate"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(root: Path = PACKAGE) -> dict:
    """module -> the modules of the package it imports (`from a import b` counts `a.b` when that is a module)."""
    modules = {module_name(p, root): p for p in root.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                on.discard(w)
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(part)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _room(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def test_the_engine_imports_no_rule():
    arrows = sorted(f"{a} -> {b}" for a, targets in imports().items() if _room(a) == "engine"
                    for b in targets if _room(b) == "rules")
    assert arrows == []


def test_no_import_circle_joins_engine_and_rules():
    """Through any module of the package (`tf2migrate/__init__.py`, which joins the rooms, the harness...)."""
    assert [sorted(part) for part in cycles(imports()) if {"engine", "rules"} <= {_room(m) for m in part}] == []


def test_the_circle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert imports()["tf2migrate.rules.registry"] >= {"tf2migrate.rules.manifest", "tf2migrate.rules.tables"}
