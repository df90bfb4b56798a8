"""A model_fn of another module of the package passed to the program's own Estimator:
`from trainer.model import model_fn; Estimator(model_fn=model_fn)` or `Estimator(model_fn=model.model_fn)`.

Converted as a helper of another module is (`built_elsewhere.py`, `helper_side.py`), with the model_fn itself
in the helper's place: the model_fn's module writes the Keras builder where the model_fn stood (`convert`,
run by that module), and the program calls it through the user's spelling (`model.build_model(params)`, or
`build_model` imported instead of `model_fn`). Both modules convert together or neither does; given alone,
the program keeps its TFM302 finding.
"""
from __future__ import annotations

import ast
import dataclasses
from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import dotted
from tf2migrate.engine.package import imported_modules
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.program import built_elsewhere, star_import
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.syntax.args import Unreadable

@dataclasses.dataclass
class ModelFnOf(built_elsewhere.External):
    """`fn` is the other module's model_fn itself; `call` the program's own `Estimator(...)` call."""

    star: bool = False  # `from model_fn import *` brought it (star_import.py): it brings the builder too


def find(prog, ctx) -> Optional[ModelFnOf]:
    """The other module's model_fn the program's `Estimator(model_fn=...)` names, when the package holds it."""
    from tf2migrate.rules.estimator.program.analyze import callee

    fn = prog.bound.get("model_fn")
    if ctx.package is None or ctx.tree is None or callee(prog.call, ctx) != "tf.estimator.Estimator":
        return None
    given = {n for n, _, _ in ctx.package.modules}
    imported = imported_modules(ctx.tree, ctx.package.name)
    if isinstance(fn, cst.Name) and fn.value not in prog.defs and fn.value in imported:
        module, attr = imported[fn.value]
        owner, name, prefix = (module, attr, "") if attr == fn.value and module in given else (None, None, "")
    elif isinstance(fn, cst.Attribute) and dotted(fn.value) in imported:
        module, attr = imported[dotted(fn.value)]
        whole = f"{module}.{attr}" if attr is not None else module
        owner, name, prefix = (whole, fn.attr.value, dotted(fn.value)) if whole in given else (None, None, "")
    elif isinstance(fn, cst.Name) and fn.value not in prog.defs and fn.value not in prog.values \
            and (found := star_import.owner(ctx, fn.value, given)) is not None:
        return ModelFnOf(None, found.defs[fn.value], prog.call, found, "", star=True)
    else:
        return None
    nb = built_elsewhere.neighbour(ctx, owner) if owner is not None else None
    if nb is None or not isinstance(nb.defs.get(name), cst.FunctionDef):
        return None
    return ModelFnOf(None, nb.defs[name], prog.call, nb, prefix)


def read(prog, ctx) -> None:
    """The model_fn read in its own module; what this pair of modules cannot convert blocks at the Estimator."""
    from tf2migrate.rules.estimator.idiomatic.model_fn import read_model_fn
    from tf2migrate.rules.estimator.program.model_fn_elsewhere import _imported_once_at_the_top, _imports

    b, site = prog.builder, prog.call
    where, name = built_elsewhere.shown(ctx, b.owner.path), b.fn.name.value
    problem = None
    if not b.prefix and not b.star and not _imported_once_at_the_top(ctx, name):
        problem = (f"`{name}` is imported from {where} by name, but not once at the top of this module as "
                   f"`from ... import {name}`: import it so, or import its module and use `module.{name}`")
    elif not b.prefix and {w for w in _names(prog, b)} & kept_source.names_in(ctx.module):
        problem = (f"this module already has a name {where} gives the converted model_fn (`build_model`, "
                   "`predictions_of`): import its module instead")
    elif not b.owner.ctx.allowed(b.fn, "TFM301"):
        problem = f"the model_fn in {where} is not converted there (a skip comment or --ignore)"
    elif prog.tpu is not None:
        problem = f"a TPUEstimator with the model_fn of {where}: convert by hand"
    elif kept_source.references(b.owner.module, name, plain=True) != 0:
        problem = f"`{name}` is also used in {where}: it goes with the conversion; convert by hand"
    elif any(_imports(text, n, b.owner) for n, _, text in ctx.package.modules if n != b.owner.name):
        problem = f"the model_fn's module {where} is also used by another module of the package: convert by hand"
    if problem is not None:
        prog.blockers.append(Unreadable(site, problem))
        return
    plan = read_model_fn(b.fn, b.owner.ctx, b.owner.defs)
    if plan.blockers or plan.forward_blockers:
        prog.blockers.append(Unreadable(site, f"the model_fn `{name}` in {where} does not convert (see the findings "
                                        "there): this program stays as it is with it"))
    elif plan.training_hooks is not None or plan.metric_fns or plan.chain.partitioners:
        prog.blockers.append(Unreadable(site, f"the model_fn `{name}` in {where} has training hooks, a TPU metric_fn "
                                        "or a partitioner: these convert only when the model_fn is in the program's "
                                        "module; move it there or convert by hand"))
    prog.model = plan


def _names(prog, b) -> set:
    there = built_elsewhere.owner_writer(prog, b.owner, StrategyKind.NONE)
    return {there.build_name, there.pred_name, there.examples_name}


def convert(plugin, original: cst.Module, updated: cst.Module):
    """In the model_fn's module: the module with the model_fn written as the builder the program calls, or
    `updated` after reporting why not; None when no program of the package passes a model_fn of this module."""
    from tf2migrate.rules.estimator.package import helper_side

    ctx = plugin.ctx
    drivers = [found for found in (_driver(ctx, n) for n, _, _ in (ctx.package.modules if ctx.package else ()))
               if found is not None]
    if not drivers:
        return None
    names = {prog.builder.fn.name.value for _, prog in drivers}
    defs = {s.name.value: s for s in original.body if isinstance(s, cst.FunctionDef)}
    if len(drivers) > 1 or len(names) != 1 or next(iter(names)) not in defs:
        others = ", ".join(built_elsewhere.shown(ctx, nb.path) for nb, _ in drivers)
        for name in sorted(names & set(defs)):
            ctx.report(defs[name].name, "TFM302", f"the model_fns of this module are passed to the Estimators of "
                       f"several programs ({others}): convert by hand", fixable=False)
        return updated
    fn = defs[next(iter(names))]
    return helper_side.write(plugin, original, updated, drivers[0], fn, fn.name, None)


def _driver(ctx, name: str):
    """(neighbour, its program) when the module `name` passes a model_fn of this module to its Estimator."""
    from tf2migrate.rules.estimator.package import idle_neighbours
    from tf2migrate.rules.estimator.program import analyze
    from tf2migrate.rules.estimator.reading import main_body

    found = ctx.package.text_of(name) if ctx.package is not None and ctx.tree is not None else None
    if found is not None and not idle_neighbours.may_read(ctx.tree, ctx.package.name, found[1], name):
        return None  # it names no function of this module: no LibCST read of it (t2t_model.py's transformer.py)
    nb = built_elsewhere.neighbour(ctx, name)
    if nb is None:
        return None
    prog = analyze.find(nb.module, nb.ctx)
    if prog is None:  # in `def main():`
        flat = main_body.flatten(nb.module, nb.module, analyze.builds_estimator(nb.module, nb.ctx))
        prog = analyze.find(flat.original, nb.ctx) if flat is not None else None
    b = built_elsewhere.external(prog) if prog is not None else None
    return (nb, prog) if isinstance(b, ModelFnOf) and b.owner.name == ctx.package.name else None


def not_given(prog, ctx) -> Optional[str]:
    """Why a model_fn imported from another module (`from trainer.model import model_fn`) is not converted here
    when that module was not given with this one, or None when the model_fn is not imported."""
    fn = prog.bound.get("model_fn")
    built = prog.values.get(fn.value) if isinstance(fn, cst.Name) and fn.value not in prog.defs else None
    if isinstance(built, cst.Call) and isinstance(built.func, cst.Attribute) and ctx.tree is not None:
        module = imported_modules(ctx.tree, getattr(ctx.package, "name", None) or "_").get(dotted(built.func.value))
        if module is not None and module[0].split(".")[0] not in ("tensorflow", "tensorflow_estimator"):
            return (f"the model_fn is the closure `{dotted(built.func)}(...)` returns, a model_fn builder of another "
                    "module: a builder converts only in the program's module (move it there) or by hand")
    head = dotted(fn.value) if isinstance(fn, cst.Attribute) else fn.value if isinstance(fn, cst.Name) else None
    if ctx.tree is None or head is None or fn is None or (isinstance(fn, cst.Name) and fn.value in prog.defs):
        return None
    module, attr = imported_modules(ctx.tree, getattr(ctx.package, "name", None) or "_").get(head, (None, None))
    stars = [n.module for n in ctx.tree.body if isinstance(n, ast.ImportFrom) and n.names[0].name == "*"
             and n.module and n.module.split(".")[0] not in ("tensorflow", "tensorflow_estimator")]
    given = {n for n, _, _ in ctx.package.modules} if ctx.package is not None else set()
    held = [nb for nb in (built_elsewhere.neighbour(ctx, m) for m in stars if m in given) if nb is not None
            and isinstance(nb.defs.get(getattr(fn, "value", None)), cst.FunctionDef) and star_import.rebound(nb)]
    if module is None and held and isinstance(fn, cst.Name):  # given, but its star import passes on its `tf`
        return (f"`{fn.value}` comes from `from {held[0].name} import *`, which also passes on that module's "
                f"`{star_import.rebound(held[0])[0]}` (a tensorflow.compat.v1 binding its conversion may rebind): "
                f"import it by name (`from {held[0].name} import {fn.value}`) or convert by hand")
    if module is None and stars and isinstance(fn, cst.Name):
        return (f"`{fn.value}` is not defined in this file: it comes from a star import ("
                + ", ".join(f"`from {m} import *`" for m in stars) + "), which the conversion does not follow: "
                f"import it by name (`from module import {fn.value}`), pass the whole package, or convert by hand")
    if module is None or module.split(".")[0] in ("tensorflow", "tensorflow_estimator"):
        return None
    whole = f"{module}.{attr}" if isinstance(fn, cst.Attribute) and attr else module
    return (f"the model_fn comes from another module (`{whole}`): pass the whole package to `tf2migrate rewrite` "
            "so that both modules convert together, or convert by hand")
