"""When the Estimator converter provably has nothing to do in a file, alone or with package neighbours, asked of `ast`.

A file whose package view holds other modules (`engine/package.py`) was read whole by the converter: LibCST,
its neighbours parsed and analysed again, only to find, in most such files, nothing to convert (tensor2tensor
1.14.0: 20 files import `trainer_lib.py`, whose Estimator program is blocked). Every path of
`EstimatorToKeras._convert` starts from an Estimator this file builds (`analyze.builds_estimator_in`, the
converter's own `ast` test) or trains one another module returns (`trained_imported`, which
`not_converted_report.report_foreign` reports from): a file that does neither is idle alone (a class of
`tf.estimator` it does not build, `EstimatorSpec`, woke it:
tensor2tensor's `t2t_model.py`, 90 KB). A neighbour lets the converter act here in two more ways only, each
tested here wider than the converter reads it:

- this file calls a neighbour's Estimator helper (`built_elsewhere.helpers`: a top-level undecorated function
  whose body is one `return` of an Estimator call), so it names that helper;
- a neighbour's program takes a function of this module: its model_fn (`imported_model_fn.py`) or an input
  function (`input_side.py`), so that neighbour imports this module (`package.imported_modules`, as both read
  it) and names the function (tensor2tensor's `trainer_lib.py` names `t2t_trainer.py` in its docstring only).

Kept free of LibCST but where a call may build an Estimator (the converter's own test is asked then). A wrong
"may act" only costs the LibCST path; a wrong "idle" would lose a conversion, so `tests/test_package_idle.py`
checks on every fixture, package or not, that an idle file's rewrite is the converter's whole read of it.
"""
from __future__ import annotations

import ast
import functools
import re

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ImportMap, ast_dotted
from tf2migrate.engine.package import imported_modules
from tf2migrate.rules.idle import estimator_may_act

_NAMESPACES = ("tf.estimator.", "tf.contrib.tpu.", "tf.keras.estimator.")
# the last names of what `analyze.builds_estimator_in` accepts, and wider (tests/test_package_idle.py checks it):
# a module that calls only `EstimatorSpec` or `RunConfig` is idle without importing the converter
_BUILDERS = re.compile(r"(?:Estimator|Classifier|Regressor|model_to_estimator)$")


def may_act(tree, imports, text: str, package) -> bool:
    """Can the Estimator converter act in this module (`text`), given its package view (None: no neighbours)?
    Both paths ask it (`EstimatorToKeras.reads_whole_module`): False sends the file to the splice path."""
    if tree is None:
        return True
    if package is None:  # `model_to_estimator` alone wakes it only with neighbours (rules/idle.py)
        return estimator_may_act(tree, imports) and _acts_alone(tree, imports, "_")
    if _acts_alone(tree, imports, package.name or "_"):
        return True
    for name, _, other in package.modules:
        helpers = _helpers(other)
        if helpers is None:
            return True  # a neighbour `ast` cannot read: let the converter say what it makes of it
        if helpers and _words(helpers).search(text):  # called as `model.build_estimator` or imported by name
            return True
        if may_read(tree, package.name, other, name):
            return True
    return False


def _acts_alone(tree, imports, name: str) -> bool:
    """Does this module (dotted `name`) build an Estimator (the converter's own test, asked only where a call of
    the namespaces may be one: it imports the converter) or train one another module returns (`trained_imported`,
    what `not_converted_report.report_foreign` reads: any `.train(...)` woke the converter on the library's own
    test utilities, tensorflow_estimator's `linear_testing_utils_v1.py`, 0.4 s of LibCST for nothing)?"""
    if trained_imported(tree, imports, name)[0]:
        return True
    if not _calls_estimator(tree, imports, _BUILDERS):
        return False
    from tf2migrate.rules.estimator.program.analyze import builds_estimator_in

    return builds_estimator_in(tree, imports)


def trained_imported(tree, imports, name: str):
    """The `x = f(...)` assignments of a name this module (dotted `name`) trains (`x.train(...)`,
    `x.export_saved_model(...)`, `train_and_evaluate(x, ...)`) where `f` is imported from a module not
    TensorFlow's, and the imports (local name -> (module, attribute)): what `report_foreign` reports, the only
    Estimator a module that builds none trains. Shared by both, so that the idle proof is the converter's read."""
    trained = set()
    for call in nodes(tree, ast.Call):
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and func.attr in ("train", "export_saved_model"):  # not evaluate/predict: Keras has them
            trained.add(func.value.id)
        elif call.args and isinstance(call.args[0], ast.Name) \
                and imports.ast_canonical(func) == "tf.estimator.train_and_evaluate":
            trained.add(call.args[0].id)
    if not trained:
        return [], {}
    local = {local: found for local, found in imported_modules(tree, name, ordered=False).items()
             if found[0].split(".")[0] not in ("tensorflow", "tensorflow_estimator")}
    return [node for node in nodes(tree, ast.Assign)
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in trained
            and isinstance(node.value, ast.Call) and ast_dotted(node.value.func).split(".")[0] in local], local


def may_have_helpers(text: str) -> bool:
    """May `builders.find` find an Estimator helper in this module (its text)? No when `ast` finds none."""
    return _helpers(text) != frozenset()


def may_read(tree, name: str, other: str, other_name: str) -> bool:
    """May the module `other` (its text, dotted `other_name`) take a function of this one (`tree`, dotted `name`):
    does it import this module and name one of its functions? Its model_fn or input function is imported by
    name (`from trainer.model import model_fn`, `import *`) or used through the module (`model.model_fn`):
    either way one of its imports resolves to this module (`imported_model_fn.find`, `input_modules.uses`)."""
    own = _function_names(tree)
    return bool(own) and re.search(rf"\b{re.escape(name.rsplit('.', 1)[-1])}\b", other) is not None \
        and _words(own).search(other) is not None and _imported(other, other_name, name)


def _imported(other: str, other_name: str, name: str) -> bool:
    """Does the module `other` import the module `name`, or can `ast` not read it?"""
    found = _imported_modules(other, other_name)
    return found is None or name in found


@functools.lru_cache(maxsize=16)
def _imported_modules(other: str, other_name: str):
    """The modules `other` imports, as the converter resolves them (`package.imported_modules`: `import a.b`,
    `from a import b`, `from a.b import f`, relative ones), and every `from M import *` (`star_import.owner`
    reads those, where the dictionary keeps one); None: unreadable."""
    tree = _tree(other)
    if tree is None:
        return None
    found = set()
    for module, attr in imported_modules(tree, other_name).values():
        found.update((module, f"{module}.{attr}") if attr is not None else (module,))
    found.update(node.module for node in nodes(tree, ast.ImportFrom) if node.module is not None)
    return frozenset(found)


def _calls_estimator(tree, imports, last_names=None) -> bool:
    """A call of an Estimator class or of `model_to_estimator` (what `analyze.is_estimator` accepts, and wider),
    whose last name matches `last_names` when given."""
    for call in nodes(tree, ast.Call):
        canonical = imports.ast_canonical(call.func) or ""
        last = canonical.rsplit(".", 1)[-1]
        if canonical.startswith(_NAMESPACES) and (last[:1].isupper() or last == "model_to_estimator") \
                and (last_names is None or last_names.search(last)):
            return True
    return False


@functools.lru_cache(maxsize=16)
def _tree(text: str):
    """A neighbour's `ast`, or None: unreadable."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


@functools.lru_cache(maxsize=16)
def _helpers(text: str):
    """A neighbour's top-level functions that may be Estimator helpers (`builders.find`, wider: a string
    statement anywhere in the body is left out, and any Estimator-like callee counts), or None: unreadable."""
    tree = _tree(text)
    if tree is None:
        return None
    imports = ImportMap.from_ast(tree)
    out = set()
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not stmt.decorator_list:
            body = [s for s in stmt.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                                 and isinstance(s.value.value, str))]
            if len(body) == 1 and isinstance(body[0], ast.Return) and isinstance(body[0].value, ast.Call):
                canonical = imports.ast_canonical(body[0].value.func) or ""
                if canonical.startswith(_NAMESPACES):
                    out.add(stmt.name)
    return frozenset(out)


def _function_names(tree) -> frozenset:
    return frozenset(s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)))


@functools.lru_cache(maxsize=64)
def _words(names: frozenset):
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")
