"""`model_to_estimator(keras_model=model, ...)` -> the Keras model it wraps, trained with fit.

The Estimator TF1 made from a compiled Keras model trained a clone of it, started from the model's weights, with
the loss, metrics and optimizer of its `compile`. The conversion trains that Keras model itself: the Estimator's
statement goes, its runs become `fit`/`evaluate` of the model, and a TF1 optimizer given to `compile` (which no
Keras 3 model takes) becomes the Keras optimizer with TF1's numbers (optimizers.py). Under a strategy the model
must be made in its scope: there the clone is made as TF1 made it (same weights, the same `compile`), named as
the Estimator was. `experimental_distribute=DistributeConfig(train_distribute=S)` names the strategy as
`train_distribute=S` does (`lift_distribute_config`, for every Estimator).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.planning import optimizers
from tf2migrate.rules.estimator.planning.plan_types import ModelPath, ModelPlan, StrategyKind
from tf2migrate.rules.estimator.reading.uses import assignment, callee
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

MODEL_TO_ESTIMATOR = frozenset({"tf.keras.estimator.model_to_estimator", "tf.estimator.keras.model_to_estimator"})
PARAMS = ("keras_model", "keras_model_path", "custom_objects", "model_dir", "config", "checkpoint_format",
          "metric_names_map", "export_outputs")
SUPPORTED = {"keras_model", "model_dir", "config"}
COMPILE_PARAMS = ("optimizer", "loss", "metrics", "loss_weights", "weighted_metrics")
DISTRIBUTE_CONFIG = frozenset({"tf.contrib.distribute.DistributeConfig"})
CODE = "TFM333"


@dataclass
class KerasPlan(ModelPlan):
    path = ModelPath.KERAS
    node = chain = None  # no model_fn, no layer chain
    call: cst.Call
    model: Optional[str] = None  # the name of the compiled Keras model
    compile_call: Optional[cst.Call] = None
    compile_bound: dict = field(default_factory=dict)
    optimizer: Optional[optimizers.Optimizer] = None  # a TF1 optimizer given to compile
    optimizer_index: Optional[int] = None  # `opt = tf.train.X(...)`: the statement rewritten to the Keras one
    compile_index: Optional[int] = None
    blockers: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def is_model_to_estimator(value, ctx) -> bool:
    return callee(value, ctx) in MODEL_TO_ESTIMATOR if value is not None else False


def read(prog, module: cst.Module, ctx) -> KerasPlan:
    """The plan: the Keras model the call names and its one `compile` before the call; blockers when not so."""
    plan = KerasPlan(prog.call)
    for name, value in prog.bound.items():
        if name not in SUPPORTED:
            plan.blockers.append(Unreadable(value, f"`model_to_estimator({name}=...)`: train the Keras model by hand"))
    model = prog.bound.get("keras_model")
    if not isinstance(model, cst.Name):
        plan.blockers.append(Unreadable(model or prog.call, "model_to_estimator of something other than a name "
                                        "assigned a Keras model in this function: convert by hand"))
        return plan
    plan.model = model.value
    compiles = [(i, stmt.body[0].value) for i, stmt in enumerate(module.body[:prog.estimator])
                if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
                and isinstance(stmt.body[0], cst.Expr) and _is_compile(stmt.body[0].value, plan.model)]
    if len(compiles) != 1:
        plan.blockers.append(Unreadable(model, f"`{plan.model}` is not compiled exactly once before "
                                        "model_to_estimator in this function: convert by hand"))
        return plan
    plan.compile_index, plan.compile_call = compiles[0]
    try:
        plan.compile_bound = bind(plan.compile_call, COMPILE_PARAMS, "compile")
        _optimizer(plan, module, prog, ctx)
        if plan.optimizer is not None and plan.optimizer.needs_compat_class:
            raise Unreadable(plan.optimizer.node, "a TF1 RMSProp given to compile (its Keras form is a class of its "
                             "own, RMSpropTF1, which this conversion does not write): convert by hand")
    except Unreadable as problem:
        plan.blockers.append(problem)
    plan.notes.append((prog.call, CODE, None))
    return plan


def _is_compile(call, name) -> bool:
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "compile" \
        and isinstance(call.func.value, cst.Name) and call.func.value.value == name


def _optimizer(plan: KerasPlan, module, prog, ctx) -> None:
    """A TF1 optimizer in compile (inline, or a name assigned one just before): read as its Keras optimizer."""
    given = plan.compile_bound.get("optimizer")
    if given is None or isinstance(given, cst.SimpleString) or callee(given, ctx) is None:
        if isinstance(given, cst.Name):
            found = [(i, value) for i, stmt in enumerate(module.body[:plan.compile_index])
                     for name, value in [assignment(stmt)] if name == given.value]
            if len(found) == 1 and isinstance(found[0][1], cst.Call):
                read = optimizers.read_optimizer(found[0][1], ctx)
                if read is not None:
                    plan.optimizer, plan.optimizer_index = read, found[0][0]
                    return
            if found and callee(found[-1][1], ctx) in optimizers.TF1_OPTIMIZERS or not found:
                raise Unreadable(given, "an optimizer given to compile that is not assigned once in this function: "
                                 "convert by hand")
        return
    plan.optimizer = optimizers.read_optimizer(given, ctx)  # inline: None for a Keras optimizer, kept as written


def optimizer_statement(plan: KerasPlan, stmt, w) -> cst.SimpleStatementLine:
    """`opt = tf.train.X(...)` -> `opt = tf.keras.optimizers.X(...)` with TF1's numbers."""
    made = plan.optimizer.render(w.tf, w.text, w.text(plan.optimizer.learning_rate)
                                 if not isinstance(plan.optimizer.learning_rate, str) else plan.optimizer.learning_rate)
    assign = stmt.body[0]
    return stmt.with_changes(body=[assign.with_changes(value=made)])


def compile_statement(plan: KerasPlan, stmt, w) -> cst.SimpleStatementLine:
    """The user's compile with an inline TF1 optimizer: the Keras optimizer in its place."""
    if plan.optimizer is None or plan.optimizer_index is not None:
        return stmt
    made = templates.fitted("{call}", w, 1, call=_compile_call(plan, w, plan.model))  # (main's body: 1 deep)
    return made.with_changes(leading_lines=stmt.leading_lines)


def _compile_call(plan, w, target) -> cst.Call:
    args = []
    for key, value in plan.compile_bound.items():
        if key == "optimizer" and plan.optimizer is not None and plan.optimizer_index is None:
            lr = plan.optimizer.learning_rate
            value = plan.optimizer.render(w.tf, w.text, lr if isinstance(lr, str) else w.text(lr))
            args.append(templates.arg(value, key))
        else:
            args.append(templates.arg(w.text(value), key))
    return templates.call(f"{target}.compile", args)


def made(conv) -> list:
    """What the Estimator's statement becomes after the strategy: nothing without one (the runs use the model);
    under one, the clone made in its scope as TF1 made it, under the Estimator's name."""
    w, plan, kind = conv.writer, conv.model, conv.kind
    if kind is StrategyKind.NONE and not conv.prog.strategy_in_place:
        return []
    given = plan.compile_bound.get("optimizer")
    if isinstance(given, cst.Name) and plan.optimizer is None:
        raise Unreadable(given, "a Keras optimizer made outside the strategy's scope, which the model cloned in "
                         "that scope cannot take: make it in the scope by hand")
    if plan.optimizer is not None and plan.optimizer_index is not None:
        plan = _inline(plan)
    clone = templates.expression("{clone}({model})", w, clone=w.tf("tf.keras.models.clone_model"), model=plan.model)
    body = (f"with {{var}}.scope():\n{{i}}{w.model_var} = {{clone}}\n"
            f"{{i}}{w.model_var}.set_weights({plan.model}.get_weights())\n{{i}}pass")
    scope = templates.statement(body, w, var=w.strategy_var, clone=clone)
    compiled = templates.fitted("{call}", w, 2, call=_compile_call(plan, w, w.model_var))  # (main's body: 2 deep)
    return [scope.with_changes(body=scope.body.with_changes(body=[*scope.body.body[:-1], compiled]))]


def model_var(prog, kind) -> str:
    """The name the runs train: the model itself, or under a strategy its clone under the Estimator's name."""
    return prog.model.model if kind is StrategyKind.NONE and not prog.strategy_in_place else prog.var


def _inline(plan: KerasPlan) -> KerasPlan:
    """The plan with the optimizer rendered inline: a fresh one in the scope (Keras 2 optimizers keep the strategy
    they were made under)."""
    return replace(plan, optimizer_index=None)


def lift_distribute_config(prog, ctx) -> None:
    """`RunConfig(experimental_distribute=DistributeConfig(train_distribute=S, eval_distribute=E))`: S is the
    strategy, as `train_distribute=S`; Keras evaluates under it too (noted when E is another)."""
    given = prog.config.get("experimental_distribute")
    if not (isinstance(given, cst.Call) and callee(given, ctx) in DISTRIBUTE_CONFIG) or "train_distribute" in prog.config:
        return
    try:
        bound = bind(given, ("train_distribute", "eval_distribute", "remote_cluster"), "DistributeConfig")
    except Unreadable as problem:
        prog.blockers.append(problem)
        return
    if "remote_cluster" in bound:
        prog.blockers.append(Unreadable(bound["remote_cluster"], "DistributeConfig(remote_cluster=...): set TF_CONFIG "
                                        "for a multi-worker strategy by hand"))
        return
    config = {k: v for k, v in prog.config.items() if k != "experimental_distribute"}
    if "train_distribute" in bound:
        config["train_distribute"] = bound["train_distribute"]
    prog.config = config
    if "eval_distribute" in bound:  # dropped with a note (strategy.CONFIG_DROPPED): Keras evaluates under S
        config["eval_distribute"] = bound["eval_distribute"]


def kept(plan: KerasPlan, i: int, stmt, w):
    """The user's `opt = tf.train.X(...)` or `model.compile(...)` statement, with the Keras optimizer."""
    return optimizer_statement(plan, stmt, w) if i == plan.optimizer_index else compile_statement(plan, stmt, w)
