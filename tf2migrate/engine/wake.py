"""Where in a module some rule may act, asked of Python's fast `ast`: the pre-pass's question.

A word found in the text (`rules.wake_words.Triggers.scan`) is only a candidate. An attribute word counts
where it is used on an object or passed as a keyword (not on a module, not as a definition's name); a
symbol word counts where the file's own imports make it a name the tables define, or any TF name for a
code rule; a name the tables edit only for some arguments counts where a call passes them; a name TF2 also
has counts only in code not known to be TF2 (in a file nobody can place, its call gets TFM650 or, passing a
TF1-only keyword, the upgrade: rules/undecided_calls.py). The pre-pass asks whether there is any such place (`process.precheck`), the
traversal where they are (`skip.py` steps over statements without one).
"""
from __future__ import annotations

import ast

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted
from tf2migrate.engine.tf_version import TFVersion, decide


def _dimension(node) -> bool:
    """`x.shape[i]`, `x.get_shape()[i]`, `x.dims[i]`: what TF1's `.value` is read from (TFM667)."""
    if not isinstance(node, ast.Subscript):
        return False
    inner = node.value.func if isinstance(node.value, ast.Call) else node.value
    return isinstance(inner, ast.Attribute) and inner.attr in ("shape", "get_shape", "dims")


def _head(node) -> str:
    """The name a chain starts from (`tf` in `tf.a.b`), "" for any other receiver (`f().a`)."""
    while type(node) is ast.Attribute:
        node = node.value
    return node.id if type(node) is ast.Name else ""


# Attribute words so common that only their rule's own shape makes a place (and never a keyword).
_ONLY_ON = {"value": _dimension}


def waking_nodes(tree, imports, triggers, attrs: set, symbols: set, source: str = "auto", code=None, reports=None):
    """Yield each `ast` node where a rule may act (attribute words first), lazily: `any()` stops early.
    `code`: the code rules' words that count here (`Triggers.code_words`). `reports`: a list that takes,
    instead of yielding them, the places where a rule can only report from `ast` (`.value` of a shape
    dimension in a file not known to be TF1: `ShapeValue.report_from_ast`)."""
    verdict = []

    def version():  # decided once, only when a name TF2 also has is met
        if not verdict:
            verdict.append(decide(tree, imports, source).version)
        return verdict[0]

    def tf1() -> bool:
        return version() is TFVersion.TF1

    def maybe_tf1() -> bool:  # not known to be TF2: a name TF2 also has is upgraded, or reported (TFM650)
        return version() is not TFVersion.TF2

    funcs = []

    def called() -> set:  # ids of the nodes called (`tf.x(...)`'s `tf.x`), gathered once when first asked
        if not funcs:
            funcs.append({id(call.func) for call in nodes(tree, ast.Call)})
        return funcs[0]

    if attrs:
        for node in nodes(tree, ast.Attribute):
            if node.attr in attrs and _head(node.value) not in imports.bindings:
                if node.attr not in _ONLY_ON:
                    yield node
                elif _ONLY_ON[node.attr](node.value):
                    if reports is not None and not tf1():
                        reports.append(node)
                    else:
                        yield node
        for node in nodes(tree, ast.keyword):
            if node.arg in attrs and node.arg not in _ONLY_ON:
                yield node
    if not symbols:
        return

    for node in nodes(tree, ast.ImportFrom):
        if (node.module or "").split(".")[0] == "tensorflow" and not node.level:
            for alias in node.names:  # `from tensorflow.contrib import layers`, `... import X as y`
                literal, canonical = imports.resolve_dotted(alias.asname or alias.name)
                if canonical and triggers.wakes(alias.name, literal, canonical, tf1=maybe_tf1, code=code):
                    yield node
                    break
    woken: dict = {}  # (spelling, called) -> does it wake: a file spells `tf.float32` a hundred times

    def wakes(node, word: str) -> bool:
        spelled = ast_dotted(node)
        key = spelled, id(node) in called()
        found = woken.get(key)
        if found is None:
            literal, canonical = imports.resolve_dotted(spelled)
            # a name TF2 also has: in a file not known to be TF1 only its calls can be reported (undecided_calls.py)
            found = woken[key] = bool(canonical) and triggers.wakes(word, literal, canonical, spelled,
                                                                   tf1=maybe_tf1 if key[1] else tf1, code=code)
        return found

    for node in nodes(tree, ast.Attribute):
        if node.attr in symbols and wakes(node, node.attr):
            yield node
    for node in nodes(tree, ast.Name):
        if node.id in symbols and wakes(node, node.id):
            yield node
    for node in nodes(tree, ast.Call):
        func = node.func
        word = func.attr if type(func) is ast.Attribute else getattr(func, "id", None)
        if word in symbols:
            spelled = ast_dotted(func)
            literal, canonical = imports.resolve_dotted(spelled)
            if canonical and triggers.call_wakes(node, literal, canonical, spelled, tf1=maybe_tf1):
                yield node
