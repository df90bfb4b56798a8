"""Where a reported node is, without LibCST's whole-module position pass when possible.

Most findings are calls and attributes (a rename is reported at `tf.x.y`). Python's `ast` knows
each one's place; the k-th call LibCST meets in pre-order is the k-th `ast.Call` in source order
(outer before inner), so a call is placed by a light LibCST visit that only numbers calls. Attributes
alike, except those of import statements (LibCST spells `import a.b` with an Attribute, `ast` with a
string). Any other node, or a disagreement between the two trees (counts, names), falls back to
`PositionProvider`, whose whole-module pass cost a third of a cold run on a TF1 tree.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted, dotted
from tf2migrate.engine.source import NEWLINE




@dataclass(frozen=True)
class Place:
    line: int
    col: int  # 1-based, in characters
    end_line: int


class _Calls(cst.CSTVisitor):
    def __init__(self) -> None:
        self.order: dict = {}

    def visit_Call(self, node: cst.Call) -> None:
        self.order[id(node)] = len(self.order)


class _Attributes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.order: dict = {}

    def visit_Import(self, node) -> bool:
        return False

    def visit_ImportFrom(self, node) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.order[id(node)] = len(self.order)


def _source_order(found) -> list:
    return sorted(found, key=lambda n: (n.lineno, n.col_offset, -n.end_lineno, -n.end_col_offset))


class Positions:
    def __init__(self, module: cst.Module, tree, text: str) -> None:
        self.module, self.tree, self.lines = module, tree, NEWLINE.split(text)
        self._calls = None  # (libcst id -> index, [ast.Call in source order])
        self._attributes = None  # (libcst id -> index, [ast.Attribute in source order]) once asked
        self._full = None
        self._seen: dict = {}  # calls numbered by the main traversal as it meets them
        self._next = 0
        self._seen_attributes: dict = {}  # attributes likewise (no whole-module visit to number them)
        self._next_attribute = 0

    def note_call(self, node: cst.Call) -> None:
        """The main traversal numbers calls in pre-order, so most calls need no visit of their own."""
        if id(node) not in self._seen:
            self._seen[id(node)] = self._next
            self._next += 1

    def skip_calls(self, count: int, attributes: int = 0) -> None:
        """The traversal stepped over a statement holding `count` calls and `attributes` attributes."""
        self._next += count
        self._next_attribute += attributes

    def note_attribute(self, node: cst.Attribute) -> None:
        """Attributes too are met in pre-order (outside import statements, which the traversal does not enter)."""
        if id(node) not in self._seen_attributes:
            self._seen_attributes[id(node)] = self._next_attribute
            self._next_attribute += 1

    def place(self, node):
        """Where a LibCST node, or a node of the `ast` tree (rules that read the fast tree report at it), is."""
        if isinstance(node, ast.AST):
            return self._ast_place(node)
        if isinstance(node, cst.Call) and self.tree is not None:
            found = self._from_ast(node)
            if found is not None:
                return found
        if isinstance(node, cst.Attribute) and self.tree is not None:
            found = self._attribute_from_ast(node)
            if found is not None:
                return found
        return self._from_libcst(node)

    def _from_ast(self, node: cst.Call):
        if self._calls is None:
            self._calls = (None, _source_order(nodes(self.tree, ast.Call)))
        order, calls = self._calls
        index = self._seen.get(id(node))
        if index is None:  # reported before the traversal met it: number every call once
            if order is None:
                visitor = _Calls()
                self.module.visit(visitor)
                order = visitor.order if len(visitor.order) == len(calls) else {}
                self._calls = (order, calls)
            index = order.get(id(node))
        if index is None or index >= len(calls):
            return None
        call = calls[index]
        written, placed = dotted(node.func), ast_dotted(call.func)
        if written and placed and written != placed:
            return None  # the two trees disagree: let LibCST place it
        return self._ast_place(call)

    def _attribute_from_ast(self, node: cst.Attribute):
        index = self._seen_attributes.get(id(node))
        if index is not None:
            if self._attributes is None:
                self._attributes = (None, _source_order(nodes(self.tree, ast.Attribute)))
            found = self._attributes[1]
            if index < len(found):
                placed = self._placed_attribute(node, found[index])
                if placed is not None:
                    return placed
        if self._attributes is None or self._attributes[0] is None:
            found = _source_order(nodes(self.tree, ast.Attribute))
            visitor = _Attributes()
            self.module.visit(visitor)
            self._attributes = (visitor.order if len(visitor.order) == len(found) else {}, found)
        order, found = self._attributes
        index = order.get(id(node))
        if index is None:
            return None
        return self._placed_attribute(node, found[index])

    def _placed_attribute(self, node: cst.Attribute, attribute: ast.Attribute):
        written, placed = dotted(node), ast_dotted(attribute)
        if (written or "") != placed or node.attr.value != attribute.attr:
            return None  # the two trees disagree: let LibCST place it
        return self._ast_place(attribute)

    def _ast_place(self, node: ast.AST) -> Place:
        line = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        col = len(line.encode("utf-8")[: node.col_offset].decode("utf-8", "replace"))  # ast counts bytes
        return Place(node.lineno, col + 1, node.end_lineno or node.lineno)

    def _from_libcst(self, node: cst.CSTNode):
        if self._full is None:
            self._full = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        pos = self._full.get(node)
        return Place(pos.start.line, pos.start.column + 1, pos.end.line) if pos else None
