"""The Estimator's own calls read and bound (`train_and_evaluate(estimator, train_spec, eval_spec)`, its result
kept, `estimator.train/evaluate/predict/export_*`), each turned into the statements that replace it: the specs'
inputs, steps, hooks and exporters go to `Runs.fit`/`Runs.evaluate` (runs.py), which this class is mixed into.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import exporters, hooks
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.program.parts import SPEC_PARAMS
from tf2migrate.rules.estimator.reading.uses import EXPORTS, METHODS, method_of
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind


class EstimatorCalls:
    """Mixed into `runs.Runs`: uses its `fit`, `evaluate`, `dataset`, `repeats`, `w`, `prog`, `ctx`, `notes`."""

    def train_and_evaluate(self, call: cst.Call) -> list:
        bound = bind(call, ("estimator", "train_spec", "eval_spec"), "train_and_evaluate")
        specs = {}
        for key in ("train_spec", "eval_spec"):
            v = bound.get(key)
            wanted = "tf.estimator.TrainSpec" if key == "train_spec" else "tf.estimator.EvalSpec"
            if isinstance(v, cst.Call) and self.ctx.resolve(v.func)[1] == wanted:  # written inline
                specs[key] = bind(v, SPEC_PARAMS[wanted], wanted)
                continue
            if not (isinstance(v, cst.Name) and v.value in self.prog.specs):
                raise Unreadable(v or call, f"{key} that is not a TrainSpec/EvalSpec assigned in this file or "
                                 "written in the call")
            specs[key] = self.prog.specs[v.value][1]
        t, e = specs["train_spec"], specs["eval_spec"]
        if "hooks" in e:
            raise Unreadable(e["hooks"], "EvalSpec(hooks=...): convert by hand")
        saves = exporters.read(e["exporters"], self.prog, self.ctx) if "exporters" in e else []
        if "saving_listeners" in t:
            raise Unreadable(t["saving_listeners"], "TrainSpec(saving_listeners=...): convert by hand")
        plan = hooks.read_hooks(t.get("hooks"), self.prog, self.ctx)
        self.notes.extend(plan.notes)
        eval_steps = e.get("steps")
        if eval_steps is None and self.repeats(e["input_fn"]):
            eval_steps = "100"
        out = self.fit(t["input_fn"], t.get("max_steps"), plan, e["input_fn"], eval_steps)
        if plan.early is None:
            out += self.evaluate(e["input_fn"], eval_steps)
        if saves:  # TF1 exported after the last evaluation
            more, notes = exporters.save_lines(saves, self.w, self.prog.config.get(
                "model_dir", self.prog.bound.get("model_dir")))
            out += more
            self.notes += notes
        return out

    def train_and_evaluate_result(self, call: cst.Call) -> list:
        """The statements of a `train_and_evaluate` whose result the program keeps, the last one an expression
        statement of that result: TF1 returned `(evaluate's metrics dict, the exporters' results)` when it ran
        locally, `(model.evaluate(..., return_dict=True), [])` with no exporter."""
        *out, last = self.train_and_evaluate(call)  # (its specs are read there: assigned in this file)
        spec = self.prog.specs[bind(call, ("estimator", "train_spec", "eval_spec"), "")["eval_spec"].value][1]
        evaluate = last.body[0].value if isinstance(last, cst.SimpleStatementLine) and isinstance(
            last.body[0], cst.Expr) and isinstance(last.body[0].value, cst.Call) else None
        if "exporters" in spec or self.prog.cluster is not None \
                or self.w.kind in (StrategyKind.PARAMETER_SERVER, StrategyKind.MULTI_WORKER) or evaluate is None \
                or method_of(evaluate, self.w.model_var) != "evaluate":
            raise Unreadable(call, "the result of train_and_evaluate (its evaluation and export results; undefined "
                             "when distributed) has no Keras counterpart here: call it on its own line and read "
                             "model.evaluate(...)'s dict by hand")
        return out + [templates.statement("({evaluate}, [])", self.w, evaluate=evaluate)]

    def method(self, call: cst.Call) -> list:
        """The statements replacing `estimator.<method>(...)`: the last one is the expression that replaces it."""
        name = call.func.attr.value
        bound = bind(call, METHODS[name], name)
        if name in EXPORTS:
            made, notes = exporters.export_call(bound, self.w, call)
            self.notes += notes
            return [made]
        unknown = set(bound) - {"input_fn", "steps", "max_steps", "hooks"}
        if unknown:
            raise Unreadable(bound[sorted(unknown)[0]], f"estimator.{name}({sorted(unknown)[0]}=...): convert by hand")
        if name == "train":
            if "steps" in bound and "max_steps" in bound:
                raise Unreadable(call, "train() with both steps and max_steps")
            if "max_steps" in bound and self.prog.train_calls > 1:
                raise Unreadable(bound["max_steps"], "max_steps counts from the start of all training, and this "
                                 "program trains more than once: use steps= (what each fit call runs)")
            plan = hooks.read_hooks(bound.get("hooks"), self.prog, self.ctx)
            if plan.early is not None:
                raise Unreadable(plan.early.node, "early stopping in estimator.train(): use EarlyStopping by hand")
            self.notes.extend(plan.notes)
            return self.fit(bound["input_fn"], bound.get("steps", bound.get("max_steps")), plan)
        if "hooks" in bound:
            raise Unreadable(bound["hooks"], f"estimator.{name}(hooks=...): convert by hand")
        if name == "evaluate":
            return self.evaluate(bound["input_fn"], bound.get("steps"))
        predict = templates.call(f"{self.w.model_var}.predict", [self.dataset(bound["input_fn"])])
        if self.w.steps_per_execution:  # Keras must be told the steps: prediction_source.PREDICT_ALL counts them
            predict = templates.call(self.w.predict_all_name, [self.w.model_var, self.dataset(bound["input_fn"])])
        if self.w.predictions_function():  # the PREDICT output from the model's (the general path's predict_step)
            predict = templates.expression("{predictions}({predict})", self.w, predict=predict,
                                           predictions=self.w.pred_name)
        self.notes.append((call, "TFM314", f"predict yields one prediction per example: {self.w.examples_name} "
                           "unbatches model.predict's batch, with NumPy values"))
        predict = templates.expression("{examples}({predict})", self.w, predict=predict, examples=self.w.examples_name)
        return [templates.statement("{call}", self.w, call=predict)]
