"""`train_and_evaluate` and `estimator.train/evaluate/predict` -> `model.fit/evaluate/predict`.

Step counts are kept: `TrainSpec(max_steps=N)`, `train(steps=N)` and `StopAtStepHook` become
`steps_per_epoch=N` of one epoch; `EvalSpec(steps=M)` becomes `evaluate(steps=M)`, and its default of 100
steps is written out when the input repeats (Keras would otherwise evaluate forever). With early
stopping, TF1 evaluated after every checkpoint, so training is split into epochs of
`save_checkpoints_steps` steps with `validation_data`. Under ParameterServerStrategy `fit` needs a
step count: a one-pass input gets `len(dataset)`. What TF1 did around training (hooks, model_dir's
checkpoints) becomes the `callbacks=[...]` of `fit`, written by callbacks.py. The Estimator's calls are read and
bound in estimator_calls.py.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.engine.imports import dotted
from tf2migrate.rules.estimator.planning import callbacks, hooks
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.program import built_elsewhere
from tf2migrate.rules.estimator.reading import undefined_input
from tf2migrate.rules.estimator.reading.uses import input_fn_name
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, literal
from tf2migrate.rules.estimator.syntax.kept_source import names_in
from tf2migrate.rules.estimator.writing import input_modules
from tf2migrate.rules.estimator.writing.estimator_calls import EstimatorCalls


# values that are data, never an input function: `predict(X_test)` given an array (Hands-On ML's misuse)
NOT_CALLABLE = (cst.BinaryOperation, cst.UnaryOperation, cst.List, cst.Tuple, cst.Dict, cst.Set, cst.ListComp,
                cst.DictComp, cst.SetComp, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.Integer,
                cst.Float)


def takes_params(fn) -> bool:
    """An input function whose one required parameter is `params`, or whose `params={}` has a default (the
    Estimator passes its params to an input function with a parameter of that name all the same)."""
    if not isinstance(fn, cst.FunctionDef):
        return False
    required = [p.name.value for p in fn.params.params if p.default is None]
    named = [p.name.value for p in fn.params.params]
    return (required == ["params"] or not required and "params" in named) and not fn.params.kwonly_params \
        and fn.params.star_kwarg is None


def takes_context(fn) -> bool:
    """An input function whose one parameter is `input_context`: TF1's strategies passed each replica's
    `tf.distribute.InputContext` by that name, as `strategy.distribute_datasets_from_function` does."""
    return isinstance(fn, cst.FunctionDef) and [p.name.value for p in fn.params.params] == ["input_context"] \
        and not fn.params.kwonly_params and fn.params.star_kwarg is None and fn.params.star_arg is cst.MaybeSentinel.DEFAULT


def params_taken(module, prog) -> bool:
    """Whether the name `params` is used at the top level of the (flat) module, outside functions and classes."""
    for stmt in module.body:
        if not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and "params" in names_in(stmt):
            return True
    return False


class Runs(EstimatorCalls):
    """The statements that train, evaluate and predict (the Estimator's calls that ask for them: EstimatorCalls)."""

    def __init__(self, writer) -> None:
        self.w = writer
        self.prog, self.ctx = writer.prog, writer.ctx
        self.notes: list = []

    def dataset(self, input_fn, evaluation=False) -> templates.Hole:
        """The dataset the input function gives: the function called (a lambda's body)."""
        if isinstance(input_fn, cst.Name):
            fn = self.prog.defs.get(input_fn.value)
            if takes_params(fn):  # the Estimator passed its params (TPUEstimator: with the batch size)
                params, t = self.w.params_var, self.prog.tpu
                if evaluation and t is not None and t.eval_batch_size is not None \
                        and source(t.eval_batch_size) != source(t.train_batch_size or cst.Name("None")):
                    params = templates.expression("dict({params}, batch_size={size})", self.w, params=params,
                                                  size=self.w.text(t.eval_batch_size))
                return templates.call(input_fn.value, [params])
            if takes_context(fn):  # the TF1 strategy passed each replica's InputContext, as Keras's does here
                if not self.w.per_replica_input:
                    raise Unreadable(input_fn, "input_fn(input_context) without a TF1 strategy that feeds each replica "
                                     "(RunConfig(train_distribute=...)), which alone passes it: convert by hand")
                return templates.expression("{s}.distribute_datasets_from_function({fn})", self.w, s=self.w.strategy_var,
                                            fn=input_fn.value)
            if isinstance(fn, cst.FunctionDef) and any(p.default is None for p in fn.params.params):
                raise Unreadable(input_fn, "input_fn with parameters other than params (config/mode): convert by hand")
            if fn is None and isinstance(self.prog.values.get(input_fn.value), NOT_CALLABLE):
                raise Unreadable(input_fn, f"`{input_fn.value}` is given as the input function, but it is assigned "
                                 f"data (`{source(self.prog.values[input_fn.value])}`), not a function: the "
                                 "Estimator would call it only once its results are read (TypeError: not "
                                 "callable), Keras at once; give an input function (numpy_input_fn(x=...))")
            self._foreign(input_fn if fn is None else None, input_fn)
            return templates.call(input_fn.value, [])
        if isinstance(input_fn, cst.Lambda) and not input_fn.params.params:
            self._foreign(input_fn.body.func if isinstance(input_fn.body, cst.Call) else None, input_fn)
            return self.w.text(input_fn.body)
        if isinstance(input_fn, cst.Call) and isinstance(self.prog.defs.get(input_fn_name(input_fn)), cst.FunctionDef):
            return templates.call(self.w.text(input_fn), [])  # make_input_fn(...) returns the input function
        if (undefined := undefined_input.why(self.ctx, input_fn)) is not None:
            raise Unreadable(input_fn, undefined)
        raise Unreadable(input_fn, "input_fn that is not a function name, a lambda or a call of a function of this "
                         "file that makes one: convert by hand")

    def _foreign(self, func, place) -> None:
        """TFM331 when the input function is imported from a module this conversion does not read (TF's
        iris_data.py): Keras iterates what it returns, which the Estimator's own form (`...get_next()`) is not."""
        name = dotted(func) if func is not None else None
        binding = self.ctx.imports.bindings.get(name.partition(".")[0]) if name else None
        if binding is None or binding.assigned or self.ctx.resolve(func)[1] is not None:
            return
        found = input_modules.owner_of(self.ctx, func)  # given with this module: read there
        if found is not None:
            why = input_modules.blocker(self.ctx, *found, name)
            if why is not None:
                raise Unreadable(place, why)
            if input_modules.iterates(found[1]):
                self.notes.append((place, input_modules.CODE, f"`{name}` returns its dataset in "
                                   f"{built_elsewhere.shown(self.ctx, found[0].path)}, rewritten with this program "
                                   "(it returned an iterator's tensors, which Keras would read as one batch)"))
            return
        self.notes.append((place, "TFM331", f"`{name}` comes from another module, which this conversion does not "
                           "read: Keras iterates what it returns, so it must return its tf.data.Dataset; if it "
                           "returns an iterator's tensors (`...make_one_shot_iterator().get_next()`), Keras gets "
                           "one batch: return the dataset there"))

    def repeats(self, input_fn) -> bool:
        name = input_fn_name(input_fn)
        node = self.prog.defs.get(name) if name is not None else input_fn
        return node is None or ".repeat(" in source(node)

    def fit(self, input_fn, steps, plan: hooks.HookPlan, eval_fn=None, eval_steps=None) -> list:
        """The statements that train; with early stopping the evaluation is part of `fit`."""
        ds, out = self.dataset(input_fn), []
        model = self.prog.model
        if model is not None and model.training_hooks is not None:
            plan = plan.merged(hooks.read_hooks(model.training_hooks, self.prog, self.ctx, model.hooks, model.tensors))
            self.notes.extend(n for n in plan.notes if n not in self.notes)
        if plan.stop_steps is not None:
            if steps is not None and source(steps) != source(plan.stop_steps):
                raise Unreadable(plan.stop_steps, "StopAtStepHook and max_steps disagree: keep one of them")
            steps = plan.stop_steps
        epochs, patience = None, None
        if plan.early is not None:
            every = self.prog.config.get("save_checkpoints_steps")
            n, k = literal(steps), literal(every)
            if not (isinstance(n, int) and isinstance(k, int) and k > 0 and n % k == 0):
                raise Unreadable(plan.early.node, "early stopping needs TrainSpec(max_steps=N) and "
                                 "RunConfig(save_checkpoints_steps=K) literals with N % K == 0")
            without = literal(plan.early.steps_without)
            patience = -(-without // k) if isinstance(without, int) else 1
            epochs, steps = n // k, every
        w, steps = self.w, self.w.text(steps) if steps is not None else None
        if steps is None and w.kind is StrategyKind.PARAMETER_SERVER:
            # Every TF1 training task (chief and workers) read the whole input once; the TF2 workers are
            # those tasks. The coordinator hands steps to any worker, so no worker may run out of input.
            name = w.fresh("train_dataset")
            out.append(templates.statement("{name} = {dataset}", w, name=name, dataset=ds))
            ds = templates.expression("{name}.repeat()", w, name=name)
            steps = templates.expression('len({name}) * {r}.cluster_spec().num_tasks("worker")', w, name=name,
                                         r=w.resolver_var)
        if w.per_replica_input and not takes_context(self.prog.defs.get(input_fn_name(input_fn) or "")):
            # TF1 gave every replica its own batch: a step takes one per replica
            if steps is None:
                steps = templates.expression("len({dataset}) // {s}.num_replicas_in_sync", w, dataset=ds,
                                             s=w.strategy_var)
            ds = templates.expression("{s}.distribute_datasets_from_function(lambda _: {dataset})", w, dataset=ds,
                                      s=w.strategy_var)
            if self.prog.strategy_expr is not None:
                self.notes.append((self.prog.strategy_expr, "TFM309", "each replica gets its own batch from the "
                                   "input function, as under the TF1 strategy: a step takes one batch per replica"))
        args = [templates.arg(ds)] + ([templates.arg(str(epochs), "epochs")] if epochs else []) + (
            [templates.arg(steps, "steps_per_epoch")] if steps is not None else [])
        if plan.early is not None:
            args.append(templates.arg(self.dataset(eval_fn, evaluation=True), "validation_data"))
            if eval_steps is not None:
                args.append(templates.arg(w.text(eval_steps), "validation_steps"))
        listed = callbacks.argument(w, self.prog, plan, self.notes, patience)
        args += [listed] if listed is not None else []
        if plan.early is not None:
            self.notes.append((plan.early.node, "TFM316", None))
        out.append(templates.fitted("{call}", w, call=templates.call(f"{w.model_var}.fit", args)))
        return out

    def evaluate(self, input_fn, steps) -> list:
        """The `evaluate` call; under ParameterServerStrategy a one-pass input is named first (two statements)."""
        w, out = self.w, []
        ds, steps = self.dataset(input_fn, evaluation=True), w.text(steps) if steps is not None else None
        if w.per_replica_input and "eval_distribute" in self.prog.config \
                and not takes_context(self.prog.defs.get(input_fn_name(input_fn) or "")):
            # RunConfig(eval_distribute=...): TF1 gave every replica its own batch in evaluate too
            ds = templates.expression("{s}.distribute_datasets_from_function(lambda _: {dataset})", w, dataset=ds,
                                      s=w.strategy_var)
        if steps is None and w.kind is StrategyKind.PARAMETER_SERVER:
            name = w.fresh("eval_dataset")
            out.append(templates.statement("{name} = {dataset}", w, name=name, dataset=ds))
            ds, steps = name, templates.expression("len({name})", w, name=name)
        args = [templates.arg(ds)] + ([templates.arg(steps, "steps")] if steps is not None else [])
        made = templates.call(f"{w.model_var}.evaluate", args + [templates.arg("True", "return_dict")])
        return out + [templates.statement("{call}", w, call=made)]
