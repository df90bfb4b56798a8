"""When a code rule that a word woke provably has nothing to do in a file, asked of Python's `ast`.

A word only says a rule *may* act. Two kinds of rules have words far more common than their work, and the
pre-pass (`engine/process.precheck`, through `wake_words.Triggers.code_words`) lets a file go without
LibCST when they are idle:

- the custom-loop rules (TFM40x) read a replica function only where a strategy's `run` is called: without
  `RUN_CALL` in the text, `tf.distribute.get_strategy()` gives them nothing to do (`custom_loops.analysis`
  answers the same question with the same pattern);
- the Estimator converter (TFM3xx) acts only on a call of an Estimator class, on a package neighbour's helper
  (`engine/package.py`) or on an Estimator another module built that this file trains
  (`estimator/other_module_report.py`). The report-only rule (`unconverted`, `manifest.Ast.ANSWERS`) shares its words
  (`tf.train.SessionRunHook`, `tf.estimator.RunConfig`, ...): where the converter is idle they are answered
  from `ast` (`engine/apply.report_text`) instead of sending the file to LibCST.

Kept free of LibCST. Each test is wider than its rule's own (a wrong "may act" only costs a parse).
"""
from __future__ import annotations

import ast
import re

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted, is_private

RUN_CALL = re.compile(r"\.(?:run|experimental_run_v2|call_for_each_replica)\s*\(")
_TRAINS = ("train", "export_saved_model")  # `est.train(...)`: what `other_module_report.report_foreign` reads
_ESTIMATOR_NAMESPACES = ("tf.estimator.", "tf.contrib.tpu.")


def estimator_may_act(tree, imports) -> bool:
    """Can the Estimator converter act in this module (no package neighbours)? Only if it calls a class of
    `tf.estimator` / `tf.contrib.tpu` (every Estimator, canned or TPU, is one), or trains, with
    `train_and_evaluate` or `.train(...)`, a name assigned from a call of something it imports."""
    trained = set()
    for call in nodes(tree, ast.Call):
        func = call.func
        # a chain's canonical name ends in its last attribute: only a class or train_and_evaluate is resolved
        if type(func) is ast.Attribute and not func.attr[:1].isupper() and func.attr != "train_and_evaluate":
            if type(func.value) is ast.Name and func.attr in _TRAINS:
                trained.add(func.value.id)
            continue
        canonical = imports.ast_canonical(func) or ""
        if canonical.startswith(_ESTIMATOR_NAMESPACES) and canonical.rsplit(".", 1)[-1][:1].isupper():
            return True
        if canonical == "tf.estimator.train_and_evaluate" and call.args and isinstance(call.args[0], ast.Name):
            trained.add(call.args[0].id)
    if not trained:
        return False
    local = _imported_names(tree)  # every import, not only TensorFlow's public ones
    for node in nodes(tree, ast.Assign):
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in trained \
                and isinstance(node.value, ast.Call) and ast_dotted(node.value.func).split(".")[0] in local:
            return True
    return False


def _imported_names(tree) -> set:
    """The local names every `import` and `from ... import` binds (`package.imported_modules`' keys, read from
    the `ast` index instead of another walk of the whole tree), but those of TensorFlow's private modules
    (`tensorflow.python.*`, `tensorflow_estimator.python.*`): no rule converts an Estimator made there (the
    library's own tests train `linear.LinearClassifier(...)`), and its public ones are named as such."""
    names = set()
    for node in nodes(tree, ast.Import, ast.ImportFrom):
        if isinstance(node, ast.ImportFrom) and not node.level and _private(node.module or ""):
            continue
        for alias in node.names:
            if isinstance(node, ast.Import) and _private(alias.name):
                continue
            if alias.asname:
                names.add(alias.asname)
            elif isinstance(node, ast.Import):
                names.update((alias.name.split(".")[0], alias.name))
            else:
                names.add(alias.name)
    return names


def _private(module: str) -> bool:
    return is_private(module + ".") or module.startswith("tensorflow_estimator.python")
