"""Assemble the Keras program: the model-building function and the statements that train with it.

`model_fn` becomes `build_model(params)`, returning a compiled `tf.keras.Sequential`; the `Estimator`
assignment becomes the strategy and `model = build_model(...)` inside its scope; `train_and_evaluate`
becomes `fit` then `evaluate(return_dict=True)`; `estimator.train/evaluate/predict` become
`model.fit/evaluate/predict`. Datasets come from calling the input functions, unchanged, so the same
batches arrive in the same order. The prediction helpers written beside the model: prediction_source.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.estimator.planning import canned, canned_combined, plan_types, regularization
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.writing import canned_source
from tf2migrate.rules.estimator.writing.prediction_source import PredictionSource


@dataclass
class Writer(PredictionSource):
    """Writes the Keras code of one program from templates (templates.py); `tf(name)` spells a TF2 name through
    the file's alias, `text(node)` a user's expression respelled for TF2 (both go into template holes)."""

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
        self.taken = kept_source.names_in_module(self.module, self.ctx.memo) | set(self.prog.defs) | self.prog.reserved
        self.model_var = self.fresh("model")
        self.build_name = self.fresh("_build_model" if self.model_fn_name().startswith("_") else "build_model")
        self.build_call = None  # what builds the model where it is made, when not `build_name` (closures.py)
        self.compat_name = self.fresh("RMSpropTF1")
        self.pred_name = self.fresh("_predictions" if self.model_fn_name().startswith("_") else "predictions_of")
        self.examples_name = self.fresh("_examples" if self.model_fn_name().startswith("_") else "examples_of")
        self.predict_all_name = self.fresh("_predict_all" if self.model_fn_name().startswith("_") else "predict_all")
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
        return node if isinstance(node, str) else kept_source.text(node, self.ctx)

    def arg(self, arg: cst.Arg) -> cst.Arg:
        """A user's argument, respelled, in generated code's `keyword=value`."""
        return templates.arg(self.text(arg.value), arg.keyword.value if arg.keyword is not None else None)

    # the model
    def layer(self, layer) -> cst.BaseElement:
        """The layer as an item of the Sequential's list: one per pass of the model_fn's loop if made in one."""
        made = self._layer(layer)
        if layer.loop is None:
            return cst.Element(made)
        return cst.StarredElement(templates.expression("[{made} for {target} in {iter}]", self, made=made,
                                                       target=self.text(layer.loop.target),
                                                       iter=self.text(layer.loop.iter)))

    def _layer(self, layer) -> cst.BaseExpression:
        cls = self.tf("tf.keras.layers." + layer.kind)
        if layer.kind == "Lambda":  # arithmetic with a number: `lambda image: image / 255.`
            return templates.expression("{cls}(lambda {x}: {value})", self, cls=cls, x=layer.input.value,
                                        value=self.text(layer.activation))
        if layer.kind == "Select":
            return templates.expression("{cls}(lambda features: features[{key}])", self, cls=self.tf(
                "tf.keras.layers.Lambda"), key=self.text(layer.key))
        if layer.kind == "Activation":
            return templates.call(cls, [self.text(layer.activation)])
        if layer.kind == "Reshape":
            dims = cst.Tuple([cst.Element(templates.node(self.text(e.value))) for e in layer.reshape.elements[1:]])
            return templates.call(cls, [dims])
        return templates.call(cls, [self.arg(a) for a in layer.args])

    def sequential(self, layers: list) -> cst.BaseExpression:
        """`tf.keras.Sequential([...])`, one layer per line when there are several."""
        listed = cst.List([item if isinstance(item, cst.BaseElement) else cst.Element(templates.node(item))
                           for item in layers])
        return templates.call(self.tf("tf.keras.Sequential"),
                              [listed if len(layers) == 1 else templates.one_per_line(listed, self)])

    def build_function(self, shim_layer=None) -> cst.FunctionDef:
        """`def build_model(params):` making the model, its optimizer with TF1's numbers, and compiling it."""
        plan, m, schedule, metrics = self.prog.model, self.model_var, None, []
        combined = canned_combined.is_combined(plan)  # a WideDeepModel: its own statements
        if combined:
            made, loss, opt = canned_combined.model_lines(plan, self)
        elif plan_types.canned(plan):
            layers, loss, opt = canned_source.model_lines(plan, self)
            metrics = [mt.render(self.tf, self.text) for mt in plan.metrics]  # the evaluate keys read (canned_results)
        else:
            layers = [shim_layer] if shim_layer is not None else [self.layer(s.layer) for s in plan.chain.layers]
            loss = plan.loss.render(self.tf)
            if plan.schedule is not None:
                schedule = plan.schedule.render(self)
            lr = "learning_rate" if schedule is not None else self.text(plan.optimizer.learning_rate)
            opt = plan.optimizer.render(self.tf, self.text, lr, self.compat_name)
            metrics = [mt.render(self.tf, self.text) for mt in plan.metrics]
        if plan_types.canned(plan):  # add_metrics' metrics (estimator_wrappers.py)
            metrics = [mt.render(self.tf, self.text) for mt in plan.metrics]
        inputs = canned.keras3_inputs(plan, self.ctx) if plan_types.canned(plan) else None
        if inputs is not None and self.target == "keras3":
            made = canned_source.functional_lines(inputs, layers[1:], self)
        elif not combined:
            made = [templates.statement("{m} = {model}", self, m=m, model=self.sequential(layers))]
        names = ["params"] if plan.uses_params else []
        # TPUEstimator's iterations_per_loop; 1 on a path without a TPUEstimator
        params = templates.parameters(*names, **({"steps_per_execution": "1"} if self.steps_per_execution else {}))
        penalty = [regularization.render(plan.penalty, self)] if plan.penalty is not None else []
        return templates.statement(BUILD, self, name=self.build_name, params=params, made=made, penalty=penalty,
                                   schedule=[schedule] if schedule is not None else [], optimizer=opt,
                                   compile=self._compile(loss, metrics), model=m)

    def _compile(self, loss, metrics: list) -> cst.BaseStatement:
        """`model.compile(...)` in the builder, one argument per line when it does not fit."""
        args = [templates.arg("optimizer", "optimizer"), templates.arg(loss, "loss")]
        if metrics:
            listed = cst.List([cst.Element(templates.node(mt)) for mt in metrics])
            one = templates.arg(listed, "metrics")
            fit = templates.fits(templates.code(one, self), self.indent, 3)  # (88 columns at an indent of 4)
            args.append(one if fit else templates.arg(templates.one_per_line(listed, self, 1), "metrics"))
        if self.steps_per_execution:
            args.append(templates.arg("steps_per_execution", "steps_per_execution"))
        return templates.fitted("{call}", self, 1, call=templates.call(f"{self.model_var}.compile", args))


BUILD = '''def {name}({params}):
{i}{made}
{i}{penalty}
{i}{schedule}
{i}optimizer = {optimizer}
{i}{compile}
{i}return {model}
'''
