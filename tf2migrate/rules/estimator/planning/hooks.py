"""Session hooks -> Keras callbacks (or step counts).

`StopAtStepHook` caps the number of steps: it becomes `steps_per_epoch`. `LoggingTensorHook` becomes a
`LambdaCallback` that prints the logs every N batches; tensor names other than the loss do not exist in
Keras, so a hook that logged them is said to log the loss and metrics instead (TFM323). The early-stopping hooks become `EarlyStopping` on the same evaluation
metric, evaluated where TF1 evaluated: after every checkpoint, i.e. at the end of every epoch of
`save_checkpoints_steps` steps. A user's own `SessionRunHook` is reported with the callback methods
its methods map to; it blocks the conversion, since its body reads graph tensors.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.planning import foreign_hooks, horovod
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind, literal

STOP = "tf.train.StopAtStepHook"
LOGGING = "tf.train.LoggingTensorHook"
CHECKPOINT = "tf.train.CheckpointSaverHook"
SUMMARY = "tf.train.SummarySaverHook"
CHECKPOINT_PARAMS = ("checkpoint_dir", "save_secs", "save_steps", "saver", "checkpoint_basename", "scaffold",
                     "listeners", "save_graph_def")
SUMMARY_PARAMS = ("save_steps", "save_secs", "output_dir", "summary_writer", "scaffold", "summary_op")
EARLY = {"tf.estimator.experimental.stop_if_no_decrease_hook": "min",
         "tf.estimator.experimental.stop_if_no_increase_hook": "max"}
HOOK_NAMES = {STOP, LOGGING, CHECKPOINT, SUMMARY, *EARLY}
EARLY_PARAMS = ("estimator", "metric_name", "max_steps_without_decrease", "eval_dir", "min_steps",
                "run_every_secs", "run_every_steps")
METHOD_MAP = {"begin": "on_train_begin", "after_create_session": "on_train_begin",
              "before_run": "on_train_batch_begin", "after_run": "on_train_batch_end", "end": "on_train_end"}


@dataclass
class Early:
    metric: cst.BaseExpression
    steps_without: cst.BaseExpression
    mode: str
    node: cst.CSTNode


@dataclass
class HookPlan:
    stop_steps: Optional[cst.BaseExpression] = None
    logging_every: list = field(default_factory=list)  # every_n_iter expressions
    early: Optional[Early] = None
    checkpoints: list = field(default_factory=list)  # (directory, basename or None, save_steps) expressions
    summaries: list = field(default_factory=list)  # (directory, save_steps) expressions
    notes: list = field(default_factory=list)

    def merged(self, other: "HookPlan") -> "HookPlan":
        """Both plans' hooks: the model_fn's `training_hooks` run with those passed to train()."""
        if other.stop_steps is not None or other.early is not None:
            raise Unreadable(other.early.node if other.early else other.stop_steps, "StopAtStepHook or early stopping in "
                             "training_hooks: pass it to train() or TrainSpec by hand")
        return HookPlan(self.stop_steps, self.logging_every + other.logging_every, self.early,
                        self.checkpoints + other.checkpoints, self.summaries + other.summaries,
                        self.notes + other.notes)


def read_hooks(expr, prog, ctx, local=None, tensors=frozenset()) -> HookPlan:
    """Raises Unreadable for a hook that does not convert. `local`: the model_fn's hooks by name (for its
    `training_hooks`), `tensors`: the names of its loss and global step, which Keras logs per batch."""
    plan = HookPlan()
    if expr is None:
        return plan
    hook_lists, named = (prog.hook_lists, prog.hooks) if local is None else ({}, local)
    if isinstance(expr, cst.Name) and expr.value in hook_lists:
        expr = hook_lists[expr.value]
    elif local is None and (foreign := foreign_hooks.read(expr, prog, ctx)) is not None:
        return foreign  # `train_hooks = hooks_helper.get_train_hooks(...)`, a module not read: TFM349
    if not isinstance(expr, (cst.List, cst.Tuple)):
        raise Unreadable(expr, "hooks that are not a list literal: convert by hand")
    for el in expr.elements:
        call = el.value
        if isinstance(call, cst.Name) and call.value in named:
            call = named[call.value]
        if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in prog.defs:
            raise Unreadable(el.value, custom_hook_message(prog.defs[call.func.value]), "TFM308")
        canonical = ctx.resolve(call.func)[1] if isinstance(call, cst.Call) else None
        if canonical == STOP:
            bound = bind(call, ("num_steps", "last_step"), canonical)
            plan.stop_steps = bound.get("num_steps", bound.get("last_step"))
            plan.notes.append((call, "TFM307", "StopAtStepHook became the step count of `fit`"))
        elif canonical == LOGGING:
            bound = bind(call, ("tensors", "every_n_iter", "every_n_secs", "at_end", "formatter"), canonical)
            if "every_n_iter" not in bound or set(bound) != {"tensors", "every_n_iter"}:
                raise Unreadable(call, "LoggingTensorHook with every_n_secs/at_end/formatter: log from a "
                                 "tf.keras.callbacks.Callback by hand")
            plan.logging_every.append(bound["every_n_iter"])
            if _only_loss(bound["tensors"], tensors):
                plan.notes.append((call, "TFM307", "LoggingTensorHook became a LambdaCallback printing the logs "
                                   "(Keras logs the running mean of the loss over the epoch)"))
            else:  # graph tensors by name do not exist in Keras: the periodic log stays, of what Keras logs
                plan.notes.append((call, "TFM323", None))
        elif canonical == CHECKPOINT:
            bound = bind(call, CHECKPOINT_PARAMS, canonical)
            if set(bound) - {"checkpoint_dir", "save_steps", "checkpoint_basename"} or "save_steps" not in bound:
                raise Unreadable(call, "CheckpointSaverHook with save_secs/saver/scaffold/listeners: use "
                                 "tf.keras.callbacks.ModelCheckpoint by hand")
            plan.checkpoints.append((bound["checkpoint_dir"], bound.get("checkpoint_basename"), bound["save_steps"]))
            plan.notes.append((call, "TFM307", "CheckpointSaverHook became a ModelCheckpoint callback (weights only)"))
        elif canonical == SUMMARY:
            bound = bind(call, SUMMARY_PARAMS, canonical)
            op = bound.get("summary_op")
            merge_all = isinstance(op, cst.Call) and ctx.resolve(op.func)[1] == "tf.summary.merge_all" and not op.args
            if set(bound) - {"save_steps", "output_dir", "summary_op"} or "save_steps" not in bound \
                    or "output_dir" not in bound or (op is not None and not merge_all):
                raise Unreadable(call, "SummarySaverHook other than save_steps/output_dir of every summary: use "
                                 "tf.keras.callbacks.TensorBoard by hand")
            plan.summaries.append((bound["output_dir"], bound["save_steps"]))
            plan.notes.append((call, "TFM307", "SummarySaverHook became a TensorBoard callback: it writes the loss "
                               "and metrics, not the model_fn's own tf.summary ops"))
        elif canonical in EARLY:
            bound = bind(call, EARLY_PARAMS, canonical)
            if set(bound) - {"estimator", "metric_name", "max_steps_without_decrease", "run_every_secs",
                             "run_every_steps", "min_steps"} or literal(bound.get("min_steps", cst.Integer("0"))) != 0:
                raise Unreadable(call, "early stopping with eval_dir or min_steps: use EarlyStopping by hand")
            plan.early = Early(bound["metric_name"], bound["max_steps_without_decrease"], EARLY[canonical], call)
        elif horovod.names(prog.values.get(call.value) if isinstance(call, cst.Name) else call, ctx,
                           "BroadcastGlobalVariablesHook"):
            raise Unreadable(el.value, horovod.HOOK)
        else:
            raise Unreadable(el.value, "this hook has no automatic Keras callback: write a "
                             "tf.keras.callbacks.Callback by hand")
    return plan


def _only_loss(tensors, names=frozenset()) -> bool:
    """Only the loss (by its graph name "loss", or a model_fn local in `names`): what Keras logs per batch."""
    if isinstance(tensors, (cst.List, cst.Tuple)):
        values = [e.value for e in tensors.elements]
    elif isinstance(tensors, cst.Dict):
        values = [e.value for e in tensors.elements if isinstance(e, cst.DictElement)]
    else:
        return False
    return all((isinstance(v, cst.SimpleString) and v.evaluated_value == "loss")
               or (isinstance(v, cst.Name) and v.value in names) for v in values)


def custom_hook_message(cls) -> str:
    if not isinstance(cls, cst.ClassDef):
        return "hook built by a function of this file: write a tf.keras.callbacks.Callback by hand"
    methods = [s.name.value for s in cls.body.body if isinstance(s, cst.FunctionDef)]
    mapped = ", ".join(f"{m} -> {METHOD_MAP[m]}" for m in methods if m in METHOD_MAP)
    return (f"custom SessionRunHook `{cls.name.value}`: rewrite it as a tf.keras.callbacks.Callback "
            f"({mapped or 'begin -> on_train_begin, after_run -> on_train_batch_end'}); graph tensors it reads "
            "are not available in Keras")
