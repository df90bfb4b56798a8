"""Before writing: did the rewrite take away a name's import while the code still reads the name?

A rewrite that re-points `from tensorflow import to_float` to `cast`, or removes an import it thinks unused,
must leave no read of the old name without a binding: `to_float = wrap(to_float)` after such an edit is a
NameError at import, a program that cannot run. The check compares the names the imports bind before and
after; a name no import binds any more is lost where the new code reads it at module level before (or in
the very statement where) the module binds it otherwise, or reads it anywhere when the module never binds it
(a function's own local of that name excepted). It runs only when the text of the import statements changed
(`str.find` over both texts, no parse): most rewrites keep every import as it was.
"""
from __future__ import annotations

import ast
import bisect
import builtins
from typing import Optional

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.rebinding import rebound

_BUILTINS = frozenset(dir(builtins))
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def imports_changed(before: str, after: str) -> bool:
    return before is not after and _import_lines(before) != _import_lines(after)


def _import_lines(text: str) -> list:
    """The text of every line that may start an import statement (`import` on it, `from` or `import` first),
    with what follows up to the `)` of a parenthesized list, or over backslash continuations. Found with
    `str.find` (a file has a few dozen `import` words), not a regular expression tried at every offset."""
    out, at = [], text.find("import")
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        if text[start:end].lstrip().startswith(("from", "import")):
            if "(" in text[start:end] and ")" not in text[start:end]:
                close = text.find(")", end)
                end = len(text) if close < 0 else close
            while end < len(text) and text[end - 1:end] == "\\":
                nxt = text.find("\n", end + 1)
                end = len(text) if nxt < 0 else nxt
            out.append(text[start:end])
        at = text.find("import", end)
    return out


def lost_read(before_tree, before: str, after: str) -> Optional[tuple]:
    """(line, col, message) for the first read of a name the rewrite left unbound, or None; the place is the
    name's import in the original (`before`, parsed as `before_tree` if given), where the finding is shown."""
    if not imports_changed(before, after):
        return None
    before_tree = before_tree if before_tree is not None else ast.parse(before)
    tree = ast.parse(after)
    if any(a.name == "*" for n in nodes(tree, ast.ImportFrom) for a in n.names):
        return None  # a star import may bind anything
    lost = _imported(before_tree) - _imported(tree) - _BUILTINS
    reads = sorted((n for n in nodes(tree, ast.Name) if n.id in lost and type(n.ctx) is ast.Load),
                   key=lambda n: (n.lineno, n.col_offset))
    if not reads:
        return None
    bound = rebound(tree, lost)  # the module's other bindings of the names: the first of each
    tops = [stmt.lineno for stmt in tree.body]
    functions = sorted(((fn.lineno, fn.col_offset), (fn.end_lineno, fn.end_col_offset), i, fn)
                       for i, fn in enumerate(nodes(tree, *_FUNCTIONS)))
    for read in reads:
        inner = _functions_around(functions, read)
        if any(read.id in _locals(fn) for fn in inner):
            continue  # a function's own variable
        binding = bound.get(read.id)
        if binding is not None and (inner or _top(tops, binding) < _top(tops, read)):
            continue  # the module binds it before this statement, or before a function runs
        where = _import_of(before_tree, read.id)
        return where.lineno, where.col_offset + 1, (
            f"the rewrite would take away this import of `{read.id}` while the code still reads the name "
            "(a NameError): nothing written")
    return None


def _import_of(tree, name: str):
    """The first import statement of the original that binds `name` (the finding's place in the file as it is)."""
    return min((n for n in nodes(tree, ast.Import, ast.ImportFrom) if name in _imported_by(n)),
               key=lambda n: (n.lineno, n.col_offset))


def _imported(tree) -> set:
    return {name for node in nodes(tree, ast.Import, ast.ImportFrom) for name in _imported_by(node)}


def _imported_by(node) -> list:
    return [a.asname or (a.name.split(".")[0] if type(node) is ast.Import else a.name) for a in node.names]


def _top(tops: list, node) -> int:
    return bisect.bisect_right(tops, node.lineno) - 1


def _functions_around(functions: list, node) -> list:
    key = (node.lineno, node.col_offset)
    return [fn for start, end, _, fn in functions if start <= key <= end]


def _locals(fn) -> set:
    if isinstance(fn, ast.Lambda):
        a = fn.args
        return {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x))}
    from tf2migrate.engine.scopes import ast_function_locals  # imports LibCST: only for a rewrite that lost one

    return ast_function_locals(fn)
