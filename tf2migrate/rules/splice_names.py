"""Names, scopes and text of the splice path (rules/table_splice.py): what LibCST's `Context.resolve`,
`shadowed`, `source` and `NameEmitter.like` answer, from `ast` nodes and the original text.

A name is shadowed where an enclosing function (its decorators too, as LibCST's scope starts at `def`'s node)
or lambda binds it locally; only names some function binds are looked up. A node's text is its original
slice, unless parentheses may be its own (LibCST counts them in, and a renamed node loses them): NotSure.
A new name is written through the file's `tensorflow` alias (its `compat.v1` alias for `tf.compat.v1.X`);
a from-imported name to re-point or an import to add is NotSure.
"""
from __future__ import annotations

import ast
import keyword

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted
from tf2migrate.engine.scopes import ast_function_locals
from tf2migrate.engine.text_edits import NotSure, prev_char

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def head(node):
    while isinstance(node, ast.Attribute):
        node = node.value
    return node


def _first(fn) -> tuple:
    """Where a function's scope starts for LibCST: its first decorator, or its `def`."""
    first = min([fn] + list(getattr(fn, "decorator_list", ())), key=lambda n: (n.lineno, n.col_offset))
    return first.lineno, first.col_offset


def _word_before(text: str, end: int) -> str:
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return text[start:end]


class SpliceNames:
    """What `TableSplice` asks about names; needs `self.ctx` and `self.text`."""

    def __init__(self) -> None:
        self._binders = None  # names any function or lambda may bind locally
        self._scopes: dict = {}
        self._spans = None  # (start, end, function) of every function and lambda, by start
        self._resolved: dict = {}  # id(node) -> `resolve(node)`: a reference is asked several times
        self._by_name: dict = {}  # dotted name -> the imports' answer: a module spells `tf.float32` a hundred times

    def shadowed(self, name: str, at) -> bool:
        if self._binders is None:
            tree = self.ctx.tree
            self._binders = {a.arg for a in nodes(tree, ast.arg)} | {
                n.id for n in nodes(tree, ast.Name) if not isinstance(n.ctx, ast.Load)} | {
                n.name for n in nodes(tree, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler)}
        if name not in self._binders:
            return False
        if self._spans is None:
            self._spans = sorted((_first(fn), (fn.end_lineno, fn.end_col_offset), i, fn)
                                 for i, fn in enumerate(nodes(self.ctx.tree, *_FUNCTIONS)))
        key = (at.lineno, at.col_offset)
        for start, end, _, fn in self._spans:
            if start > key:
                break
            if key <= end and name in self._locals(fn):
                return True
        return False

    def _locals(self, fn) -> set:
        if id(fn) not in self._scopes:
            if isinstance(fn, ast.Lambda):
                a = fn.args
                found = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x))}
            else:
                found = ast_function_locals(fn)
            self._scopes[id(fn)] = found
        return self._scopes[id(fn)]

    def resolve(self, node) -> tuple:
        found = self._resolved.get(id(node))
        if found is None:
            root = head(node)
            if isinstance(root, ast.Name) and self.shadowed(root.id, node):
                found = None, None
            else:
                name = ast_dotted(node)
                found = self._by_name.get(name)
                if found is None:
                    found = self._by_name[name] = self.ctx.imports.resolve_dotted(name) if name else (None, None)
            self._resolved[id(node)] = found
        return found

    def src(self, node) -> str:
        """The node's original text (LibCST's `source(original)`): NotSure where parentheses may be its own."""
        start, end = self.text.span(node)
        if self.text.next_char(end) == ")":
            ch, at = prev_char(self.text, start)
            if ch == "(":  # a call's own `(` (`f(tf.x)`), or the name's (`x = (tf.x)`, `if (tf.x)`)
                ch, at = prev_char(self.text, at)
                word = _word_before(self.text.text, at + 1)
                if not (ch in ")]" or word[:1].isidentifier() and not keyword.iskeyword(word)):
                    raise NotSure("a parenthesized name")
        return self.text.text[start:end]

    def now(self, node) -> str:
        return self.text.render(*self.text.span(node))

    def alias(self) -> str:
        existing = self.ctx.imports.v2_alias()
        if existing is None:
            raise NotSure("a new `import tensorflow` would be needed")
        return existing

    def like(self, node, canonical: str) -> str:
        """`NameEmitter.like`, as text: never re-points a from-import (NotSure)."""
        if isinstance(node, ast.Name):
            binding = self.ctx.imports.bindings.get(node.id)
            if binding is not None and binding.from_module is not None:
                raise NotSure("a from-imported name to re-point")
        parts = canonical.split(".")[1:]
        v1 = self.ctx.imports.v1_alias() if parts[:2] == ["compat", "v1"] else None
        return ".".join([v1 or self.alias()] + (parts[2:] if v1 else parts))
