"""Generated code is built from LibCST templates, in the module's own indentation and line endings.

`statement("{model} = {build}({params})", w, model=..., build=..., params=...)` parses the template once
with the module's parser config and puts the given nodes in its `{holes}`; a hole given a string is the
expression that string spells (a TF name spelled through the file's alias by `w.tf`, or a user's
expression already respelled by `w.text`). Indented templates say `{i}` for one level of the module's
indent. A hole on a line of its own may be given statements (one, or a list: none, one or several), which take
its place (`_Splice`): functions and classes are `def`/`class` templates with their bodies given so; a `{body}` hole
alone in a block may also be given a whole `block`. A line that would pass `WIDTH` columns is written one item per
line (`fits`, `fitted`, `one_per_line`).
"""
from __future__ import annotations

from typing import Optional, Union

import libcst as cst
from libcst.helpers import parse_template_expression, parse_template_module, parse_template_statement

WIDTH = 100  # the one line width of generated code (the project's own, in pyproject's line-length)

Hole = Union[str, cst.CSTNode]


def node(value: Hole) -> cst.CSTNode:
    """The node a hole is given: a string is the expression it spells."""
    return cst.parse_expression(value) if isinstance(value, str) else value


def _nodes(values: dict) -> dict:
    return {k: node(v) for k, v in values.items()}


def statement(template: str, w, **values: Union[Hole, list]) -> cst.BaseStatement:
    """One statement from `template` with the holes filled (see the module docstring)."""
    template, spliced = _spliced(template.replace("{i}", w.indent), values)
    made = parse_template_statement(template, config=w.module.config_for_parsing, **_nodes(values))
    return made.visit(_Splice(spliced)) if spliced else made


def statements(template: str, w, **values: Union[Hole, list]) -> list:
    """The statements of a template of several lines."""
    template, spliced = _spliced(template.replace("{i}", w.indent), values)
    made = parse_template_module(template, config=w.module.config_for_parsing, **_nodes(values))
    return list((made.visit(_Splice(spliced)) if spliced else made).body)


def _spliced(template: str, values: dict) -> tuple:
    """A hole standing for statements (a statement, or a list of them: none, one or several) is a line of its
    own; the statements take its place and the blank lines and comments above it (`_Splice`)."""
    spliced = {}
    for key in [k for k, v in values.items() if isinstance(v, (list, cst.BaseStatement))]:
        value = values.pop(key)
        spliced[f"_splice_{key}_"] = value if isinstance(value, list) else [value]
        template = template.replace("{" + key + "}", f"_splice_{key}_")
    return template, spliced


class _Splice(cst.CSTTransformer):
    def __init__(self, spliced: dict) -> None:
        super().__init__()
        self.spliced = spliced

    def _body(self, body) -> list:
        out = []
        for stmt in body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            name = small.value.value if isinstance(small, cst.Expr) and isinstance(small.value, cst.Name) else None
            if name not in self.spliced:
                out.append(stmt)
            elif self.spliced[name]:
                first, *rest = self.spliced[name]
                out += [first.with_changes(leading_lines=[*stmt.leading_lines, *first.leading_lines]), *rest]
        return out

    def leave_IndentedBlock(self, original, updated):
        return updated.with_changes(body=self._body(updated.body))

    def leave_Module(self, original, updated):
        return updated.with_changes(body=self._body(updated.body))


def expression(template: str, w, **values: Hole) -> cst.BaseExpression:
    config = w.module.config_for_parsing
    return parse_template_expression(template, config=config, **_nodes(values))


def code(node: cst.CSTNode, w) -> str:
    """The source of a generated node, as the module would print it."""
    return w.module.code_for_node(node)


def fits(line: str, indent: str = "", level: int = 0) -> bool:
    """Whether `line` (one line), at `level` indents of `indent`, stays within WIDTH columns."""
    return "\n" not in line and len(line) + len(indent) * level <= WIDTH


def fitted(template: str, w, level: int = 0, **values: Hole) -> cst.BaseStatement:
    """`statement(template, w, **values)` on one line when it fits at `level` indents, else with its `{call}`
    hole (a call, list or dict) written one item per line."""
    one = statement(template, w, **values)
    if fits(code(one, w).rstrip("\r\n"), w.indent, level):
        return one
    return statement(template, w, **{**values, "call": one_per_line(node(values["call"]), w)})


def current_scope(w) -> cst.BaseExpression:
    """`tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope())`: re-entered in a Keras `call`, TF1 layer
    names restart at every trace (guards.py; the Model subclass path, model_subclass_source.py)."""
    return expression("{scope}({current}())", w, scope=w.tf("tf.compat.v1.variable_scope"),
                      current=w.tf("tf.compat.v1.get_variable_scope"))


def arg(value: Hole, keyword: Optional[str] = None) -> cst.Arg:
    """`value`, or `keyword=value` (no spaces around `=`)."""
    if keyword is None:
        return cst.Arg(node(value))
    return cst.Arg(node(value), keyword=cst.Name(keyword), equal=_EQUAL)


def call(func: Hole, args: list) -> cst.Call:
    """`func(a, b)`: each argument a hole (positional) or an `arg`."""
    return cst.Call(node(func), [a if isinstance(a, cst.Arg) else arg(a) for a in args])


def parameters(*names: str, **defaults: Hole) -> cst.Parameters:
    """`(a, b, c=1)`."""
    params = [cst.Param(cst.Name(n)) for n in names]
    params += [cst.Param(cst.Name(k), default=node(v), equal=_EQUAL) for k, v in defaults.items()]
    return cst.Parameters(params)


def block(statements: list) -> cst.IndentedBlock:
    """The body of a generated `def`/`class`/`if`, in the module's own indent."""
    return cst.IndentedBlock(list(statements))


def apart(parts: list) -> list:
    """Top-level definitions (each a list of statements), two blank lines before each but the first."""
    out = []
    for part in (p for p in parts if p):
        first, *rest = part
        out += [first.with_changes(leading_lines=[BLANK] * 2) if out else first, *rest]
    return out


def newline(w, depth: int) -> cst.ParenthesizedWhitespace:
    """A line break inside brackets, the next line at `depth` indents more than its statement."""
    return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(w.indent * depth))


def one_per_line(bracket: cst.BaseExpression, w, depth: int = 0) -> cst.BaseExpression:
    """A call, list or dict with one item per line at `depth + 1` indents, each with its comma, and the
    closing bracket on a line of its own at `depth` (a call without arguments stays as it is)."""
    items = list(bracket.args if isinstance(bracket, cst.Call) else bracket.elements)
    if not items:
        return bracket
    inner = newline(w, depth + 1)
    items = [item.with_changes(comma=cst.Comma(whitespace_after=inner if k < len(items) - 1 else newline(w, depth)))
             for k, item in enumerate(items)]
    if isinstance(bracket, cst.Call):
        return bracket.with_changes(args=items, whitespace_before_args=inner)
    if isinstance(bracket, cst.Dict):
        return bracket.with_changes(elements=items, lbrace=cst.LeftCurlyBrace(whitespace_after=inner))
    return bracket.with_changes(elements=items, lbracket=cst.LeftSquareBracket(whitespace_after=inner))


BLANK = cst.EmptyLine(indent=False)  # a blank line, no spaces
_EQUAL = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))
