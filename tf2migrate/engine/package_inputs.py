"""An Estimator program and the module beside it that holds its input functions (TF's get-started iris_data.py).

`premade_estimator.py` trains on `iris_data.train_input_fn(...)`, which returns an iterator's tensors
(`dataset.make_one_shot_iterator().get_next()`): the Estimator took that as its input, Keras' `fit` takes it
as one batch of `x` and fails. Given the folder, both files see each other (a `PackageView`, as a trainer
package's modules do), so the input module's rewrite can return the dataset for the program that converts.
A flat script imports its neighbours by their file name (the script's folder is first on `sys.path`); a
package module by its dotted name. Only modules whose text holds `get_next` are such input modules.
"""
from __future__ import annotations

import ast
import os
import re

from tf2migrate.engine.package_builders import CALLS_ESTIMATOR

WORD = "get_next"  # the only input functions a converted program cannot use as they are


def input_views(files: dict, views: dict) -> dict:
    """`views` (`package.scan`'s) with each program's input modules added, and each input module's view
    holding the programs that import it (which see each other too)."""
    from tf2migrate.engine.package import PackageView, imported_modules, module_name

    names = {path: module_name(path) or _flat(path) for path in files}
    by_name = {}
    for path, name in names.items():
        by_name.setdefault((_root(path, name), name), path)
    links: dict = {}
    for path, text in files.items():
        if "stimator" not in text or not CALLS_ESTIMATOR.search(text):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            continue
        for local, (module, attr) in imported_modules(tree, names[path], ordered=False).items():  # the index: no walk
            for wanted in (module, f"{module}.{attr}" if attr else None):
                other = by_name.get((_root(path, names[path]), wanted)) if wanted else None
                if other is None or other == path or WORD not in files[other] and not _given(text, local):
                    continue
                if not CALLS_ESTIMATOR.search(files[other]):
                    links.setdefault(path, set()).add(other)
                    links.setdefault(other, set()).add(path)
    for path, others in list(links.items()):  # the programs of one input module see each other: it serves
        if CALLS_ESTIMATOR.search(files[path]):  # them all or none
            continue
        for program in others:
            links[program] |= others - {program}
    out = dict(views)
    for path, others in links.items():
        if WORD not in files[path] and not CALLS_ESTIMATOR.search(files[path]):
            continue  # linked for its program's sake only (`_given`): no function here for the converter to change
        view = out.get(path)
        known = {n for n, _, _ in view.modules} if view is not None else set()
        more = tuple((names[o], o, files[o]) for o in sorted(others) if names[o] not in known)
        out[path] = PackageView(names[path], tuple(sorted((view.modules if view else ()) + more)))
    return out


def _given(text: str, local: str) -> bool:
    """Does the program call `local...(...)` for an input function (`est.train(Utils.make_input_fn())`,
    `input_fn=data.train_input_fn(...)`)? Then its module is read with it, so that the program can say what that
    function uses (a name its module never defines: the original does not run, reading/undefined_input.py)."""
    return re.search(rf"(\.(train|evaluate|predict)\(\s*|input_fn\s*=\s*){re.escape(local)}\b[\w.]*\(", text) is not None


def _flat(path: str) -> str:
    return os.path.basename(path)[:-3] if path.endswith(".py") else os.path.basename(path)


def _root(path: str, name: str) -> str:
    """The folder on `sys.path` from which `name` is imported: the package root, or a flat script's folder."""
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(name.count(".") + (os.path.basename(path) == "__init__.py")):
        folder = os.path.dirname(folder)
    return folder
