"""The few `ast` nodes the pre-pass must look at, without walking the whole tree.

`ast.walk` over a 1,000-line module costs more than parsing it. To decide whether a word names
TensorFlow, the pre-pass needs every import (and `global` statement, for assignment aliases) and the
names on the lines where a word stands: it walks statements only, and the expressions of just the
statements whose lines hold a word.
"""
from __future__ import annotations

import ast
import bisect
import re
from dataclasses import dataclass, field

NEWLINE = re.compile(r"\r\n?|\n")  # as `engine.positions` counts lines (which imports LibCST: not here)


@dataclass
class HotNodes:
    imports: list = field(default_factory=list)  # every Import / ImportFrom, at any depth
    globals: list = field(default_factory=list)  # every Global statement
    hot: list = field(default_factory=list)  # every node of the statements whose lines hold a word


def hit_lines(text: str, pattern) -> list:
    """The sorted line numbers (1-based) holding a match of `pattern`."""
    starts = [0] + [m.end() for m in NEWLINE.finditer(text)]
    return sorted({bisect.bisect_right(starts, m.start()) for m in pattern.finditer(text)})


def hot_nodes(tree: ast.Module, lines: list) -> HotNodes:
    out = HotNodes()
    _statements(tree.body, lines, out)
    return out


def _hit(node, lines: list) -> bool:
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
    i = bisect.bisect_left(lines, start)
    return i < len(lines) and lines[i] <= (node.end_lineno or node.lineno)


def _statements(body, lines: list, out: HotNodes) -> None:
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out.imports.append(stmt)
        elif isinstance(stmt, ast.Global):
            out.globals.append(stmt)
        hit = _hit(stmt, lines)
        if hit:
            out.hot.append(stmt)
        for _, value in ast.iter_fields(stmt):
            values = value if isinstance(value, list) else [value]
            for item in values:
                if isinstance(item, ast.stmt):
                    _statements([item], lines, out)
                elif isinstance(item, (ast.excepthandler, getattr(ast, "match_case", ()))):
                    if hit:
                        out.hot.extend(n for f in ("type", "pattern", "guard") if getattr(item, f, None) is not None
                                       for n in ast.walk(getattr(item, f)))
                    _statements(item.body, lines, out)
                elif isinstance(item, ast.AST) and hit:
                    out.hot.extend(ast.walk(item))
