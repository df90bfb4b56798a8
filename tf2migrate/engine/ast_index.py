"""One walk of Python's `ast` tree, shared by every fast whole-module question.

Imports, assignment facts, function scopes, call positions and the pre-pass all want "every node of
kind K". Walking the tree once and bucketing by type keeps each of them a list scan.
"""
from __future__ import annotations

import ast
import re
from collections import defaultdict, deque

_CACHE_ATTR = "_tf2migrate_index"


def nodes(tree: ast.AST, *kinds) -> list:
    """Every node of the given `ast` classes, in `ast.walk` order (never the shared `Load`/`Store`/operator
    nodes: no question is about them)."""
    index = getattr(tree, _CACHE_ATTR, None)
    if index is None:
        index = _walk(tree)
        setattr(tree, _CACHE_ATTR, index)
    if len(kinds) == 1:
        kind = kinds[0]
        return [tree, *index.get(kind, ())] if kind is type(tree) else index.get(kind, [])
    return [n for kind in kinds for n in ([tree, *index.get(kind, ())] if kind is type(tree) else index.get(kind, ()))]


def _walk(tree: ast.AST) -> dict:
    """`ast.walk` below `tree`, inlined: the same nodes in the same (breadth-first) order. The index kept on
    the tree leaves the tree itself out (`nodes` puts it back): a tree that held itself would be a cycle, which
    only the cyclic collector frees, after scanning the whole tree again and again (a fifth of the pre-pass's
    time over tensor2tensor). Each class's children are read by one function made from its field list
    (`_children`), not by `getattr` over every field: the walk takes two thirds of the time."""
    index = defaultdict(list)
    children = _CHILDREN
    todo = deque(_children_of(tree))
    pop, extend = todo.popleft, todo.extend
    while todo:
        node = pop()
        if node is None:  # a `Dict`'s `**x` key, a keyword-only argument's missing default
            continue
        kind = type(node)
        index[kind].append(node)
        read = children.get(kind)
        if read is None:
            read = children[kind] = _children(kind)
        extend(read(node))
    return index


def _children_of(node) -> tuple:
    return tuple(child for child in children(node) if child is not None)


def children(node) -> tuple:
    """`ast.iter_child_nodes(node)` as a tuple, about three times as fast, without the shared `Load`/`Store`/
    operator nodes, and with None where an optional field is empty (`Return` without a value)."""
    read = _CHILDREN.get(type(node))
    if read is None:
        read = _CHILDREN[type(node)] = _children(type(node))
    return read(node)


# field types (in the classes' ASDL signatures) that never hold a node worth indexing: `ctx` and operators are
# shared singletons without children, the others are names, strings, numbers and constants
_NOT_NODES = {"identifier", "string", "constant", "int", "expr_context", "operator", "boolop", "unaryop", "cmpop"}
_SIGNATURE = re.compile(r"(\w+)\((.*)\)$")
_CHILDREN: dict = {}  # node class -> function giving its children, in field order (None for an empty optional)


def _children(kind):
    """A function that gives a node's child nodes in `_fields` order, made from the class's ASDL signature
    (`Call(expr func, expr* args, keyword* keywords)`), or one that reads every field (`ast.iter_child_nodes`)
    when the signature cannot be read (a class of a Python not known here)."""
    found = _SIGNATURE.match((kind.__doc__ or "").split("\n", 1)[0].strip()) if kind._fields else None
    if found is not None and found.group(1) == kind.__name__:
        parts, names = [], []
        for field in filter(None, found.group(2).split(", ")):
            spelled, _, name = field.partition(" ")
            names.append(name)
            if spelled.rstrip("*?") not in _NOT_NODES and name.isidentifier():
                parts.append(f"*node.{name}" if spelled.endswith("*") else f"node.{name}")
        if names == list(kind._fields):
            return eval(f"lambda node: ({', '.join(parts)}{',' if parts else ''})")  # noqa: S307 - our own text
    if not kind._fields:
        return lambda node: ()
    return lambda node: tuple(child for child in ast.iter_child_nodes(node)
                              if not isinstance(child, _SINGLETONS))


_SINGLETONS = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)


# every `ast` field that holds a name the code spells (a str, or a list of str), by node class
_NAME_FIELDS = {ast.Name: "id", ast.Attribute: "attr", ast.FunctionDef: "name", ast.AsyncFunctionDef: "name",
                ast.ClassDef: "name", ast.ImportFrom: "module", ast.alias: ("name", "asname"), ast.arg: "arg",
                ast.keyword: "arg", ast.Global: "names", ast.Nonlocal: "names", ast.ExceptHandler: "name"}
_NAME_FIELDS.update({getattr(ast, kind): field for kind, field in (
    ("MatchAs", "name"), ("MatchStar", "name"), ("MatchMapping", "rest"), ("MatchClass", "kwd_attrs"),
    ("TypeVar", "name"), ("ParamSpec", "name"), ("TypeVarTuple", "name")) if hasattr(ast, kind)})


_PLAIN_NAME_FIELDS = ((ast.Name, "id"), (ast.Attribute, "attr"), (ast.arg, "arg"), (ast.keyword, "arg"),
                      (ast.FunctionDef, "name"), (ast.ClassDef, "name"))
_PLAIN = {kind for kind, _ in _PLAIN_NAME_FIELDS}


def spelled_names(tree) -> set:
    """Every name the code spells (names, attributes, imported modules, definitions, keywords),
    none of its string literals or comments: a trigger word that only appears there needs no LibCST.
    Read from the `ast` index's buckets of the node classes that hold names (`_NAME_FIELDS`)."""
    names = set()
    for kind, field in _PLAIN_NAME_FIELDS:  # most nodes: a name without dots, or None (`**kwargs`' keyword)
        names.update(getattr(node, field) for node in nodes(tree, kind))
    names.discard(None)
    for kind, fields in _NAME_FIELDS.items():
        found = nodes(tree, kind) if kind not in _PLAIN else ()
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
