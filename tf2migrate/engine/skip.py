"""Statements the one traversal can step over, because no rule can act inside them.

Visiting every node is most of a rewrite's cost, and in a real module most statements hold none of the
words any rule wakes on: a statement none of whose lines holds such a word (nor a local alias of one,
`from ... import fixed_size_partitioner as fsp`) is left exactly as it is, so the traversal does not
enter it. A rule that reads statements without its words (the loss-scaling rules follow `strategy.run`
into the replica function) turns this off for the module (`Plugin.sees_every_statement`).

Statements are matched to Python's `ast` ones by order (module, class and function bodies, and the first
body of `if`, `for`, `while`, `with` and `try`), which also
says what the traversal's counters must skip: the functions and calls inside. If the two trees ever
disagree, nothing is skipped.
"""
from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import canonical_tf
from tf2migrate.engine.source import NEWLINE

_COMPOUND = {cst.FunctionDef: (ast.FunctionDef, ast.AsyncFunctionDef), cst.ClassDef: (ast.ClassDef,)}
# blocks whose first body the walk also enters (their `else`, `except` and `finally` blocks are visited whole)
_BLOCKS = {cst.If: (ast.If,), cst.For: (ast.For, ast.AsyncFor), cst.While: (ast.While,),
           cst.With: (ast.With, ast.AsyncWith), cst.Try: (ast.Try,)}
_AST_COMPOUND = tuple(getattr(ast, kind) for kind in (  # TryStar (3.11) and Match (3.10) only where they exist
    "FunctionDef", "AsyncFunctionDef", "ClassDef", "If", "For", "AsyncFor", "While", "Try", "TryStar", "With",
    "AsyncWith", "Match") if hasattr(ast, kind))


NOTHING = re.compile(r"(?!)")  # a pattern no text matches: the places alone decide (engine/apply._quiet)


@dataclass(frozen=True)
class Quiet:
    functions: int  # function definitions inside, whose scopes the traversal must not hand out
    calls: int      # calls inside, which the traversal's call numbering must count past
    attributes: int = 0  # attributes inside, likewise (positions.Positions.note_attribute)


def hit_lines(text: str, pattern: re.Pattern, aliases, lines=()) -> list:
    """The sorted lines where a rule may act: those holding a word of `pattern` or an alias, and `lines`
    (the places found with `ast`)."""
    if aliases:
        words = f"\\b(?:{'|'.join(map(re.escape, sorted(aliases)))})\\b"
        pattern = re.compile(words if pattern is NOTHING else f"{pattern.pattern}|{words}")
    elif pattern is NOTHING:  # which tries every place of the text to match nothing
        return sorted(set(lines))
    line_starts = [0] + [m.end() for m in NEWLINE.finditer(text)]
    return sorted({bisect.bisect_right(line_starts, m.start()) for m in pattern.finditer(text)} | set(lines))


def quiet_statements(module: cst.Module, tree: ast.Module, hits: list, functions_tree: ast.Module = None) -> dict:
    """id(LibCST statement) -> Quiet, for every statement no rule can act in: none of its lines is one of
    `hits` (`hit_lines`). `tree` is the text LibCST parsed, by `ast`; `functions_tree` the whole module's
    when LibCST parsed a reduced text (engine/reduce.py): the traversal's function scopes come from it."""
    functions = sorted(n.lineno for n in nodes(functions_tree or tree, ast.FunctionDef, ast.AsyncFunctionDef))
    calls = sorted(n.lineno for n in nodes(tree, ast.Call))
    attributes = sorted(n.lineno for n in nodes(tree, ast.Attribute))
    found: dict = {}

    def count(lines, start, end):
        return bisect.bisect_right(lines, end) - bisect.bisect_left(lines, start)

    def walk(cst_body, ast_body) -> bool:
        i = 0
        for stmt in cst_body:
            k = len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
            group = ast_body[i:i + k]
            i += k
            if len(group) != k or not all(_same_kind(stmt, node) for node in group):
                return False
            start = min([group[0].lineno] + [d.lineno for d in getattr(group[0], "decorator_list", [])])
            end = group[-1].end_lineno
            if count(hits, start, end) == 0:
                found[id(stmt)] = Quiet(count(functions, start, end), count(calls, start, end),
                                         count(attributes, start, end))
            elif type(stmt) in _COMPOUND and isinstance(stmt.body, cst.IndentedBlock):
                if not walk(stmt.body.body, group[0].body):
                    return False
            elif type(stmt) in _BLOCKS and isinstance(stmt.body, cst.IndentedBlock):
                if not isinstance(group[0], _BLOCKS[type(stmt)]) or not walk(stmt.body.body, group[0].body):
                    return False
        return i == len(ast_body)

    return found if walk(module.body, tree.body) else {}


def _same_kind(stmt, node) -> bool:
    kinds = _COMPOUND.get(type(stmt))
    if kinds is not None:
        return isinstance(node, kinds)
    if isinstance(stmt, cst.SimpleStatementLine):
        return not isinstance(node, _AST_COMPOUND)
    return isinstance(node, _AST_COMPOUND) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))


def trigger_aliases(imports, symbols, modules=frozenset()) -> set:
    """Local names bound to a symbol word under another name (`fsp` in `... import X as fsp`), or to a
    member of a module the tables report as a whole (`FLAGS = tf.app.flags.FLAGS`: every use is reported)."""
    out = set()
    for b in imports.bindings.values():
        last = b.target.rsplit(".", 1)[-1]
        if last in symbols and b.local != last:
            out.add(b.local)
        elif modules and _within(canonical_tf(b.target), modules):
            out.add(b.local)
    return out


def _within(name, modules) -> bool:
    while name:
        if name in modules:
            return True
        name = name.rpartition(".")[0]
    return False
