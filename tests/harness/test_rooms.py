"""The harness's rooms (issue 20), read from the source with `ast`: no import circle, and each room imports only
the rooms below it. Every import counts, also one inside a function. `capture` runs inside each child and must
not need the parent's rooms (`running`, `report`, `api`); `compare` (the observations both sides share, and
the comparisons) imports no other room. The rest of tf2migrate imports the harness only in `verify`, lazily."""
import ast
import os
import pathlib
import subprocess

from harness_support import PYTHON

ROOT = pathlib.Path(__file__).resolve().parents[2]
HARNESS = ROOT / "tf2migrate" / "harness"
MAY_IMPORT = {   # room -> the rooms its modules may import (the face, api and pytest_helper, may import any)
    "compare": {"compare"},
    "capture": {"capture", "compare"},
    "running": {"running", "capture", "compare"},
    "report": {"report", "compare"},
}


def _module(path, base):
    parts = list(path.relative_to(base.parent.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path, name, known):
    """The modules of `known` that the file imports, wherever the import statement is."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.update(f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names)
    return {m for m in found if m in known and m != name}


def import_graph(harness=HARNESS):
    """{module: modules of the harness it imports}, for every module under `harness`."""
    files = {_module(p, harness): p for p in sorted(harness.rglob("*.py"))}
    return {name: imports_of(path, name, files) for name, path in files.items()}


def circles(graph):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def room_of(module):
    parts = module.split(".")
    return parts[2] if len(parts) > 3 else None   # tf2migrate.harness.ROOM.module; None: the face


def test_the_circle_finder_finds_a_circle_and_nothing_else():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set(), "d": {"a", "b"}}) == []


def test_the_graph_sees_imports_inside_functions(tmp_path):
    (tmp_path / "tf2migrate" / "harness" / "room").mkdir(parents=True)
    (tmp_path / "tf2migrate" / "harness" / "room" / "a.py").write_text(
        "def f():\n    from tf2migrate.harness.room import b\n")
    (tmp_path / "tf2migrate" / "harness" / "room" / "b.py").write_text("from . import a\n")
    graph = import_graph(tmp_path / "tf2migrate" / "harness")
    assert circles(graph) == [["tf2migrate.harness.room.a", "tf2migrate.harness.room.b"]]


def test_no_import_circle_in_the_harness():
    graph = import_graph()
    assert len(graph) > 40 and sum(map(len, graph.values())) > 100   # the graph was read, not found empty
    assert circles(graph) == []


def test_each_room_imports_only_the_rooms_below_it():
    wrong = [f"{m} -> {other}" for m, imported in import_graph().items() if room_of(m) in MAY_IMPORT
             for other in sorted(imported) if room_of(other) not in MAY_IMPORT[room_of(m)]]
    assert wrong == []
    assert {room_of(m) for m in import_graph()} == set(MAY_IMPORT) | {None}


def test_the_child_imports_nothing_of_the_parent_and_no_tensorflow():
    code = ("import pkgutil, importlib, sys, tf2migrate.harness.capture as c\n"
            "for m in pkgutil.iter_modules(c.__path__):\n"
            "    importlib.import_module('tf2migrate.harness.capture.' + m.name)\n"
            "bad = sorted(k for k in sys.modules if k.startswith(('tensorflow', 'keras', 'tf2migrate.harness.running',"
            " 'tf2migrate.harness.report', 'tf2migrate.harness.api')))\n"
            "print(len([m for m in sys.modules if m.startswith('tf2migrate.harness.capture.')]), bad)\n")
    out = subprocess.run([PYTHON, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    count, bad = out.stdout.split(" ", 1)
    assert int(count) > 15 and bad.strip() == "[]"


def test_only_verify_imports_the_harness_and_only_when_it_runs():
    users = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tf2migrate").rglob("*.py")
                   if HARNESS not in p.parents and "tf2migrate.harness" in p.read_text())
    assert users == ["tf2migrate/__init__.py", "tf2migrate/cli/verify_cmd.py"]
    for where in users:
        top = [n for n in ast.parse((ROOT / where).read_text()).body if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert not [n for n in top if "harness" in ast.unparse(n)], where   # in the functions that run verify
