"""Generated code is built from LibCST templates, in the module's own indentation and line endings.

`statement("{model} = {build}({params})", w, model=..., build=..., params=...)` parses the template once
with the module's parser config and puts the given nodes in its `{holes}`; a hole given a string is the
expression that string spells (a TF name spelled through the file's alias by `w.tf`, or a user's
expression already respelled by `w.text`). Indented templates say `{i}` for one level of the module's
indent. A line that would pass `WIDTH` columns is written one argument per line (`fits`).
"""
from __future__ import annotations

from typing import Union

import libcst as cst
from libcst.helpers import parse_template_expression, parse_template_statement

WIDTH = 100  # the one line width of generated code (the project's own, in pyproject's line-length)

Hole = Union[str, cst.CSTNode]


def _nodes(values: dict) -> dict:
    return {k: cst.parse_expression(v) if isinstance(v, str) else v for k, v in values.items()}


def statement(template: str, w, **values: Hole) -> cst.BaseStatement:
    """One statement from `template` with the holes filled (see the module docstring)."""
    config = w.module.config_for_parsing
    return parse_template_statement(template.replace("{i}", w.indent), config=config, **_nodes(values))


def expression(template: str, w, **values: Hole) -> cst.BaseExpression:
    config = w.module.config_for_parsing
    return parse_template_expression(template, config=config, **_nodes(values))


def code(node: cst.CSTNode, w) -> str:
    """The source of a generated node, as the module would print it."""
    return w.module.code_for_node(node)


def fits(line: str, indent: str = "", level: int = 0) -> bool:
    """Whether `line` (one line), at `level` indents of `indent`, stays within WIDTH columns."""
    return "\n" not in line and len(line) + len(indent) * level <= WIDTH
