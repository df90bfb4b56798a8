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

from tf2migrate.engine.ast_index import nodes
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


def imported_modules(tree, name: str, ordered: bool = True) -> dict:
    """Local name -> (absolute dotted module, attribute or None) of every `import`/`from ... import`,
    relative ones resolved against this module's dotted `name`. `ordered=False`: the same dict, its keys
    perhaps in another order (read from the shared index, without a walk of the whole tree)."""
    out = {}
    package = name.rsplit(".", 1)[0] if "." in name else ""
    for node in _imports(tree) if not ordered else (n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))):
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


def _imports(tree) -> list:
    """The `import` and `from ... import` statements, from the shared index (a walk of its own cost most of the
    package pass): each kind in `ast.walk`'s order, one kind after the other unless a name is bound by both (a
    later binding wins: then in walk order)."""
    plain, froms = nodes(tree, ast.Import), nodes(tree, ast.ImportFrom)
    if not plain or not froms:
        return plain or froms
    bound = {alias.asname or alias.name.split(".")[0] for node in plain for alias in node.names}
    if bound.isdisjoint(alias.asname or alias.name for node in froms for alias in node.names):
        return plain + froms
    return [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]


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
    for module, attr in imported_modules(m.tree, m.name, ordered=False).values():
        m.imports.add(module)
        if attr is not None:
            m.imports.add(f"{module}.{attr}")  # `from trainer import model`: the module trainer.model
    for node in m.tree.body:  # every `from M import *` (imported_modules keeps one local name "*")
        if isinstance(node, ast.ImportFrom) and node.names[0].name == "*" and not node.level and node.module:
            m.imports.add(node.module)


def script_name(path: str) -> Optional[str]:
    """`model_fn` for `.../auto-encoder/model_fn.py` in a folder without `__init__.py`: a script's sibling, which
    `from model_fn import *` imports when the script runs from its folder (its folder is first on sys.path)."""
    folder, base = os.path.split(os.path.abspath(path))
    if not base.endswith(".py") or base == "__init__.py" or os.path.isfile(os.path.join(folder, "__init__.py")):
        return None
    return base[:-3] if base[:-3].isidentifier() else None


def _modules(files: dict, name_of=module_name) -> dict:
    """The modules the pass must read, parsed: first those whose text calls an Estimator-like class (only
    they can build one), then those whose text names one of the builders (only they can import one). A tree
    with no builder is answered without parsing the rest (the estimator library itself: 116 files)."""
    named = {path: name_of(path) for path, text in files.items() if "stimator" in text}
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


def package_root(path: str, packages: dict) -> str:
    """The folder that holds the top-level package of `path` (the folder a program is run from, where its
    imports start); `packages`: `module_name`'s memo."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        if folder not in packages:
            packages[folder] = os.path.isfile(os.path.join(folder, "__init__.py"))
        if not packages[folder] or os.path.dirname(folder) == folder:
            return folder
        folder = os.path.dirname(folder)


def scan(files: dict) -> dict:
    """`{path: text}` of the files of a run -> `{path: PackageView}` for the files that depend on others: the
    modules of a package (below) and a program's input modules, flat or not (`package_inputs.py`)."""
    from tf2migrate.engine.package_inputs import input_views

    return input_views(files, _package_views(files))


def _package_views(files: dict) -> dict:
    """Each root is its own program: two copies of a trainer package in one run (`a/trainer/`, `b/trainer/`)
    have the same dotted names, and one must never read the other's modules (found by bench/fuzz_inputs.py:
    a module of one copy was read in place of the other's, so the first run blocked and a second converted)."""
    roots, packages = {}, {}
    for path, text in files.items():
        roots.setdefault(package_root(path, packages), {})[path] = text
    views = {}
    for same_root in roots.values():
        views.update(_scan_root(same_root))
    return views


def _scan_root(files: dict) -> dict:
    """The views of one root, where dotted names are unique: the modules of its packages, then the scripts of
    the root's own folder (no `__init__.py`), read as one package (two folders' `model.py` are two modules)."""
    views = _views(_modules(files))
    scripts = {path: text for path, text in files.items()
               if "stimator" in text and module_name(path) is None and script_name(path) is not None}
    if len(scripts) > 1:
        views.update(_views(_modules(scripts, script_name)))
    return views


def _views(modules: dict) -> dict:
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
