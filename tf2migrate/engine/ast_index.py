"""One walk of Python's `ast` tree, shared by every fast whole-module question.

Imports, assignment facts, function scopes, call positions and the pre-pass all want "every node of
kind K". Walking the tree once and bucketing by type keeps each of them a list scan.
"""
from __future__ import annotations

import ast
from collections import defaultdict, deque

_CACHE_ATTR = "_tf2migrate_index"


def nodes(tree: ast.AST, *kinds) -> list:
    """Every node of the given `ast` classes, in `ast.walk` order."""
    index = getattr(tree, _CACHE_ATTR, None)
    if index is None:
        index = _walk(tree)
        setattr(tree, _CACHE_ATTR, index)
    if len(kinds) == 1:
        return index.get(kinds[0], [])
    return [n for kind in kinds for n in index.get(kind, [])]


def _walk(tree: ast.AST) -> dict:
    """`ast.walk`, inlined: the same nodes in the same (breadth-first) order, about twice as fast, which
    matters because the pre-pass indexes every file that holds a trigger word."""
    index = defaultdict(list)
    node_class = ast.AST
    todo = deque([tree])
    pop, push = todo.popleft, todo.append
    while todo:
        node = pop()
        index[type(node)].append(node)
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, node_class):
                        push(item)
            elif isinstance(value, node_class):
                push(value)
    return index


def all_nodes(tree: ast.AST) -> list:
    nodes(tree, ast.Module)  # builds the index
    return [n for bucket in getattr(tree, _CACHE_ATTR).values() for n in bucket]


# every `ast` field that holds a name the code spells (a str, or a list of str), by node class
_NAME_FIELDS = {ast.Name: "id", ast.Attribute: "attr", ast.FunctionDef: "name", ast.AsyncFunctionDef: "name",
                ast.ClassDef: "name", ast.ImportFrom: "module", ast.alias: ("name", "asname"), ast.arg: "arg",
                ast.keyword: "arg", ast.Global: "names", ast.Nonlocal: "names", ast.ExceptHandler: "name"}
_NAME_FIELDS.update({getattr(ast, kind): field for kind, field in (
    ("MatchAs", "name"), ("MatchStar", "name"), ("MatchMapping", "rest"), ("MatchClass", "kwd_attrs"),
    ("TypeVar", "name"), ("ParamSpec", "name"), ("TypeVarTuple", "name")) if hasattr(ast, kind)})


def spelled_names(tree) -> set:
    """Every name the code spells (names, attributes, imported modules, definitions, keywords),
    none of its string literals or comments: a trigger word that only appears there needs no LibCST.
    Read from the `ast` index's buckets of the node classes that hold names (`_NAME_FIELDS`)."""
    names = set()
    for kind, fields in _NAME_FIELDS.items():
        found = nodes(tree, kind)
        if not found:
            continue
        for field in (fields,) if type(fields) is str else fields:
            for node in found:
                value = getattr(node, field, None)
                if type(value) is str:
                    names.update(value.split("."))
                elif type(value) is list:
                    names.update(part for item in value if type(item) is str for part in item.split("."))
    return names
