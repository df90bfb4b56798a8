"""An operator chain too long for LibCST's parser is one line at the chain, before LibCST is asked to parse it.

LibCST nests a chain of binary operators (`a + b + ... + z`) or of `and`/`or` one node per operator, and its
native parser takes time that grows with the cube of that depth: 1,000 terms 0.9 s, 2,000 terms 4.5 s,
3,000 terms 14 s, 5,000 terms about 45 s (libcst 1.9; black's and ruff's parsers build such a chain in a loop,
in linear time). Python's `ast` keeps `and`/`or` flat and nests `+` chains, so the depth of each chain is read
from the `ast` tree of the text LibCST would parse (statements the rewrite leaves out, engine/reduce.py, are
never parsed and never counted), in one pass over its operator nodes.
"""
from __future__ import annotations

import ast

from tf2migrate.engine.ast_index import nodes

MAX_TERMS = 2_000  # about 4.5 s of LibCST's parse; the fuzz's chains go to 600 terms


class TooLong(Exception):
    """A chain of more than `MAX_TERMS` terms, at its outermost operation."""

    def __init__(self, terms: int, node: ast.AST) -> None:
        super().__init__(f"an operator chain of {terms:,} terms (at most {MAX_TERMS:,}): LibCST's parse time grows "
                         "with the cube of its length; nothing written")
        self.line, self.col_offset = node.lineno, node.col_offset


def check(tree: ast.AST) -> None:
    """Raises TooLong for the longest chain of `tree` when it has more than `MAX_TERMS` terms."""
    terms, root = _longest(tree)
    if terms > MAX_TERMS:
        raise TooLong(terms, root)


def _longest(tree: ast.AST) -> tuple:
    """(terms, outermost node) of the longest chain. The index lists nodes breadth-first, so a chain's outer
    operation comes before its operands and hands them its count and its root."""
    best, root = 1, None
    inner: dict = {}  # id(BinOp) -> (terms so far, outermost BinOp of its chain)
    for node in nodes(tree, ast.BinOp):
        terms, top = inner.pop(id(node), (2, node))
        for side in (node.left, node.right):
            if type(side) is ast.BinOp:
                inner[id(side)] = (terms + 1, top)
        if terms > best:
            best, root = terms, top
    for node in nodes(tree, ast.BoolOp):
        if len(node.values) > best:
            best, root = len(node.values), node
    return best, root
