"""Step 2 of converting one Estimator program: render each top-level statement from the plan.

`render` gives, for every statement of the module, its replacement (a list of new statements, each carrying
the replaced statement's own blank lines and comments) or None when it goes. The model_fn becomes the
model's builder, the Estimator the strategy and the model made in its scope, the runs `fit`, `evaluate`
and `predict`; every other statement is kept as the other rules left it. A run that cannot be written adds
its blocker to the program (the caller then converts nothing).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import strategy
from tf2migrate.rules.estimator.planning import keras_estimator, plan_types
from tf2migrate.rules.estimator.planning import params_optimizer, replicate, tpu
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.reading import closures
from tf2migrate.rules.estimator.reading import uses
from tf2migrate.rules.estimator.shim_path import kept_forward
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.writing import body_pieces, model_subclass_source
from tf2migrate.rules.estimator.writing import numpy_input, run_blocks, serving_inputs


def render_body(conv, original: cst.Module, updated: cst.Module) -> list:
    """[replacement or None] per statement of `updated.body` (see the module docstring)."""
    prog, w, ctx, out = conv.prog, conv.writer, conv.writer.ctx, []
    r = conv.runs
    for i, stmt in enumerate(updated.body):
        orig = original.body[i]
        if prog.strategy_in_place and i == prog.strategy_index:
            out.append(body_pieces.with_lines(strategy_in_place(conv), stmt))
        elif (made := replicate.render(conv, i, stmt)) is not None:  # replicate_model_fn's switch
            out.append(made)
        elif i in prog.removed or body_pieces.v1_switch(orig, ctx, conv.notes):
            out.append(None)
        elif i == prog.model_fn_index:
            out.append(body_pieces.with_lines(_model_statements(conv, stmt), stmt))
        elif i == prog.estimator:
            out.append(body_pieces.with_lines(model_statements(conv), stmt))
        elif i in prog.runs:
            try:
                out.append(run_statements(orig, stmt, r, w, ctx))
            except Unreadable as problem:
                prog.blockers.append(problem)
                out.append([stmt])
        elif body_pieces.unused_columns(orig, prog, w, original):
            out.append(None)
        elif plan_types.keras(conv.model) and i in (conv.model.optimizer_index, conv.model.compile_index):
            out.append([keras_estimator.kept(conv.model, i, stmt, w)])
        elif numpy_input.bound(orig, prog, ctx) is not None:  # `train_input_fn = numpy_input_fn(...)`
            out.append([numpy_input.function(orig, stmt, w, conv.notes)])
        else:
            out.append([body_pieces.render_kept(stmt, prog, ctx, conv.notes, orig)])
    return out


def builder_head(conv) -> list:
    """A canned estimator has no model_fn to replace: its builder goes just before the model is made."""
    if conv.prog.model_fn_index is not None or built_elsewhere.external(conv.prog) is not None \
            or plan_types.keras(conv.model):
        return []
    w = conv.writer
    return templates.apart([body_pieces.optimizers_compat(conv.model, w), [w.build_function()], w.predictions_function(),
                            w.examples_function(), w.predict_all_function()])


def _model_statements(conv, stmt) -> list:
    """The model_fn's replacement: the model class or layer, the optimizer's compat class, the builder."""
    w, model = conv.writer, conv.model
    if conv.general is not None and conv.prog.closure is not None:  # in the builder that returned the model_fn
        made = [model_subclass_source.model_class(conv.general, w), model_subclass_source.build_function(conv.general, w)]
        parts = [body_pieces.optimizers_compat(model, w), [closures.builder(conv.prog.closure, stmt, made, w)],
                 w.examples_function(), w.predict_all_function()]  # a predict loop reads the model it returns
    elif conv.general is not None:
        parts = [[model_subclass_source.model_class(conv.general, w)], body_pieces.optimizers_compat(model, w),
                 [model_subclass_source.build_function(conv.general, w)], w.examples_function(), w.predict_all_function()]
    else:
        parts = [[kept_forward.layer_class(conv.shim, w)] if conv.shim else [], body_pieces.optimizers_compat(model, w),
                 [w.build_function(kept_forward.construct(conv.shim) if conv.shim else None)], w.predictions_function(),
                 w.examples_function(), w.predict_all_function()]
    return templates.apart(parts)


def strategy_in_place(conv) -> list:
    """The strategy made where the program chose it: in an if/else branch, or `S = X if test else None`."""
    prog, w = conv.prog, conv.writer
    default = templates.expression("{get}()", w, get=w.tf("tf.distribute.get_strategy"))
    made = strategy.statements(conv.kind, w.strategy_var, prog, w.ctx, w, None)
    if prog.strategy_test is None:
        return made or [templates.statement("{var} = {default}", w, var=w.strategy_var, default=default)]
    if len(made) != 1 or "\n" in templates.code(made[0], w).rstrip("\n"):
        raise Unreadable(prog.strategy_test, "a strategy chosen in an expression that needs several statements "
                         "in TF2: write the choice as an if/else")
    assign = made[0].body[0]
    values = dict(var=assign.targets[0].target, value=assign.value, test=w.text(prog.strategy_test), default=default)
    one = templates.statement("{var} = {value} if {test} else {default}", w, **values)
    if templates.fits(templates.code(one, w).rstrip("\r\n"), w.indent, 1):  # (it usually stands in main())
        return [one]
    return [templates.statement("{var} = (\n{i}{value} if {test} else {default}\n)", w, **values)]


def model_statements(conv) -> list:
    """The Estimator's replacement: the seed, the strategy, the params, and the model made in its scope."""
    prog, w, ctx, kind = conv.prog, conv.writer, conv.writer.ctx, conv.kind
    var, out = w.strategy_var, []
    seed = prog.config.get("tf_random_seed")
    if seed is not None:
        out.append(templates.statement("{set_seed}({seed})", w, set_seed=w.tf("tf.random.set_seed"), seed=w.text(seed)))
    if not prog.strategy_in_place:  # else made where the program chose it
        part = strategy.render_partitioner(conv.part, ctx, w.tf) \
            if conv.part is not None and kind is StrategyKind.PARAMETER_SERVER else None
        out += strategy.statements(kind, var, prog, ctx, w, part)
        if w.default_strategy:
            out.append(templates.statement("{var} = {get}()", w, var=var, get=w.tf("tf.distribute.get_strategy")))
    if plan_types.keras(conv.model):  # model_to_estimator: the Keras model itself, or its clone in the scope
        return out + keras_estimator.made(conv)
    given = prog.bound.get("params")
    value = tpu.params_text(prog.tpu, given, w) if prog.tpu is not None \
        else w.text(kept_source.one_per_line(params_optimizer.respelled(given, w), w.indent)) if given is not None else None
    own = prog.tpu is None and isinstance(given, cst.Name) and given.value == w.params_var
    if w.params_var is not None and not own:  # the input functions take the params too
        out.append(templates.statement("{params} = {value}", w, params=w.params_var, value=value or "{}"))
        value = w.params_var if value is not None else None
    if value is None and conv.model is not None and conv.model.uses_params and prog.tpu is None:
        value = "{}"  # the Estimator gave the model_fn empty params
    args = [cst.Arg(cst.parse_expression(value))] if value is not None else []
    if prog.tpu is not None and prog.tpu.iterations is not None:
        args.append(cst.Arg(cst.parse_expression(w.text(prog.tpu.iterations)), keyword=cst.Name("steps_per_execution"),
                            equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))))
    call = cst.Call(cst.parse_expression(w.build_call or w.build_name), args)
    if kind is not StrategyKind.NONE or prog.strategy_in_place:
        out.append(templates.statement("with {var}.scope():\n{i}{model} = {call}", w, var=var, model=w.model_var,
                                       call=call))
    else:
        out.append(templates.statement("{model} = {call}", w, model=w.model_var, call=call))
    return out


def run_statements(orig, stmt, r, w, ctx) -> list:
    """A statement that runs the Estimator (train_and_evaluate, train, evaluate, predict, export)."""
    small = orig.body[0] if isinstance(orig, cst.SimpleStatementLine) and len(orig.body) == 1 else None
    if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        call = small.value
        if ctx.resolve(call.func)[1] == "tf.estimator.train_and_evaluate":
            return body_pieces.with_lines(r.train_and_evaluate(call), stmt)
        if isinstance(call.func, cst.Attribute) and call.func.attr.value in uses.METHODS:
            return body_pieces.with_lines(r.method(call), stmt)
    kept = _kept_result(small, ctx)
    if kept is not None:  # `result = train_and_evaluate(...)`, `a, b = ...`, `return ...`
        *prelude, last = r.train_and_evaluate_result(kept.value)
        return body_pieces.with_lines([*prelude, last.with_changes(body=[kept.with_changes(value=last.body[0].value)])],
                                   stmt)
    target, value = uses.assignment(orig)
    if target is not None and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and value.func.attr.value in uses.METHODS and value.func.value.deep_equals(cst.Name(r.prog.var)):
        if value.func.attr.value in uses.EXPORTS:
            raise Unreadable(value, "the path export_saved_model returns: model.save returns nothing; save "
                             "the model by hand where the program needs its path")
        *prelude, last = r.method(value)
        assigned = last.with_changes(body=[cst.Assign([cst.AssignTarget(cst.Name(target))], last.body[0].value)])
        return body_pieces.with_lines([*prelude, assigned], stmt)
    if run_blocks.is_block(orig):  # a loop of runs (train N steps, evaluate, repeat): kept, each run rendered
        made = run_blocks.render(orig, stmt, r, lambda old, new: run_statements(old, new, r, w, ctx))
        if made is not None:  # an export's block: without the serving input built for it (serving_inputs.py)
            return [serving_inputs.drop(orig, m, r.prog, ctx, w.module, r.notes) for m in made]
    replacer = body_pieces.ReplaceRuns(prog_var=r.prog.var, runs=r, ctx=ctx)
    made = serving_inputs.drop(orig, orig.visit(replacer), r.prog, ctx, w.module, r.notes)  # its placeholders
    return [made.with_changes(leading_lines=stmt.leading_lines)]


def _kept_result(small, ctx):
    """The `Assign` or `Return` whose value is a `train_and_evaluate` call, else None."""
    if isinstance(small, (cst.Assign, cst.Return)) and isinstance(small.value, cst.Call) \
            and ctx.resolve(small.value.func)[1] == "tf.estimator.train_and_evaluate":
        return small
    return None
