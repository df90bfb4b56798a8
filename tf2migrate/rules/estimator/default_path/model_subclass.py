"""The general conversion of a model_fn: a `tf.keras.Model` subclass that keeps the model_fn's own code.

When the model_fn is not a chain of Keras layers with a Keras loss (model_fn.py) and its forward pass
cannot be cut off alone (kept_forward.py), its statements are still kept, split by what they compute: the
forward pass (from `features`, `params` and `mode == TRAIN`) goes to `call`, decorated with
`track_tf1_style_variables`; what each mode computes after it (the loss from `labels`, the metrics'
inputs, the PREDICT dict) goes to `train_step`, `test_step` and `predict_step` (the last two: mode_steps.py).
The mode branches are resolved per step (modes.py). The optimizer maps with TF1's numbers (optimizers.py); each
`tf1.metrics.*` becomes the Keras metric computing the same number from the same arguments.
Anything else raises Unreadable: the program is then reported and left as it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.default_path import kept_statements, setup_statements, gradients, tf1_style
from tf2migrate.rules.estimator.default_path import keras_once, made_once, mode_steps, mode_twins
from tf2migrate.rules.estimator.planning import horovod
from tf2migrate.rules.estimator.planning.plan_types import ModelPath, ModelPlan
from tf2migrate.rules.estimator.reading import modes
from tf2migrate.rules.estimator.shim_path import training_flag
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in

SUMMARY_DROPPED = "TF1 summary dropped (the steps write none): use tf.keras.callbacks.TensorBoard, or tf.summary in a callback"
SPEC_KEYS = {"mode", "predictions", "loss", "train_op", "eval_metric_ops", "training_hooks"}


@dataclass
class GeneralPlan(ModelPlan):
    path = ModelPath.GENERAL
    chain = None  # the model_fn's own statements, not a layer chain
    node: cst.FunctionDef  # the model_fn
    forward: list  # statements kept in `call`, in the model_fn's order (original nodes)
    outputs: list  # the names `call` returns: forward tensors the steps read
    train: list  # statements of train_step after the forward pass
    train_loss: cst.BaseExpression
    optimizer: object  # optimizers.Optimizer
    minimized: Optional[cst.Name] = None  # what `minimize` differentiates when it is not train_loss (the spec's)
    evaluate: Optional[list] = None  # statements of test_step (None: the model_fn has no EVAL spec)
    eval_loss: Optional[cst.BaseExpression] = None
    metrics: list = field(default_factory=list)  # metric_ops.GeneralMetric
    predict: Optional[list] = None  # statements of predict_step (None: no PREDICT dict)
    predict_output: Optional[cst.BaseExpression] = None
    uses_params: bool = False  # the model_fn takes params: the builder and the model's constructor get them
    training: bool = False  # the forward pass reads `mode == ModeKeys.TRAIN`: call's `training`
    gradients: list = field(default_factory=list)  # train_step's statements after the tape (gradients.py)
    applied: Optional[cst.BaseExpression] = None  # what the model_fn's apply_gradients applied
    optimizers: tuple = ()  # the model_fn's names of its optimizer, whose compute_gradients the tape replaces
    training_hooks: Optional[cst.BaseExpression] = None  # EstimatorSpec(training_hooks=...): callbacks of fit (hooks.py)
    hooks: dict = field(default_factory=dict)  # local name -> hook call, for training_hooks
    tensors: set = field(default_factory=set)  # local names Keras logs itself (the loss)
    notes: list = field(default_factory=list)  # (node, code, message) reported when the program converts
    keras_keys: list = field(default_factory=list)  # Keras layers made in the forward pass, made once (keras_once.py)
    tf1_forward: list = field(default_factory=list)  # what `call` still runs TF1-style (tf1_style.py, TFM336)
    tf1_steps: list = field(default_factory=list)  # what the steps still run TF1-style (the model_fn's loss)
    schedule: object = None
    twins: dict = field(default_factory=dict)  # id(EVAL/PREDICT statement) -> its forward twin (mode_twins.py)
    made_once: dict = field(default_factory=dict)  # id(forward statement) -> (name, Keras call) made in __init__
    outer_optimizers: frozenset = frozenset()  # names of optimizers made outside the model_fn that it applies
    name: str = "ModelFnModel"


def plan(model, ctx, defs=None, params=None, outer=None) -> GeneralPlan:
    """The general plan for a model_fn (`model`: its IdiomaticPlan; `defs`: the functions and classes it may call,
    by name: a helper runs under the shim too; `params`: the dict literal the Estimator is given, or None;
    `outer`: name -> Optimizer made outside the model_fn, by its builder); raises Unreadable with the reason."""
    defs = defs or {}
    fn = model.node
    dropped: list = []
    runs = _runs(fn, ctx, dropped)
    env = setup_statements.Env(ctx, defs, params, outer)
    for summary in {id(s): s for s in dropped}.values():  # the model_fn's own summaries: Keras writes none
        env.notes.append((summary, "TFM306", SUMMARY_DROPPED))
    result = _train(fn, runs["TRAIN"], env, ctx, defs)
    forward = {id(s) for s in result.forward}
    result.twins = {k: t for k, t in mode_twins.find(runs).items() if id(t) in forward}  # `training=True`/`False`
    mode_steps.evaluate(result, runs["EVAL"], env, ctx, defs)
    mode_steps.predict(result, runs["PREDICT"], env)
    _check_steps(result, env, ctx)
    result.outputs = _outputs(result)
    if not result.outputs:
        raise Unreadable(fn.name, "no tensor of the forward pass reaches the loss: convert by hand")
    helpers = {name for name, d in defs.items() if isinstance(d, cst.FunctionDef)}
    result.training = any(training_flag.uses(s, ctx) for s in result.forward) or bool(result.twins)
    result.notes = env.notes
    result.outer_optimizers = frozenset(env.outer_used)
    result.tf1_forward = tf1_style.parts(result.forward, ctx, helpers)
    result.tf1_steps = tf1_style.parts([*result.train, *(result.evaluate or []), *(result.predict or [])], ctx, helpers)
    base = fn.name.value
    result.name = ("_" if base.startswith("_") else "") + "".join(p.capitalize() for p in base.split("_") if p) + "Model"
    return result


def _runs(fn, ctx, dropped: list) -> dict:
    """mode -> (the statements the model_fn runs in it, the arguments of the spec it returns); the TF1 summaries
    left out go to `dropped`."""
    runs = {}
    for mode in modes.MODES:
        stmts, returned = modes.specialize(list(fn.body.body), mode, ctx, dropped=dropped)
        for key in set(returned or ()) - SPEC_KEYS - {"export_outputs"}:
            raise Unreadable(returned[key], f"EstimatorSpec({key}=...) in a model_fn converted to a Keras Model "
                             "subclass: convert by hand")
        runs[mode] = (stmts, returned or {})
    return runs


def _train(fn, run, env, ctx, defs) -> GeneralPlan:
    """The TRAIN run: the optimizer, the forward pass kept in `call`, the rest in train_step (its own gradient
    statements after the tape, gradients.py)."""
    train, spec_t = run
    if "loss" not in spec_t or "train_op" not in spec_t:
        raise Unreadable(fn.name, "the model_fn returns no loss and train_op in TRAIN mode: convert by hand")
    kept_t = env.kept(train)
    optimizer = env.optimizer(spec_t["train_op"], spec_t["loss"])
    lr = optimizer.learning_rate
    if isinstance(lr, cst.BaseExpression) and names_in(lr) & (set(kept_statements.bound_in(fn.body.body)) | {"features",
                                                                                                          "labels"}):
        raise Unreadable(lr, "a learning rate computed in the model_fn (a decay on the global step?) in a model_fn "
                         "converted to a Keras Model subclass: convert by hand")
    minimized = {env.minimized.value} if env.minimized is not None else set()
    forward, rest_t = kept_statements.split_forward(kept_t, names_in(spec_t["loss"]) | minimized, ctx)
    _no_setup_read(forward, env)  # first: a wrapped optimizer (`hvd.DistributedOptimizer(opt)`) is why it blocks
    taken = {p.name.value for p in fn.params.params}
    once = made_once.find(forward, ctx, defs, set(kept_statements.bound_in(fn.body.body)) | taken)
    result = GeneralPlan(fn, forward, [], rest_t, spec_t["loss"], optimizer, env.minimized)
    result.made_once = once
    result.keras_keys = keras_once.keys([s for s in forward if id(s) not in once], ctx, defs)  # `Dense(8)(x)`: TFM327
    if result.keras_keys and not ctx.allowed(fn, keras_once.CODE):
        raise Unreadable(fn.name, tf1_style.KERAS_MADE)
    if result.keras_keys:
        env.notes.append((fn.name, keras_once.CODE, None))
    if env.applied is not None:  # compute_gradients ... apply_gradients: kept after the tape (gradients.py)
        result.train, result.gradients = gradients.split(rest_t, spec_t["loss"], ctx, env.optimizers,
                                                         kept_statements.bound_in)
        result.applied = gradients.applied(env.applied)
        result.optimizers = tuple(env.optimizers)
    result.uses_params = any(p.name.value == "params" for p in fn.params.params)
    result.training_hooks, result.hooks = spec_t.get("training_hooks"), env.hooks
    result.tensors = {spec_t["loss"].value} if isinstance(spec_t["loss"], cst.Name) else set()
    return result


def _check_steps(result, env, ctx) -> None:
    """What the steps keep may not use what the conversion took out of the model_fn (setup_statements.py)."""
    for stmt in [*result.train, *result.gradients, *(result.evaluate or []), *(result.predict or [])]:
        kept_statements.check_step_statement(stmt, ctx)
    on_tape, gradient_ids = gradients.OnTape(ctx, "loss", env.optimizers), {id(g) for g in result.gradients}
    for stmt in [*result.forward, *result.train, *result.gradients, *(result.evaluate or []), *(result.predict or []),
                 *([result.applied] if result.applied is not None else [])]:
        _no_setup_read([stmt], env, stmt.visit(on_tape) if id(stmt) in gradient_ids else stmt)


def _outputs(result) -> list:
    """The forward pass's names the steps read: what `call` returns."""
    read = set()
    for node in [*result.train, *result.gradients, result.applied, *(result.evaluate or []), *(result.predict or []),
                 result.train_loss, result.eval_loss, result.predict_output,
                 *[a[1] if isinstance(a, tuple) else a for m in result.metrics for a in m.args]]:
        if node is not None:
            read |= names_in(node)
    return [name for name in kept_statements.bound_in(result.forward) if name in read]


def _no_setup_read(stmts, env, checked=None) -> None:
    for stmt in stmts:
        if horovod.wrapped_optimizer(stmt, env.ctx):
            raise Unreadable(stmt, horovod.OPTIMIZER)
        name = env.setup_read(checked if checked is not None else stmt)
        if name is not None:
            raise Unreadable(stmt, f"reads `{name}`, which the conversion takes out of the model_fn (the optimizer "
                             "and train op become the Keras optimizer applied in train_step, the global step its "
                             "iterations, UPDATE_OPS what Keras layers do themselves): convert this statement by hand")
