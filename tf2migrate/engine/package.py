"""The package-level pre-pass: which modules of the files given build an Estimator for another one.

Trainer packages split the program: `model.py` has the model_fn and `build_estimator(config, params)`,
`task.py` calls `model.build_estimator(...)` and trains. Neither file converts alone, so before any file is
rewritten this pass reads (with Python's `ast`, only files that mention an Estimator) every module of a
package: its top-level helpers that return an Estimator call, and the sibling modules it imports. A file
then gets a `PackageView` with the text of the modules it depends on: the helpers' modules it imports, and,
for a helper module, the modules that import it. The view is part of the file's cache key.
"""
from __future__ import annotations

import ast
import hashlib
import os
import re
from dataclasses import dataclass, field
from typing import Optional

from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.package_builders import CALLS_ESTIMATOR, builds_in_functions, calls_in_functions, helpers_of

_SPEC = re.compile(r"EstimatorSpec\s*\(")  # TPUEstimatorSpec too


@dataclass(frozen=True)
class PackageView:
    """What one file's rewrite may read of its package: its own dotted name and its neighbours' texts."""

    name: str  # this module's dotted name, e.g. "trainer.task"
    modules: tuple = ()  # (dotted name, path, text) of each module it depends on

    def text_of(self, name: str) -> Optional[tuple]:
        return next(((path, text) for n, path, text in self.modules if n == name), None)

    def fingerprint(self) -> bytes:
        h = hashlib.sha256()
        for name, path, text in self.modules:
            h.update(f"{name}\0{len(text)}\0".encode() + text.encode("utf-8", "surrogatepass"))
        return h.digest()


@dataclass
class _Module:
    name: str
    path: str
    text: str
    helpers: dict = field(default_factory=dict)  # helper name -> line
    imports: set = field(default_factory=set)  # dotted names of modules it imports from (absolute)
    builds: bool = False  # a top-level function of it calls an Estimator class (a helper TFM322 can name)
    calls: bool = False  # its text calls an Estimator class (it may train one)
    specs: bool = False  # its text makes an EstimatorSpec (a model_fn a program of another module may use)
    tree: Optional[ast.Module] = None  # its `ast`, for `_read_imports`


def module_name(path: str, packages: Optional[dict] = None) -> Optional[str]:
    """`trainer.task` for `.../trainer/task.py` when `trainer/` has an `__init__.py`; None outside a package.
    `packages`: a memo (folder -> is a package) shared by the calls of one run: a tree's files share folders."""
    packages = {} if packages is None else packages

    def is_package(folder: str) -> bool:
        if folder not in packages:
            packages[folder] = os.path.isfile(os.path.join(folder, "__init__.py"))
        return packages[folder]

    folder, base = os.path.split(os.path.abspath(path))
    if not base.endswith(".py") or not is_package(folder):
        return None
    parts = [] if base == "__init__.py" else [base[:-3]]
    while is_package(folder):
        folder, pkg = os.path.split(folder)
        parts.insert(0, pkg)
    return ".".join(parts)


def imported_modules(tree, name: str) -> dict:
    """Local name -> (absolute dotted module, attribute or None) of every `import`/`from ... import`,
    relative ones resolved against this module's dotted `name`."""
    out = {}
    package = name.rsplit(".", 1)[0] if "." in name else ""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = (alias.name, None)
                else:
                    out[alias.name.split(".")[0]] = (alias.name.split(".")[0], None)
                    out[alias.name] = (alias.name, None)  # `import trainer.model`: used as trainer.model
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join(p for p in (*parts, node.module or "") if p) or "."  # outside a package
            for alias in node.names:
                out[alias.asname or alias.name] = (base, alias.name)
    return out


def _read(name: str, path: str, text: str) -> Optional[_Module]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not calls_in_functions(tree, text):  # no Estimator-like call in a top-level function: it builds none
        return _Module(name, path, text, tree=tree)
    imports = ImportMap.from_ast(tree)
    m = _Module(name, path, text, helpers_of(tree, imports), tree=tree)
    m.builds = bool(m.helpers) or builds_in_functions(tree, imports)
    return m


def _read_imports(m: _Module) -> None:
    """The modules `m` imports: asked only once some module builds an Estimator (a walk of the whole tree)."""
    for module, attr in imported_modules(m.tree, m.name).values():
        m.imports.add(module)
        if attr is not None:
            m.imports.add(f"{module}.{attr}")  # `from trainer import model`: the module trainer.model


def _modules(files: dict) -> dict:
    """The modules the pass must read, parsed: first those whose text calls an Estimator-like class (only
    they can build one), then those whose text names one of the builders (only they can import one). A tree
    with no builder is answered without parsing the rest (the estimator library itself: 116 files)."""
    named = {path: module_name(path) for path, text in files.items() if "stimator" in text}
    named = {path: name for path, name in named.items() if name is not None}
    modules = {}
    for path, name in named.items():
        if CALLS_ESTIMATOR.search(files[path]) and (m := _read(name, path, files[path])) is not None:
            modules[name], m.calls = m, True
    builders = {name.rsplit(".", 1)[-1] for name, m in modules.items() if m.builds}
    specs = {path: name for path, name in named.items() if _SPEC.search(files[path])} if modules else {}
    if not builders and not specs:
        return {}
    if builders:
        mentions = re.compile(r"\b(" + "|".join(sorted(map(re.escape, builders))) + r")\b")
        for path, name in named.items():
            if name not in modules and mentions.search(files[path]) and (m := _read(name, path, files[path])):
                modules[name] = m
    for path, name in specs.items():  # a model_fn's module: a program of another module may pass it (TFM342)
        if (m := modules.get(name) or _read(name, path, files[path])) is not None:
            modules[name], m.specs = m, True
    for m in modules.values():
        _read_imports(m)
    return modules


def scan(files: dict) -> dict:
    """`{path: text}` of the files of a run -> `{path: PackageView}` for the files that depend on others: the
    modules of a package (below) and a program's input modules, flat or not (`package_inputs.py`)."""
    from tf2migrate.engine.package_inputs import input_views

    return input_views(files, _package_views(files))


def _package_views(files: dict) -> dict:
    modules = _modules(files)
    deps = {name: set() for name in modules}
    for name, m in modules.items():
        for other in m.imports:
            if other != name and other in modules and modules[other].specs and m.calls:
                deps[name].add(other)  # a program reads the model_fn modules it imports, and they read it
                deps[other].add(name)
            if other != name and other in modules and modules[other].builds:
                deps[name].add(other)  # a program reads the modules it imports that build Estimators...
                if modules[other].helpers:
                    deps[other].add(name)  # ...and a helper's module reads the modules that import it
    for name, m in modules.items():  # the programs of one helper see each other: one alone may convert it
        if m.helpers:
            users = {other for other in deps[name] if name in deps[other]}
            for user in users:
                deps[user] |= users - {user}
            for user in users:  # and the helper's module sees what its programs see: it replays their rewrite
                deps[name] |= deps[user] - {name}
    views = {}
    for name, needed in deps.items():
        if needed:
            views[modules[name].path] = PackageView(
                name, tuple((n, modules[n].path, modules[n].text) for n in sorted(needed)))
    return views
