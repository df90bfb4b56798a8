"""`train_and_evaluate` and `estimator.train/evaluate/predict` -> `model.fit/evaluate/predict`.

Step counts are kept: `TrainSpec(max_steps=N)`, `train(steps=N)` and `StopAtStepHook` become
`steps_per_epoch=N` of one epoch; `EvalSpec(steps=M)` becomes `evaluate(steps=M)`, and its default of 100
steps is written out when the input repeats (Keras would otherwise evaluate forever). With early
stopping, TF1 evaluated after every checkpoint, so training is split into epochs of
`save_checkpoints_steps` steps with `validation_data`. Under ParameterServerStrategy `fit` needs a
step count: a one-pass input gets `len(dataset)`.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator import exporters, hooks
from tf2migrate.rules.estimator.args import Unreadable, bind, literal
from tf2migrate.rules.estimator.plans import StrategyKind
from tf2migrate.rules.estimator.render import names_in
from tf2migrate.rules.estimator.uses import EXPORTS, METHODS, input_fn_name


def takes_params(fn) -> bool:
    """An input function whose one required parameter is `params`."""
    if not isinstance(fn, cst.FunctionDef):
        return False
    required = [p.name.value for p in fn.params.params if p.default is None]
    return required == ["params"] and not fn.params.kwonly_params and fn.params.star_kwarg is None


def params_taken(module, prog) -> bool:
    """Whether the name `params` is used at the top level of the (flat) module, outside functions and classes."""
    for stmt in module.body:
        if not isinstance(stmt, (cst.FunctionDef, cst.ClassDef)) and "params" in names_in(stmt):
            return True
    return False


class Runs:
    def __init__(self, writer) -> None:
        self.w = writer
        self.prog, self.ctx = writer.prog, writer.ctx
        self.notes: list = []

    def dataset(self, input_fn, evaluation=False) -> str:
        if isinstance(input_fn, cst.Name):
            fn = self.prog.defs.get(input_fn.value)
            if takes_params(fn):  # the Estimator passed its params (TPUEstimator: with the batch size)
                params, t = self.w.params_var, self.prog.tpu
                if evaluation and t is not None and t.eval_batch_size is not None \
                        and source(t.eval_batch_size) != source(t.train_batch_size or cst.Name("None")):
                    params = f"dict({params}, batch_size={self.w.text(t.eval_batch_size)})"
                return f"{input_fn.value}({params})"
            if isinstance(fn, cst.FunctionDef) and any(p.default is None for p in fn.params.params):
                raise Unreadable(input_fn, "input_fn with parameters other than params (config/mode): convert by hand")
            return f"{input_fn.value}()"
        if isinstance(input_fn, cst.Lambda) and not input_fn.params.params:
            return self.w.text(input_fn.body)
        if isinstance(input_fn, cst.Call) and isinstance(self.prog.defs.get(input_fn_name(input_fn)), cst.FunctionDef):
            return f"{self.w.text(input_fn)}()"  # make_input_fn(...) returns the input function: call it
        raise Unreadable(input_fn, "input_fn that is not a function name, a lambda or a call of a function of this "
                         "file that makes one: convert by hand")

    def repeats(self, input_fn) -> bool:
        name = input_fn_name(input_fn)
        node = self.prog.defs.get(name) if name is not None else input_fn
        return node is None or ".repeat(" in source(node)

    def callbacks(self, plan: hooks.HookPlan, patience=None) -> list:
        """`patience`: in evaluations, for the EarlyStopping of a plan that has one."""
        tf, out = self.w.tf, []
        for every in plan.logging_every:
            out.append(f"{tf('tf.keras.callbacks.LambdaCallback')}(\n{self.w.indent * 3}on_train_batch_end="
                       f"lambda batch, logs: print(batch, logs) if batch % {self.w.text(every)} == 0 else None)")
        if plan.early is not None:
            e = plan.early
            metric = literal(e.metric)
            if not isinstance(metric, str):
                raise Unreadable(e.metric, "early stopping on a metric name that is not a string literal")
            out.append(f"{tf('tf.keras.callbacks.EarlyStopping')}(monitor={('val_' + metric)!r}, "
                       f"patience={patience}, mode={e.mode!r})".replace("'", '"'))
        for directory, basename, every in plan.checkpoints:
            name = self._weights_file(basename)
            path = f"{tf('tf.io.gfile.join')}({self.w.text(directory)}, {name})"
            out.append(self._in_list(tf("tf.keras.callbacks.ModelCheckpoint"),
                                     [path, "save_weights_only=True", f"save_freq={self.w.text(every)}"]))
        for directory, every in plan.summaries:
            out.append(self._in_list(tf("tf.keras.callbacks.TensorBoard"),
                                     [self.w.text(directory), f"update_freq={self.w.text(every)}"]))
        model_dir = self.prog.config.get("model_dir", self.prog.bound.get("model_dir"))
        if model_dir is not None and not (isinstance(model_dir, cst.Name) and model_dir.value == "None"):
            freq = self.prog.config.get("save_checkpoints_steps")
            path = f"{tf('tf.io.gfile.join')}({self.w.text(model_dir)}, {self._weights_file(None)})"
            checkpoint = self._in_list(tf("tf.keras.callbacks.ModelCheckpoint"), [path, "save_weights_only=True"] + (
                [f"save_freq={self.w.text(freq)}"] if freq is not None else []))
            maybe_none = _may_be_none(model_dir)
            out.append(f"*([{checkpoint}] if {self.w.text(model_dir)} is not None else [])" if maybe_none else checkpoint)
            self.notes.append((model_dir, "TFM315", "model_dir became a ModelCheckpoint callback; Keras does not "
                               "resume from it the way an Estimator did" + (
                                   " (no callback when model_dir is None: the Estimator then wrote its checkpoints "
                                   "to a temporary folder that nothing read again)" if maybe_none else "")))
        return out

    def _weights_file(self, basename) -> str:
        """The file ModelCheckpoint(save_weights_only=True) writes: Keras 3 takes only `*.weights.h5` (which
        Keras 2 writes too, as HDF5); tf-keras keeps TF1's checkpoint name."""
        if self.w.target != "keras3":
            return self.w.text(basename) if basename is not None else '"model.ckpt"'
        if basename is None:
            return '"model.weights.h5"'
        if isinstance(basename, cst.SimpleString) and "\\" not in basename.value:
            stem = basename.evaluated_value
            stem = stem[:-len(".ckpt")] if stem.endswith(".ckpt") else stem
            return f'"{stem}.weights.h5"'
        return f'{self.w.text(basename)} + ".weights.h5"'

    def _in_list(self, func: str, args: list) -> str:
        """A callback call as an item of the `callbacks=[...]` list of `fit` (two levels in), wrapped at 100."""
        i, one = self.w.indent, f"{func}({', '.join(args)})"
        if len(i * 2 + one) < 100:
            return one
        return f"{func}(\n" + "".join(f"{i * 3}{a},\n" for a in args) + f"{i * 2})"

    def fit(self, input_fn, steps, plan: hooks.HookPlan, eval_fn=None, eval_steps=None) -> list:
        """Statements (source) for training; with early stopping the evaluation is part of `fit`."""
        m, lines = self.w.model_var, []
        ds = self.dataset(input_fn)
        model = self.prog.model
        if model is not None and model.training_hooks is not None:
            plan = plan.merged(hooks.read_hooks(model.training_hooks, self.prog, self.ctx, model.hooks, model.tensors))
            self.notes.extend(n for n in plan.notes if n not in self.notes)
        if plan.stop_steps is not None:
            if steps is not None and source(steps) != source(plan.stop_steps):
                raise Unreadable(plan.stop_steps, "StopAtStepHook and max_steps disagree: keep one of them")
            steps = plan.stop_steps
        args, epochs, patience = [], None, None
        if plan.early is not None:
            every = self.prog.config.get("save_checkpoints_steps")
            n, k = literal(steps), literal(every)
            if not (isinstance(n, int) and isinstance(k, int) and k > 0 and n % k == 0):
                raise Unreadable(plan.early.node, "early stopping needs TrainSpec(max_steps=N) and "
                                 "RunConfig(save_checkpoints_steps=K) literals with N % K == 0")
            without = literal(plan.early.steps_without)
            patience = -(-without // k) if isinstance(without, int) else 1
            epochs, steps = n // k, every
        if steps is None and self.w.kind is StrategyKind.PARAMETER_SERVER:
            # Every TF1 training task (chief and workers) read the whole input once; the TF2 workers are
            # those tasks. The coordinator hands steps to any worker, so no worker may run out of input.
            name = self.w.fresh("train_dataset")
            lines.append(f"{name} = {ds}")
            workers = f'{self.w.resolver_var}.cluster_spec().num_tasks("worker")'
            ds, steps = f"{name}.repeat()", f"len({name}) * {workers}"
        if self.w.per_replica_input:  # TF1 gave every replica its own batch: a step takes one per replica
            var = self.w.strategy_var
            if steps is None:
                steps = f"len({ds}) // {var}.num_replicas_in_sync"
            ds = f"{var}.distribute_datasets_from_function(lambda _: {ds})"
            if self.prog.strategy_expr is not None:
                self.notes.append((self.prog.strategy_expr, "TFM309", "each replica gets its own batch from the "
                                   "input function, as under the TF1 strategy: a step takes one batch per replica"))
        args.append(ds)
        if epochs:
            args.append(f"epochs={epochs}")
        if steps is not None:
            args.append(f"steps_per_epoch={self.w.text(steps)}")
        if plan.early is not None:
            args.append(f"validation_data={self.dataset(eval_fn, evaluation=True)}")
            if eval_steps is not None:
                args.append(f"validation_steps={self.w.text(eval_steps)}")
        cbs = self.callbacks(plan, patience)
        one = f"callbacks=[{', '.join(cbs)}]"
        if cbs and ("\n" in one or len(one) > 92):
            i = self.w.indent
            args.append("callbacks=[\n" + "".join(f"{i}{i}{cb},\n" for cb in cbs) + f"{i}]")
        elif cbs:
            args.append(one)
        if plan.early is not None:
            self.notes.append((plan.early.node, "TFM316", None))
        lines.append(self.w.call(f"{m}.fit", args))
        return lines

    def evaluate(self, input_fn, steps) -> str:
        """The `evaluate` call; under ParameterServerStrategy a one-pass input is named first (two lines)."""
        ds, prelude = self.dataset(input_fn, evaluation=True), ""
        if steps is None and self.w.kind is StrategyKind.PARAMETER_SERVER:
            name = self.w.fresh("eval_dataset")
            prelude, ds, steps = f"{name} = {ds}\n", name, f"len({name})"
        args = [ds] + ([f"steps={self.w.text(steps)}"] if steps is not None else [])
        return prelude + f"{self.w.model_var}.evaluate({', '.join(args + ['return_dict=True'])})"

    def train_and_evaluate(self, call: cst.Call) -> list:
        bound = bind(call, ("estimator", "train_spec", "eval_spec"), "train_and_evaluate")
        specs = {}
        for key in ("train_spec", "eval_spec"):
            v = bound.get(key)
            if not (isinstance(v, cst.Name) and v.value in self.prog.specs):
                raise Unreadable(v or call, f"{key} that is not a TrainSpec/EvalSpec assigned in this file")
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
        lines = self.fit(t["input_fn"], t.get("max_steps"), plan, e["input_fn"], eval_steps)
        if plan.early is None:
            lines.append(self.evaluate(e["input_fn"], eval_steps))
        if saves:  # TF1 exported after the last evaluation
            more, notes = exporters.save_lines(saves, self.w, self.prog.config.get(
                "model_dir", self.prog.bound.get("model_dir")))
            lines += more
            self.notes += notes
        return lines

    def method(self, call: cst.Call) -> str:
        """The expression replacing `estimator.<method>(...)`."""
        name = call.func.attr.value
        bound = bind(call, METHODS[name], name)
        if name in EXPORTS:
            line, notes = exporters.export_call(bound, self.w, call)
            self.notes += notes
            return line
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
            return "\n".join(self.fit(bound["input_fn"], bound.get("steps", bound.get("max_steps")), plan))
        if "hooks" in bound:
            raise Unreadable(bound["hooks"], f"estimator.{name}(hooks=...): convert by hand")
        if name == "evaluate":
            return self.evaluate(bound["input_fn"], bound.get("steps"))
        predict = f"{self.w.model_var}.predict({self.dataset(bound['input_fn'])})"
        if self.w.predictions_function():
            self.notes.append((call, "TFM314", f"predict yields one dict per example: {self.w.examples_name} "
                               "unbatches model.predict's batch, with NumPy values"))
            return f"{self.w.examples_name}({self.w.pred_name}({predict}))"
        return predict


def _may_be_none(node) -> bool:
    """A flag, a variable or an item (`FLAGS.model_dir`, `args["model_dir"]`) may hold None at run time:
    `model_dir=None` is the Estimator's default, and `tf.io.gfile.join(None, ...)` raises. A literal may not,
    nor a call such as `os.path.join(...)` (which would raise on None itself, as the original did)."""
    return isinstance(node, (cst.Name, cst.Attribute, cst.Subscript)) and not (
        isinstance(node, cst.Name) and node.value == "None")
