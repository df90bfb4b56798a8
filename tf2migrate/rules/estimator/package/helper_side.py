"""The helper's side of a package program: `model.py`'s model_fn becomes the Keras builder `task.py` calls.

A module whose top-level helper returns an Estimator and that has no program of its own is converted only
together with the module that trains that Estimator (`built_elsewhere.py` converts that one). The neighbour's
own conversion is run here in full, on its text: when it converts, its writer says the strategy kind, the
Keras target and the builder's name; the model_fn is read again here, with this module's imports and places,
and written where it stands as the same-module path writes it; the helper goes (the program no longer calls
it). When the neighbour does not convert, or is not given, this module stays as it is and says why.
"""
from __future__ import annotations

import dataclasses

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.engine.package import PackageView
from tf2migrate.rules.estimator.idiomatic.model_fn import read_model_fn
from tf2migrate.rules.estimator.planning import target
from tf2migrate.rules.estimator.planning.notes import conversion_notes
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.reading import builders, main_body
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.writing import body_pieces, keras_source, prediction_source

ALONE = ("`{name}` returns an Estimator that another module trains: pass the whole package to `tf2migrate "
         "rewrite` so that both modules convert together")


def convert(plugin, original: cst.Module, updated: cst.Module):
    """The new module, or `updated` after reporting why not; None when no helper of this module is for another."""
    from tf2migrate.rules.estimator.program import analyze

    ctx = plugin.ctx
    helpers = builders.find(original, lambda value: analyze.is_estimator(value, ctx))
    if not helpers:
        from tf2migrate.rules.estimator.program import imported_model_fn

        return imported_model_fn.convert(plugin, original, updated)
    drivers = [found for found in map(lambda n: _driver(ctx, n[0]), ctx.package.modules if ctx.package else ())
               if found is not None]
    if not drivers:
        users = ", ".join(built_elsewhere.shown(ctx, path) for _, path, _ in (ctx.package.modules if ctx.package else ()))
        for name, b in helpers.items():
            ctx.report(b.call, "TFM322", f"`{name}` returns an Estimator that {users} may train, but no program there "
                       "converts with it (see the findings there)" if users else ALONE.format(name=name), fixable=False)
        return updated
    nb, prog = drivers[0]
    name = prog.builder.fn.name.value
    here = helpers.get(name)
    if here is None:
        return None
    if len(drivers) > 1:
        others = ", ".join(built_elsewhere.shown(ctx, n.path) for n, _ in drivers)
        ctx.report(here.call, "TFM302", f"`{name}`'s Estimator is trained by several modules ({others}): "
                   "convert by hand", fixable=False)
        return updated
    defs = {s.name.value: s for s in original.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    fn = prog.bound.get("model_fn")
    if not isinstance(fn, cst.Name) or not isinstance(defs.get(fn.value), cst.FunctionDef):
        ctx.report(here.call, "TFM302", f"`{name}`'s model_fn is not a function defined at the top level of this "
                   "module: convert by hand", fixable=False)
        return updated
    return write(plugin, original, updated, (nb, prog), defs[fn.value], here.call, defs[name])


def _shown(plan, model_fn, helper, where: str) -> list:
    """The model_fn's blockers as the user must read them: the forward-pass statements the reader did not
    understand come first (the training-step blocker refers to them), with the true cause when there are such:
    only a model_fn in its program's own module becomes a Keras Model subclass that keeps them (TFM321)."""
    if not plan.forward_blockers or helper is not None:  # a helper's module: its own findings say why
        return plan.blockers or plan.forward_blockers
    cause = Unreadable(model_fn.name, f"`{model_fn.name.value}` is passed to the Estimator of {where}, and statements "
                       "of its forward pass are kept as written only by the Keras Model subclass conversion (TFM321), "
                       "which converts a model_fn only in the module of its Estimator program: move it there, or "
                       "convert by hand")
    return [*plan.forward_blockers, cause, *plan.blockers]


def write(plugin, original: cst.Module, updated: cst.Module, driver_of, model_fn, site, helper):
    """This module with `model_fn` written as the Keras builder the program of `driver_of` (neighbour, program)
    calls, and without `helper` (None: no helper goes); or `updated` after reporting at `site` why not."""
    ctx, (nb, prog) = plugin.ctx, driver_of
    defs = {s.name.value: s for s in original.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    plan = read_model_fn(model_fn, ctx, defs)
    driver = type(plugin)(nb.ctx)
    converted = driver.leave_module(nb.module, nb.module) is not nb.module and _converts(ctx, nb)
    w_d = getattr(driver, "writer", None)
    if not converted or w_d is None:
        for problem in body_pieces.one_per_line(_shown(plan, model_fn, helper, built_elsewhere.shown(ctx, nb.path)), ctx):
            ctx.report(problem.node, problem.code or "TFM302", problem.message, fixable=False)
        ctx.report(site, "TFM302", f"the program in {built_elsewhere.shown(ctx, nb.path)} that trains the Estimator "
                   f"of `{prog.builder.fn.name.value}` does not convert (see the findings there): this module stays as "
                   "it is with it", fixable=False)
        return updated
    new_prog = dataclasses.replace(w_d.prog, defs=defs, model=plan, model_fn_index=original.body.index(model_fn))
    w = keras_source.Writer(new_prog, ctx, original, w_d.kind)
    w.target = w_d.target
    built_elsewhere.public(w)  # the names the program calls (built_elsewhere.owner_writer)
    w.program_predicts = prediction_source.predicts(nb.module, w_d.prog.var)
    shown = built_elsewhere.shown(ctx, nb.path)
    if not ctx.report(site, "TFM301", f"the model_fn became `{w.build_name}`, which {shown} now calls "
                      "(its Estimator program is converted with this module)"):
        return updated
    body = _body(original, updated, new_prog.model_fn_index, helper, w, plan)
    notes = list(plan.notes) + conversion_notes(new_prog, ctx, w_d.kind, None, None)
    for node, code, message in notes:
        if built_elsewhere.own(ctx, node):
            ctx.report(node, code, message, severity=Severity.INFO)
    _, why = target.choose(ctx.selection.target, w_d.kind, None, plan, ctx)
    if why:
        ctx.report(site, "TFM320", why, severity=Severity.WARNING)
        body = target.with_legacy_switch(body, updated)
    return updated.with_changes(body=body)


def _driver(ctx, name: str):
    """(neighbour, its program) when the module `name` trains an Estimator of one of this module's helpers."""
    from tf2migrate.rules.estimator.program import analyze

    nb = built_elsewhere.neighbour(ctx, name)
    if nb is None:
        return None
    prog = analyze.find(nb.module, nb.ctx)
    if prog is None:  # in `def main():`
        flat = main_body.flatten(nb.module, nb.module, analyze.builds_estimator(nb.module, nb.ctx))
        prog = analyze.find(flat.original, nb.ctx) if flat is not None else None
    b = built_elsewhere.external(prog) if prog is not None else None
    if type(b) is not built_elsewhere.External or b.owner.name != ctx.package.name \
            or not isinstance(prog.bound.get("model_fn"), cst.Name):  # (a ModelFnOf is imported_model_fn.py's)
        return None
    return nb, prog


def _converts(ctx, nb) -> bool:
    """Does the program's module convert in its own run? Its whole rewrite replayed, every rule, with what that
    run reads of the package (this module among it), so that the two never disagree."""
    _, text = ctx.package.text_of(nb.name)
    others = ((ctx.package.name, ctx.path, ctx.text), *ctx.package.modules)
    view = PackageView(nb.name, tuple(sorted(m for m in others if m[0] != nb.name)))
    result = ctx.rewrite_other(text, nb.path, view)
    return result.code != text and any(d.code == "TFM301" for d in result.diagnostics)


def _body(original, updated, model_at: int, helper, w, plan) -> list:
    """The module with the model_fn's builder where the model_fn stood and without the helper."""
    built = templates.apart([body_pieces.optimizers_compat(plan, w), [w.build_function()], w.predictions_function(),
                             w.examples_function()])
    out, carried = [], None
    for k, stmt in enumerate(updated.body):
        if original.body[k] is helper:
            carried = stmt.leading_lines if carried is None else carried
            continue
        if carried is not None:
            stmt, carried = stmt.with_changes(leading_lines=carried), None
        out += body_pieces.with_lines(list(built), stmt) if k == model_at else [stmt]
    return out
