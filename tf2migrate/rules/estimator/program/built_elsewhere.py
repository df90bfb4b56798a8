"""An Estimator built by a helper of another module of the package: `model.build_estimator(config, params)`.

The program (`task.py`) and the helper with its model_fn (`model.py`) convert together or not at all. The
engine's package pre-pass (`engine/package.py`) gives each file the text of the other (`ctx.package`); this
module reads that neighbour with its own imports and places. In the program, the helper call is read as the
`Estimator(...)` it returns, as `builders.py` does within one module, and becomes `model.build_model(params)`:
the same name and signature the neighbour's rewrite gives the converted model_fn (`helper_side.py`).
What the program may take from the neighbour's model_fn is `model_fn_elsewhere.py`'s; without the neighbour,
TFM322 says where the Estimator comes from and to pass the whole package (`not_converted_report.py`).
"""
from __future__ import annotations

import ast
import dataclasses
import os
from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.engine.package import PackageView, imported_modules
from tf2migrate.rules.estimator.reading import builders
from tf2migrate.rules.estimator.syntax.args import Unreadable


@dataclass
class Neighbour:
    name: str  # dotted module name
    path: str
    module: cst.Module
    ctx: object  # its own Context: imports, names, places
    defs: dict  # top-level functions and classes by name


@dataclass
class External(builders.Builder):
    """A helper of another module (`index` is None: no statement of this file goes with it)."""

    owner: Optional[Neighbour] = None
    prefix: str = ""  # `model` for `model.build_estimator(...)`, "" for a from-imported `build_estimator(...)`


def neighbour(ctx, name: str) -> Optional[Neighbour]:
    """The module `name` of `ctx.package`, parsed once per file; its own view holds this file."""
    key = ("neighbour", name)
    if key not in ctx.memo:
        found = ctx.package.text_of(name) if ctx.package is not None else None
        ctx.memo[key] = None
        if found is not None:
            path, text = found
            try:
                view = PackageView(name, ((ctx.package.name, ctx.path, ctx.text),))
                module, nctx = ctx.read_other(text, path, view)
            except (SyntaxError, ValueError, cst.ParserSyntaxError):
                return None
            defs = {s.name.value: s for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
            ctx.memo[key] = Neighbour(name, path, module, nctx, defs)
    return ctx.memo[key]


def helpers(ctx) -> dict:
    """The Estimator helpers of the package's other modules, by how this file calls them
    (`model.build_estimator` or `build_estimator`)."""
    if ctx.package is None or ctx.tree is None:
        return {}
    if "other-helpers" in ctx.memo:
        return ctx.memo["other-helpers"]
    from tf2migrate.rules.estimator.package.idle_neighbours import may_have_helpers
    from tf2migrate.rules.estimator.program.analyze import is_estimator

    out = {}
    names = {n: text for n, _, text in ctx.package.modules}
    for local, (module, attr) in imported_modules(ctx.tree, ctx.package.name).items():
        whole = f"{module}.{attr}" if attr is not None else module
        owner_name, wanted = (whole, None) if whole in names else (module, attr) if attr else (None, None)
        # no LibCST read of a module `ast` shows has no helper (trainer_lib.py's t2t_model.py: 90 KB)
        owner = neighbour(ctx, owner_name) if owner_name in names and may_have_helpers(names[owner_name]) else None
        if owner is None:
            continue
        for name, b in builders.find(owner.module, lambda v: is_estimator(v, owner.ctx)).items():
            if wanted is None:
                out[f"{local}.{name}"] = External(None, b.fn, b.call, owner, local)
            elif name == wanted:
                out[local] = External(None, b.fn, b.call, owner, "")
    ctx.memo["other-helpers"] = out
    return out


def external(prog) -> Optional[External]:
    return prog.builder if isinstance(prog.builder, External) else None


def owner_writer(prog, owner: Neighbour, kind: str):
    """The writer of the helper's module: the builder's and the predictions function's names and texts there,
    as `helper_side.py` writes them."""
    from tf2migrate.rules.estimator.writing import keras_source

    return public(keras_source.Writer(dataclasses.replace(prog, defs=owner.defs), owner.ctx, owner.module, kind))


def public(w):
    """Another module calls them: `build_model` and `predictions_of`, even for a private `_model_fn`."""
    for attr, base in (("build_name", "build_model"), ("pred_name", "predictions_of"), ("examples_name", "examples_of")):
        if getattr(w, attr).startswith("_"):
            w.taken.discard(getattr(w, attr))
            setattr(w, attr, w.fresh(base))
    return w


def adapt(w) -> None:
    """The program calls the builder through the user's own spelling: `model.build_model(...)`."""
    b = external(w.prog)
    if b is None:
        return
    there = owner_writer(w.prog, b.owner, w.kind)
    dot = f"{b.prefix}." if b.prefix else ""
    w.build_name, w.pred_name = dot + there.build_name, dot + there.pred_name
    w.examples_name = dot + there.examples_name  # written next to the predictions function, there
    w.predictions_function = there.predictions_function  # written there; here only asked whether there is one
    if b.prefix.split(".")[0] == "model" and w.model_var != "model":
        w.taken.discard(w.model_var)
        w.model_var = w.fresh("keras_model")  # `model` is the module: not `model_2`


def not_in_a_switch(progs) -> None:
    """An if/else that chooses the Estimator or the strategy is converted per branch: not with a helper of another
    module, whose module is written once for one program (helper_side.py)."""
    for prog in progs:
        if prog is not None and external(prog) is not None:
            prog.blockers.append(Unreadable(prog.builder_site, "an Estimator of another module's helper in a program "
                                            "that chooses its Estimator or strategy with if/else: convert by hand"))


def shown(ctx, path: str) -> str:
    """Another module's path as a message names it: next to this file's (`model.py`, `../model.py`)."""
    try:
        return os.path.relpath(path, os.path.dirname(os.path.abspath(ctx.path)))
    except ValueError:  # another drive
        return path


def imports_renamed(body: list, prog, w) -> list:
    """`from trainer.model import build_estimator` -> `from trainer.model import build_model` (and `predictions_of`
    when the program uses it): the program calls the builder by the name it imports."""
    b = external(prog)
    if b is None or b.prefix:
        return body
    code = cst.Module(body=body).code
    wanted = [w.build_name] + [name for name in (w.examples_name, w.pred_name) if f"{name}(" in code]
    out = []
    for stmt in body:
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
            names = []
            for alias in small.names:
                if alias.asname is None and isinstance(alias.name, cst.Name) and alias.name.value == b.fn.name.value:
                    names += [cst.ImportAlias(cst.Name(name)) for name in wanted]
                else:
                    names.append(alias)
            comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            names = [a.with_changes(comma=comma) for a in names[:-1]] + [names[-1].with_changes(
                comma=cst.MaybeSentinel.DEFAULT)]
            stmt = stmt.with_changes(body=[small.with_changes(names=names)]) if len(names) != len(small.names) \
                or any(n is not a for n, a in zip(names, small.names)) else stmt
        out.append(stmt)
    return out


def call_of(prog):
    """Where the program's Estimator is made in this file: the helper's call, or the Estimator call."""
    return prog.builder_site if external(prog) is not None else prog.call


def placed(problem, prog, ctx):
    """A blocker found in the neighbour's nodes is reported at the helper's call in this file."""
    if external(prog) is None or own(ctx, problem.node):
        return problem
    return Unreadable(prog.builder_site, f"{problem.message} (in {shown(ctx, prog.builder.owner.path)})", problem.code)


def own(ctx, node) -> bool:
    """Is `node` in this file (a note or blocker about the neighbour's nodes is reported there)?"""
    return isinstance(node, ast.AST) or ctx.positions.place(node) is not None
