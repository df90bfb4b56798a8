"""What a model_fn returns and how it trains: its EstimatorSpec, `optimizer.minimize(loss)`, eval_metric_ops.

A mixin of model_fn_statements.py's reader, which holds the plan (`self.plan`), the context and what each local name
holds (`self.env`): the training step must minimize the model_fn's own loss (with its penalty, if one was
added) with a TF1 optimizer, whose learning rate may be a schedule; the EstimatorSpec's other parts become
the Keras metrics, the PREDICT function, the training hooks' callbacks, or a blocker saying why not.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import metric_fn
from tf2migrate.rules.estimator.planning.metrics import read_metric
from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.planning.schedules import read_schedule
from tf2migrate.rules.estimator.reading import optimize_loss, spec
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind


class SpecReader:
    def minimize(self, name, call) -> bool:
        func = call.func
        if optimize_loss.is_optimize_loss(call, self.ctx):  # minimize under UPDATE_OPS (reading/optimize_loss.py)
            return self._minimized(name, call, *optimize_loss.read(call, self.ctx, self._optimizer_named))
        if not (isinstance(func, cst.Attribute) and func.attr.value == "minimize"):
            return False
        held = self.env.get(func.value.value) if isinstance(func.value, cst.Name) else None
        if isinstance(func.value, cst.Call):  # tf1.train.AdamOptimizer(...).minimize(loss)
            opt = read_optimizer(func.value, self.ctx)
            held = ("optimizer", opt) if opt is not None else None
        if held is None or held[0] != "optimizer":
            raise Unreadable(call, "`minimize` on something not built from a TF1 optimizer: convert by hand")
        bound = bind(call, ("loss", "global_step", "var_list", "gate_gradients", "aggregation_method",
                            "colocate_gradients_with_ops", "name", "grad_loss"), "minimize")
        if set(bound) - {"loss", "global_step", "name"}:
            raise Unreadable(call, "`minimize` with var_list/gate_gradients/grad_loss: convert by hand")
        return self._minimized(name, call, held[1], bound["loss"], [])

    def _optimizer_named(self, name):
        held = self.env.get(name)
        return held[1] if held is not None and held[0] == "optimizer" else None

    def _minimized(self, name, call, opt, loss, notes) -> bool:
        """The train op `call` minimizes `loss` with `opt`: the plan's optimizer (and schedule)."""
        if self.env.get(getattr(loss, "value", None)) != ("loss",):
            raise Unreadable(call, "`minimize` of something other than the model_fn's loss: convert by hand")
        if self.plan.penalty is not None and loss.value != self.plan.penalized:
            raise Unreadable(call, "`minimize` of the loss without the penalty added to it: convert by hand")
        self.plan.notes.extend(notes)
        if isinstance(opt.learning_rate, cst.Name) and self.env.get(opt.learning_rate.value, ("",))[0] == "schedule":
            self.plan.schedule = self.env[opt.learning_rate.value][1]
        elif isinstance(opt.learning_rate, cst.Call):
            self.plan.schedule = read_schedule(opt.learning_rate, self.ctx, self.step_names)
        self.plan.optimizer = opt
        self.env[name] = ("train_op",)
        return True

    def spec_assigned(self, name, call: cst.Call) -> bool:
        """`spec = EstimatorSpec(...)`, then `return spec`: read where it is returned."""
        if self.ctx.resolve(call.func)[1] not in ("tf.estimator.EstimatorSpec", *spec.TPU_SPECS):
            return False
        if name in self.env:  # one per mode branch: `return spec` would read only the last one
            raise Unreadable(call, f"`{name}` is assigned an EstimatorSpec in several places: return each "
                             "EstimatorSpec where it is made, or convert by hand")
        self.env[name] = ("spec", call)
        return True

    def returned(self, ret: cst.Return) -> None:
        value = ret.value
        if isinstance(value, cst.Name) and self.env.get(value.value, ("",))[0] == "spec":
            value = self.env[value.value][1]
        returned = spec.estimator_spec(value, self.ctx)
        if returned is None:
            raise Unreadable(ret, "model_fn returns something other than an EstimatorSpec: convert by hand")
        for key in ("training_chief_hooks", "scaffold", "evaluation_hooks", "prediction_hooks"):
            if key in returned:
                raise Unreadable(returned[key], f"EstimatorSpec({key}=...): convert the Estimator by hand")
        if "training_hooks" in returned:  # read with the runs, where they become callbacks of `fit`
            self.plan.training_hooks = returned["training_hooks"]
        if "eval_metrics" in returned:
            pair = returned.pop("eval_metrics")
            if isinstance(pair, cst.Name) and self.env.get(pair.value, ("",))[0] == "eval_metrics":
                pair = self.env[pair.value][1]  # `eval_metrics = (metric_fn, [...])` above the return
            metric_fn.read(self, pair, self.defs)
        for key in spec.TPU_ONLY:
            if key in returned:
                raise Unreadable(returned[key], f"TPUEstimatorSpec({key}=...): {spec.TPU_ONLY[key]}")
        train_op = returned.get("train_op")
        if isinstance(train_op, cst.Call) and not self.minimize(None, train_op):  # train_op=optimizer.minimize(loss)
            raise Unreadable(train_op, "train_op that is not `optimizer.minimize(loss)`: convert by hand")
        if "export_outputs" in returned:
            self.plan.notes.append((returned["export_outputs"], "TFM318", "export_outputs dropped: the SavedModel "
                                    "model.save writes serves the model's output"))
        if "predictions" in returned:
            self.plan.predictions = returned["predictions"]
        if "eval_metric_ops" in returned:
            self.metrics(returned["eval_metric_ops"])

    def metrics(self, expr) -> None:
        if isinstance(expr, cst.Name) and self.env.get(expr.value, ("",))[0] == "metrics":
            expr = self.env[expr.value][1]
        if not isinstance(expr, cst.Dict):
            raise Unreadable(expr, "eval_metric_ops that is not a dict literal: convert by hand")
        self.plan.metrics = []
        for el in expr.elements:
            if not isinstance(el, cst.DictElement):
                raise Unreadable(el, "eval_metric_ops with ** unpacking: convert by hand")
            value = el.value
            if isinstance(value, cst.Name) and self.env.get(value.value, ("",))[0] == "metric":
                value = self.env[value.value][1]
            metric = read_metric(el.key, value, self.ctx, self.output_kind)
            if metric is not None:
                self.plan.metrics.append(metric)

    def output_kind(self, expr):
        if isinstance(expr, cst.Name) and self.env.get(expr.value) == ("loss",):
            return "loss"
        return self.plan.chain.kind_of(expr, self.ctx)
