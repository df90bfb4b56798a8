"""Step 1 of converting one Estimator program: the plan. Nothing is written here.

Which path the model takes (the idiomatic Sequential, the shim keeping the forward pass, or the general
Model subclass), which strategy it is built under, which Keras it is written for, the names the output
uses (the writer) and the notes to report. `program_statements.py` then renders each statement from this
plan, and `splice.py` puts the new module body together.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.default_path import model_subclass
from tf2migrate.rules.estimator.default_path import kept_statements, tf1_style
from tf2migrate.rules.estimator.planning import result_reads, strategy, target, whole_results
from tf2migrate.rules.estimator.planning import keras_estimator, params_optimizer, plan_types
from tf2migrate.rules.estimator.planning.notes import conversion_notes
from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.planning.plan_types import ModelPath, ModelPlan, StrategyKind
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.reading import closures
from tf2migrate.rules.estimator.reading.spec import deletes
from tf2migrate.rules.estimator.shim_path import kept_forward
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.writing import keras_source, runs

# The strategies a Model subclass runs under as TF1 ran the model_fn: once per replica, its tf.compat.v1 losses
# scaled by the number of replicas, the gradients summed (measured by the mirrored pairs est_general_*).
GENERAL_STRATEGIES = (StrategyKind.NONE, StrategyKind.MIRRORED, StrategyKind.MULTI_WORKER, StrategyKind.TPU)
NO_KERAS_EQUIVALENT = ("device_fn", "experimental_distribute", "protocol", "experimental_max_worker_delay_secs")


@dataclass
class Conversion:
    prog: object  # analyze.Program
    model: Optional[ModelPlan]  # the plan of the path taken (None: a model_fn in another module)
    kind: StrategyKind
    part: Optional[cst.BaseExpression]  # the model's partitioner, for ParameterServerStrategy
    writer: keras_source.Writer
    shim: Optional[kept_forward.ShimPlan] = None
    general: Optional[model_subclass.GeneralPlan] = None
    notes: list = field(default_factory=list)  # (node, code, message)
    runs: Optional[runs.Runs] = None  # writes the runs; its notes join the plan's once rendered

    def __post_init__(self):
        self.runs = self.runs or runs.Runs(self.writer)


def plan(prog, ctx, original, updated, steps_param=False, default_strategy=False, params_name=None) \
        -> Optional[Conversion]:
    """The plan, or None when the program does not convert (its blockers are then in `prog.blockers`).

    `steps_param`: build_model takes steps_per_execution (the other branch of a TPU switch has it);
    `default_strategy`: this is the local branch of an if/else whose other branch distributes (switch_convert.py);
    `params_name`: the name the other branch's plain Estimator gives its params (a TPU branch's take it too)."""
    model = prog.model
    shim_plan = kept_forward.plan(model, ctx) if model is not None and model.forward_blockers and prog.closure is None \
        else None
    if shim_plan is not None:
        made = tf1_style.keras_made([model.node.body.body[i] for i in shim_plan.statements], ctx, prog.defs)
        if made is not None:
            prog.blockers.append(Unreadable(made, tf1_style.KERAS_MADE))
    general_plan = _general(prog, model, ctx) if shim_plan is None else None
    if general_plan is None and prog.closure is not None and model is not None and not model.blockers \
            and not model.forward_blockers:
        prog.blockers.append(Unreadable(prog.closure.site, "a model_fn returned by a builder function converts only "
                                        "to a Keras Model subclass in that builder (TFM321), which this converter "
                                        "writes for a program without a parameter-server strategy or "
                                        "other blockers: convert by hand"))
    if general_plan is not None:
        model = prog.model = general_plan
    elif model is not None:
        prog.blockers.extend(model.forward_blockers if shim_plan is None else [])
        prog.blockers.extend(model.blockers)
    if (shim_plan or general_plan) and (gone := [s for s in model.node.body.body if deletes(s, "config")]):
        prog.blockers.append(Unreadable(gone[0], "`del config` in a model_fn whose code is kept as written (TFM313, "
                                        "TFM321): the Keras model has no config to delete; remove the line"))
    if not prog.blockers:
        prog.blockers.extend(result_reads.blockers(original, prog, ctx))  # `results["average_loss"]`: a KeyError
    if prog.blockers:
        _more_blockers(prog, ctx, original)
        return None
    whole = whole_results.notes(original, prog, ctx)  # `print(results)`: the keys Keras does not give back
    kind = strategy.choose(prog, ctx)
    part = strategy.partitioner(prog, ctx, kind)
    for key in prog.config:
        if key in NO_KERAS_EQUIVALENT:
            raise Unreadable(prog.config[key], f"RunConfig({key}=...) has no Keras equivalent: convert by hand")
    w = _writer(prog, ctx, original, updated, kind, steps_param, default_strategy)
    if plan_types.keras(model):  # model_to_estimator: the runs train the Keras model (or its clone in the scope)
        w.model_var = keras_estimator.model_var(prog, kind)
    if params_name is not None and prog.tpu is not None:
        w.params_var = params_name  # `params = dict(params, batch_size=..., use_tpu=...)` in the TPU branch
    w.target, why_keras2 = target.choose(ctx.selection.target, kind, shim_plan or general_plan, model, ctx,
                                         w.steps_per_execution)
    if prog.keras2 is not None and w.target != target.TF_KERAS:  # another branch of its choice needs tf-keras
        w.target, why_keras2 = target.TF_KERAS, f"another branch of this choice is written for tf-keras ({prog.keras2})"
    notes = list(model.notes if model is not None else ()) + conversion_notes(prog, ctx, kind, part, shim_plan) + whole
    if general_plan is not None:
        notes[:0] = [(general_plan.node, "TFM321", None), (general_plan.node, tf1_style.CODE, tf1_style.message(
            general_plan.tf1_forward, general_plan.tf1_steps))]
    if why_keras2:
        notes.append((prog.call, "TFM320", why_keras2))
    return Conversion(prog, model, kind, part, w, shim_plan, general_plan, notes)


def _writer(prog, ctx, original, updated, kind, steps_param, default_strategy) -> keras_source.Writer:
    w = keras_source.Writer(prog, ctx, original, kind)
    named = default_strategy if isinstance(default_strategy, str) else None
    built_elsewhere.adapt(w)  # a helper of another module: `model.build_model(...)`
    w.strategy_var = prog.strategy_var or named or w.fresh("strategy")
    w.resolver_var = w.fresh("cluster_resolver") if kind is StrategyKind.PARAMETER_SERVER else None
    w.per_replica_input = kind.replicated and strategy.tf1_kind(prog, ctx) == kind
    w.default_strategy = default_strategy
    w.per_replica_input = w.per_replica_input or bool(default_strategy)
    w.steps_per_execution = steps_param or (prog.tpu is not None and prog.tpu.iterations is not None)
    _name_params(w, prog, original)
    if prog.closure is not None:  # the model_fn inside its builder (closures.py)
        w.updated_model_fn = closures.updated_model_fn(prog.closure, updated.body[prog.model_fn_index])
        w.build_call = w.text(prog.closure.site)
    elif prog.model_fn_index is not None:
        w.updated_model_fn = updated.body[prog.model_fn_index]
    return w


def _name_params(w, prog, original) -> None:
    """The name of the params dict the input functions are called with, when they take params."""
    given = prog.bound.get("params")
    if prog.tpu is None and isinstance(given, cst.Name):
        w.params_var = given.value  # the program's own params dict serves the input functions too
    elif prog.tpu is not None or any(runs.takes_params(prog.defs.get(name)) for name in prog.input_fns):
        w.params_var = w.fresh("params") if runs.params_taken(original, prog) else "params"


def _general(prog, model, ctx) -> Optional[model_subclass.GeneralPlan]:
    """The general plan (model_subclass.py) when the model_fn blocks both other paths and the program runs without
    a strategy or TPU; its reason is added to the blockers when it does not apply either."""
    if model is None or model.path is not ModelPath.IDIOMATIC \
            or not (model.blockers or model.forward_blockers or prog.closure is not None) \
            or not ctx.allowed(model.node, "TFM321"):
        return None
    if any(isinstance(p.node, cst.Parameters) for p in model.blockers):  # not (features, labels, mode, params)
        return None
    if prog.blockers:  # blocked elsewhere: the model_fn's findings are only those the default path would keep
        _keep_true_blockers(prog, model, ctx)
        return None
    try:
        kind = strategy.choose(prog, ctx)
        if kind not in GENERAL_STRATEGIES:
            raise Unreadable(model.node.name, "the model_fn converts only to a Keras Model subclass "
                             "(TFM321), which this converter writes for a program without a strategy or "
                             "under a mirrored, multi-worker or TPU one: convert by hand")
        if kind.replicated and re.search(r"Reduction\.SUM\b", cst.Module([]).code_for_node(model.node)):
            raise Unreadable(model.node.name, "a loss reduced with Reduction.SUM under a strategy: TF1's optimizer "
                             "then summed the replicas' gradients unscaled, which the Keras Model subclass "
                             "(TFM321) does not write; convert by hand")
        defs = {**prog.defs, **(prog.closure.defs() if prog.closure is not None else {})}
    except Unreadable as problem:
        problem.code = problem.code or "TFM302"
        model.blockers.append(problem)
        return None
    try:
        outer = {name: read_optimizer(value, ctx) for name, (_, value) in prog.closure.optimizers(ctx).items()} \
            if prog.closure is not None else {}
        made = model_subclass.plan(model, ctx, defs, params_optimizer.given(prog.bound, prog.values), outer)
        if prog.closure is not None:
            prog.closure.applied = made.outer_optimizers  # made anew by build_model: out of the builder
        return made
    except Unreadable as problem:  # the default path's reason is the one to fix (the rest: it would keep them)
        _default_path_blockers(model, problem, ctx)
        return None


def _keep_true_blockers(prog, model, ctx) -> None:
    """A program blocked outside its model_fn (a replicate_model_fn switch, hooks of another module): when the
    model_fn itself converts on the default path, the idiomatic reader's findings on it are not what to fix, so they
    go."""
    try:
        if strategy.choose(prog, ctx) not in GENERAL_STRATEGIES:
            return
        defs = {**prog.defs, **(prog.closure.defs() if prog.closure is not None else {})}
        outer = {name: read_optimizer(value, ctx) for name, (_, value) in prog.closure.optimizers(ctx).items()} \
            if prog.closure is not None else {}
        model_subclass.plan(model, ctx, defs, params_optimizer.given(prog.bound, prog.values), outer)
    except Unreadable as problem:  # the default path's reason, with what no path keeps, as when nothing else blocks
        _default_path_blockers(model, problem, ctx)
        return
    model.blockers[:], model.forward_blockers[:] = [], []


def _default_path_blockers(model, problem, ctx) -> None:
    """The model_fn's findings when the default path does not take it either: its reason first, then what no path
    keeps (contrib, collections) and the idiomatic reader's findings of another code."""
    problem.code = problem.code or "TFM302"
    model.blockers[:] = [problem] + [p for p in [*model.blockers, *model.forward_blockers]
                                     if kept_statements.fatal(p.node, ctx) or p.code not in (None, "TFM302")]
    model.forward_blockers[:] = []


def _more_blockers(prog, ctx, original) -> None:
    """When the model blocks, still read the runs and hooks so that every blocking line is reported."""
    from tf2migrate.rules.estimator.writing import program_statements

    r = runs.Runs(keras_source.Writer(prog, ctx, original, StrategyKind.NONE))
    _name_params(r.w, prog, original)  # an input_fn(params) is read with the name it will be called with
    for i in prog.runs:
        try:
            program_statements.run_statements(original.body[i], original.body[i], r, r.w, ctx)
        except Unreadable as problem:
            prog.blockers.append(problem)
