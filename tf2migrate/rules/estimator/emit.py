"""Assemble the Keras program: the model-building function and the statements that train with it.

`model_fn` becomes `build_model(params)`, returning a compiled `tf.keras.Sequential`; the `Estimator`
assignment becomes the strategy and `model = build_model(...)` inside its scope; `train_and_evaluate`
becomes `fit` then `evaluate(return_dict=True)`; `estimator.train/evaluate/predict` become
`model.fit/evaluate/predict`. Datasets come from calling the input functions, unchanged, so the same
batches arrive in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator import canned, plans, regularization, render
from tf2migrate.rules.estimator.plans import StrategyKind


@dataclass
class Writer:
    """Renders source text for one program; `tf(name)` spells a TF2 name through the file's alias."""

    prog: object
    ctx: object
    module: cst.Module
    kind: StrategyKind

    def __post_init__(self):
        self.indent = self.module.default_indent
        self.per_replica_input = False  # set when the TF1 strategy fed each replica its own input batch
        self.params_var = None  # the name of the params dict, when input functions take params
        self.steps_per_execution = False  # build_model takes steps_per_execution (TPUEstimator's iterations_per_loop)
        self.strategy_var = None
        self.target = "keras3"  # target.choose: the Keras the output is written for
        self.resolver_var = "cluster_resolver"
        self.taken = render.names_in(self.module) | set(self.prog.defs)
        self.model_var = self.fresh("model")
        self.build_name = self.fresh("_build_model" if self.model_fn_name().startswith("_") else "build_model")
        self.compat_name = self.fresh("RMSpropTF1")
        self.pred_name = self.fresh("_predictions" if self.model_fn_name().startswith("_") else "predictions_of")
        self.examples_name = self.fresh("_examples" if self.model_fn_name().startswith("_") else "examples_of")
        self.program_predicts = None  # set when another module's program is the one calling predict
        self.updated_model_fn = None  # the model_fn as the other rules left it (shim and general paths keep its code)
        self.default_strategy = False  # the local branch of a switch whose other branch distributes (True or a name)

    def model_fn_name(self) -> str:
        fn = self.prog.bound.get("model_fn")
        return fn.value if isinstance(fn, cst.Name) else "model"

    def fresh(self, base: str) -> str:
        name, n = base, 1
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name

    def tf(self, canonical: str) -> str:
        return source(self.ctx.emit.attribute(canonical))

    def text(self, node) -> str:
        return node if isinstance(node, str) else render.text(node, self.ctx)

    def arg_text(self, arg: cst.Arg) -> str:
        value = self.text(arg.value)
        return f"{arg.keyword.value}={value}" if arg.keyword is not None else value

    def call(self, func: str, args: list, level: int = 0) -> str:
        """`func(a, b)` on one line when it fits in 100 columns at `level`, else one argument per line."""
        one = f"{func}({', '.join(args)})"
        if (len(one) + len(self.indent) * level <= 100 and "\n" not in one) or not args:
            return one
        return f"{func}(\n" + "".join(f"{self.indent}{a},\n" for a in args) + ")"

    def parse(self, code: str) -> list:
        return list(cst.parse_module(code + "\n", config=self.module.config_for_parsing).body) if code else []

    # the model
    def layer(self, layer) -> str:
        text = self._layer(layer)
        if layer.loop is not None:  # one layer per pass of the model_fn's loop
            return f"*[{text} for {self.text(layer.loop.target)} in {self.text(layer.loop.iter)}]"
        return text

    def _layer(self, layer) -> str:
        if layer.kind == "Lambda":  # arithmetic with a number: `lambda image: image / 255.`
            return f"{self.tf('tf.keras.layers.Lambda')}(lambda {layer.input.value}: {self.text(layer.activation)})"
        if layer.kind == "Select":
            return f"{self.tf('tf.keras.layers.Lambda')}(lambda features: features[{self.text(layer.key)}])"
        if layer.kind == "Activation":
            return f"{self.tf('tf.keras.layers.Activation')}({self.text(layer.activation)})"
        if layer.kind == "Reshape":
            dims = [self.text(e.value) for e in layer.reshape.elements[1:]]
            return f"{self.tf('tf.keras.layers.Reshape')}(({', '.join(dims)}{',' if len(dims) == 1 else ''}))"
        return f"{self.tf('tf.keras.layers.' + layer.kind)}({', '.join(self.arg_text(a) for a in layer.args)})"

    def sequential(self, layer_texts: list) -> str:
        i = self.indent
        if len(layer_texts) == 1:
            return f"{self.tf('tf.keras.Sequential')}([{layer_texts[0]}])"
        inner = "".join(f"{i}{t},\n" for t in layer_texts)
        return f"{self.tf('tf.keras.Sequential')}([\n{inner}])"

    def build_function(self, shim_layer=None) -> str:
        plan, i, m = self.prog.model, self.indent, self.model_var
        lines = []
        if plans.canned(plan):
            layer_texts, loss, opt = canned.model_lines(plan, self.ctx, self.tf, self.text, i)
            metrics = []
        else:
            layer_texts = [shim_layer] if shim_layer else [self.layer(s.layer) for s in plan.chain.layers]
            loss = plan.loss.render(self.tf)
            lr = self.text(plan.optimizer.learning_rate)
            if plan.schedule is not None:
                schedule = plan.schedule.render(self.tf, self.text, self.call)
                lr = "learning_rate"
            opt = plan.optimizer.render(self.tf, self.text, lr, self.compat_name)
            metrics = [mt.render(self.tf, self.text) for mt in plan.metrics]
        inputs = canned.keras3_inputs(plan, self.ctx) if plans.canned(plan) else None
        if inputs is not None and self.target == "keras3":
            lines += canned.functional_lines(inputs, layer_texts[1:], self.tf, m, i)
        else:
            lines.append(f"{m} = {self.sequential(layer_texts)}")
        if plan.penalty is not None:
            lines.append(regularization.render(plan.penalty, self))
        if plan.schedule is not None:
            lines.append(schedule)
        lines.append(f"optimizer = {opt}")
        metrics_arg = f"metrics=[{', '.join(metrics)}]"
        if len(metrics_arg) > 88:
            metrics_arg = "metrics=[\n" + "".join(f"{i}{i}{mt},\n" for mt in metrics) + f"{i}]"
        compile_args = ["optimizer=optimizer", f"loss={loss}"] + ([metrics_arg] if metrics else [])
        if self.steps_per_execution:
            compile_args.append("steps_per_execution=steps_per_execution")
        lines.append(self.call(f"{m}.compile", compile_args, 1))
        lines.append(f"return {m}")
        params = "params" if plan.uses_params else ""
        if self.steps_per_execution:  # TPUEstimator's iterations_per_loop; 1 on a path without a TPUEstimator
            params = ", ".join(p for p in (params, "steps_per_execution=1") if p)
        body = "".join(f"{i}{line}\n" for line in "\n".join(lines).split("\n"))
        return f"def {self.build_name}({params}):\n{body}"

    def predictions_function(self) -> str:
        plan = self.prog.model
        pred = plan.predictions if plan is not None else None  # None: a model_fn of another module
        if pred is None or (isinstance(pred, cst.Name) and pred.value == plan.chain.output):
            return ""
        needed, steps = render.names_in(pred), []
        for step in reversed(plan.chain.derived()):
            if step.name in needed:
                steps.insert(0, step)
                needed |= render.names_in(step.stmt.body[0].value)
        i = self.indent
        kept = [render.respell(s.stmt, self.ctx).with_changes(leading_lines=[]) for s in steps]
        code = cst.Module(body=kept, default_indent=i).code
        body = "".join(f"{i}{line}\n" for line in code.rstrip("\n").split("\n")) if steps else ""
        return f"def {self.pred_name}({plan.chain.output}):\n{body}{i}return {self.text(pred)}\n"

    def examples_function(self) -> str:
        """Estimator.predict yielded one prediction per example, as NumPy values; model.predict and the
        PREDICT dict give one batch. The generator gives back what the program iterated (G2)."""
        calls = self.program_predicts if self.program_predicts is not None else predicts(self.module, self.prog.var)
        if not self.predictions_function() or not calls:
            return ""
        i, tf = self.indent, self.tf("tf")
        return (f"def {self.examples_name}(batch):\n"
                f'{i}"""One prediction per example, as Estimator.predict yielded them."""\n'
                f"{i}batch = {tf}.nest.map_structure({tf}.get_static_value, batch)\n"
                f"{i}if not isinstance(batch, dict):\n"
                f"{i}{i}yield from batch\n"
                f"{i}{i}return\n"
                f"{i}for index in range(len(next(iter(batch.values())))):\n"
                f"{i}{i}yield {{key: value[index] for key, value in batch.items()}}\n")


def predicts(module: cst.Module, var: str) -> bool:
    """Whether the program calls `<var>.predict(...)`."""
    found = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, node):
            f = node.func
            if isinstance(f, cst.Attribute) and f.attr.value == "predict" and isinstance(f.value, cst.Name) \
                    and f.value.value == var:
                found.append(node)

    module.visit(_Find())
    return bool(found)
