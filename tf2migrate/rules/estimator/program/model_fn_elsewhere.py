"""The model_fn of another module, as the program that trains it reads it (see built_elsewhere.py).

The model_fn is read in its own module (its imports, its names) by both rewrites, so they agree on what
converts; a program only refuses what the helper's module could not write or what only the program's module
could (training hooks, TPU metric_fns, partitioners), and reports it at the helper's call in its own file.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.package import imported_modules
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.syntax.args import Unreadable

_LITERALS = (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString)


def read_model(prog, ctx) -> None:
    """The model_fn the helper names, read in its own module; what this file cannot write blocks at the call."""
    from tf2migrate.rules.estimator.idiomatic.model_fn import read_model_fn
    from tf2migrate.rules.estimator.program.analyze import is_estimator

    b, site = prog.builder, prog.builder_site
    where = built_elsewhere.shown(ctx, b.owner.path)
    fn = prog.bound.get("model_fn")
    if not b.prefix and not _imported_once_at_the_top(ctx, b.fn.name.value):
        prog.blockers.append(Unreadable(site, f"`{b.fn.name.value}` is imported from {where} by name, but not once "
                                        f"at the top of this module as `from ... import {b.fn.name.value}`: import "
                                        "it so, or import its module and call it through the module"))
        return
    there = built_elsewhere.owner_writer(prog, b.owner, StrategyKind.NONE) if not b.prefix else None
    taken = kept_source.names_in(ctx.module) if there is not None else set()
    if there is not None and (there.build_name in taken or there.pred_name in taken or there.examples_name in taken):
        prog.blockers.append(Unreadable(site, f"this module already has a `{there.build_name}` or `{there.pred_name}`, "
                                        f"the names {where} gives the converted model_fn: import its module instead"))
        return
    if not b.owner.ctx.allowed(b.call, "TFM301"):
        prog.blockers.append(Unreadable(site, f"the helper in {where} is not converted there (a skip comment or "
                                        "--ignore): this program stays as it is with it"))
        return
    others = [built_elsewhere.shown(ctx, path) for name, path, text in ctx.package.modules
              if name != b.owner.name and _imports(text, name, b.owner)]
    if others:
        prog.blockers.append(Unreadable(site, f"the helper in {where} is also used by {', '.join(others)}: the "
                                        "conversion handles one program per helper; convert by hand"))
        return
    if prog.tpu is not None or not is_estimator(b.call, b.owner.ctx) or \
            b.owner.ctx.resolve(b.call.func)[1] != "tf.estimator.Estimator":
        prog.blockers.append(Unreadable(site, f"the helper in {where} builds a canned or TPU Estimator: only "
                                        "`Estimator(model_fn=...)` converts across modules; convert by hand"))
        return
    if not isinstance(fn, cst.Name) or not isinstance(b.owner.defs.get(fn.value), cst.FunctionDef):
        prog.blockers.append(Unreadable(site, f"the model_fn of the helper in {where} is not a function defined "
                                        "at the top level of that module: convert by hand"))
        return
    for key, value in prog.bound.items():
        if key != "model_fn" and _foreign(value, b) and not isinstance(value, _LITERALS):
            prog.blockers.append(Unreadable(site, f"the helper in {where} computes Estimator({key}=...) itself: "
                                            "pass it as a parameter or convert by hand"))
            return
    if (kept_source.references(b.owner.module, fn.value, plain=True) != 1
            or kept_source.references(b.owner.module, b.fn.name.value, plain=True)):
        prog.blockers.append(Unreadable(site, f"`{fn.value}` or `{b.fn.name.value}` is used elsewhere in {where}: "
                                        "both go with the conversion; convert by hand"))
        return
    plan = read_model_fn(b.owner.defs[fn.value], b.owner.ctx, b.owner.defs)
    if plan.blockers or plan.forward_blockers:
        prog.blockers.append(Unreadable(site, f"the model_fn `{fn.value}` in {where} does not convert (see the "
                                        "findings there): this program stays as it is with it"))
    elif plan.training_hooks is not None or plan.metric_fns or plan.chain.partitioners:
        prog.blockers.append(Unreadable(site, f"the model_fn `{fn.value}` in {where} has training hooks, a TPU "
                                        "metric_fn or a partitioner: these convert only when the model_fn is in the "
                                        "program's module; move it there or convert by hand"))
    prog.model = plan


def _foreign(value, builder) -> bool:
    """Is `value` a node of the helper's module (not an argument this file passed)?"""
    found = []

    class _V(cst.CSTVisitor):
        def on_visit(self, node):
            found.append(node is value)
            return not found[-1]

    builder.call.visit(_V())
    return any(found)


def _imports(text: str, name: str, owner) -> bool:
    """Does the module `name` (of this text) import the helper's module?"""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return any(owner.name in (module, f"{module}.{attr}") for module, attr in imported_modules(tree, name).values())


def _imported_once_at_the_top(ctx, name: str) -> bool:
    """`from package.model import build_estimator` once, at the top level, unaliased: the one statement
    `built_elsewhere.imports_renamed` rewrites (to `import build_model`)."""
    bound = [alias for node in ast.walk(ctx.tree) if isinstance(node, (ast.Import, ast.ImportFrom))
             for alias in node.names if (alias.asname or alias.name.split(".")[0]) == name]
    top = [alias for node in ctx.tree.body if isinstance(node, ast.ImportFrom) for alias in node.names
           if alias.name == name and alias.asname is None]
    return len(bound) == 1 and len(top) == 1
