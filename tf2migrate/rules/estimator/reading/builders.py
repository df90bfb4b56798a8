"""Estimators built by a helper of the same module: `def build_estimator(config): return Estimator(...)`.

Trainer scripts often wrap the constructor in a function and call it from `main()`. The call site
`estimator = build_estimator(config, params)` is read as the `Estimator(...)` call it returns, with the
helper's parameters replaced by the call's arguments, and the helper goes away with the conversion (the
model builder takes its place). Only a helper whose body is that one `return` is read this way.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import dotted
from tf2migrate.rules.estimator.reading.spec import is_docstring
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in


@dataclass
class Builder:
    index: int  # of the helper in the module body
    fn: cst.FunctionDef
    call: cst.Call  # the Estimator call it returns


def find(module: cst.Module, is_estimator) -> dict:
    """Top-level helpers that only return an Estimator, by name."""
    out = {}
    for i, stmt in enumerate(module.body):
        if not isinstance(stmt, cst.FunctionDef) or not isinstance(stmt.body, cst.IndentedBlock) or stmt.decorators:
            continue
        body = [s for s in stmt.body.body if not is_docstring(s)]
        if len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1:
            ret = body[0].body[0]
            if isinstance(ret, cst.Return) and is_estimator(ret.value):
                out[stmt.name.value] = Builder(i, stmt, ret.value)
    return out


def called(value, builders: dict) -> Optional[Builder]:
    """The helper `value` calls, if it is `helper(...)` (or `module.helper(...)`, built_elsewhere.py)."""
    if isinstance(value, cst.Call):
        name = dotted(value.func)
        return builders.get(name) if name is not None else None
    return None


def substitute(bound: dict, builder: Builder, site: cst.Call) -> dict:
    """The Estimator's arguments with the helper's parameters replaced by what the call site passes."""
    params = builder.fn.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg or params.posonly_params:
        raise Unreadable(builder.fn.params, "estimator helper with *args/**kwargs: convert by hand")
    names = [p.name.value for p in (*params.params, *params.kwonly_params)]
    given, positional = {}, [p.name.value for p in params.params]
    for k, arg in enumerate(site.args):
        if arg.star or (arg.keyword is None and k >= len(positional)) or (arg.keyword and arg.keyword.value not in names):
            raise Unreadable(arg, f"call of `{builder.fn.name.value}` that does not match its parameters")
        given[arg.keyword.value if arg.keyword else positional[k]] = arg.value
    for p in (*params.params, *params.kwonly_params):
        if p.name.value not in given:
            if p.default is None:
                raise Unreadable(site, f"`{builder.fn.name.value}` called without `{p.name.value}`")
            given[p.name.value] = p.default
    out = {}
    for key, value in bound.items():
        if isinstance(value, cst.Name) and value.value in given:
            out[key] = given[value.value]
        elif names_in(value) & set(names):
            raise Unreadable(value, f"`{builder.fn.name.value}` computes an Estimator argument from its parameters: "
                             "pass it ready-made or convert by hand")
        else:
            out[key] = value
    return out


def helper_returns(module: cst.Module, is_estimator) -> dict:
    """id(Estimator call) -> message, for the calls a top-level helper returns when it is no one-`return`
    helper (`find`): in an if/else, `return A(...) if deep else B(...)`, or with other statements before."""
    out = {}
    for stmt in module.body:
        if not isinstance(stmt, cst.FunctionDef) or find(cst.Module(body=[stmt]), is_estimator):
            continue
        returned = []

        class _Returns(cst.CSTVisitor):
            def visit_FunctionDef(self, node):
                return node is stmt  # a nested def's returns are not the helper's

            def visit_Return(self, node):
                if node.value is not None:
                    returned.extend(v for v in _values(node.value) if is_estimator(v))

        stmt.visit(_Returns())
        name = stmt.name.value
        why = (f"`{name}` returns an Estimator but is not a helper whose body is one `return Estimator(...)`"
               + (f" (it chooses between {len(returned)} Estimators)" if len(returned) > 1 else "")
               + ": the conversion reads only that form; write one such helper per Estimator, or convert by hand")
        out.update((id(v), why) for v in returned)
    return out


def _values(expr) -> list:
    """`A(...) if test else B(...)`: both."""
    return _values(expr.body) + _values(expr.orelse) if isinstance(expr, cst.IfExp) else [expr]
