"""The prediction helpers a Keras program gets beside its model when it predicts: `predictions_of` (the model_fn's
PREDICT output from the model's), `examples_of` (one prediction per example, as Estimator.predict yielded them)
and `predict_all` (every batch counted, for steps_per_execution > 1). Mixed into keras_source.Writer.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import canned_results, plan_types
from tf2migrate.rules.estimator.reading.uses import method_of
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.syntax import templates


class PredictionSource:
    """Mixed into `keras_source.Writer`: uses its `prog`, `module`, `ctx`, names and `text`/`tf`."""

    def predictions_function(self) -> list:
        """`def predictions_of(logits):` the PREDICT output from the model's: the model_fn's steps it needs."""
        plan = self.prog.model
        if plan_types.canned(plan):  # the canned head's PREDICT dict, when the program predicts
            calls = self.program_predicts if self.program_predicts is not None else predicts(self.module, self.prog.var)
            return [canned_results.predictions_function(plan, self)] if calls else []
        pred = plan.predictions if plan is not None else None  # None: a model_fn of another module
        if pred is None or (isinstance(pred, cst.Name) and pred.value == plan.chain.output):
            return []
        needed, steps = kept_source.names_in(pred), []
        for step in reversed(plan.chain.derived()):
            if step.name in needed:
                steps.insert(0, step)
                needed |= kept_source.names_in(step.stmt.body[0].value)
        kept = [kept_source.respell(s.stmt, self.ctx).with_changes(leading_lines=[]) for s in steps]
        body = kept + [templates.statement("return {value}", self, value=self.text(pred))]
        return [templates.statement("def {name}({output}):\n{i}{body}", self, name=self.pred_name,
                                    output=templates.parameters(plan.chain.output), body=templates.block(body))]

    def examples_function(self) -> list:
        """Estimator.predict yielded one prediction per example, as NumPy values; model.predict and the
        PREDICT dict give one batch. The generator gives back what the program iterated (G2)."""
        calls = self.program_predicts if self.program_predicts is not None else predicts(self.module, self.prog.var)
        if not calls:
            return []
        return [templates.statement(EXAMPLES, self, name=self.examples_name, tf=self.tf("tf"))]

    def predict_all_function(self) -> list:
        """With steps_per_execution > 1 Keras' predict must be told how many batches to read (PREDICT_ALL)."""
        calls = self.program_predicts if self.program_predicts is not None else predicts(self.module, self.prog.var)
        if not calls or not self.steps_per_execution:
            return []
        return [templates.statement(PREDICT_ALL, self, name=self.predict_all_name)]


EXAMPLES = '''def {name}(batch):
{i}"""One prediction per example, as Estimator.predict yielded them."""
{i}batch = {tf}.nest.map_structure({tf}.get_static_value, batch)
{i}if not isinstance(batch, dict):
{i}{i}yield from batch
{i}{i}return
{i}for index in range(len(next(iter(batch.values())))):
{i}{i}yield {key: value[index] for key, value in batch.items()}
'''

PREDICT_ALL = '''def {name}(model, dataset):
{i}"""model.predict of every batch of the dataset, as TPUEstimator.predict read it. With steps_per_execution > 1,
{i}Keras must be told how many batches there are, which a dataset of unknown size (TFRecords, filter) does not
{i}say ("Could not infer the size of the data"): they are then counted, reading the dataset once."""
{i}steps = int(dataset.cardinality())
{i}if steps < 0:
{i}{i}steps = int(dataset.reduce(0, lambda count, _: count + 1))
{i}return model.predict(dataset, steps=steps)
'''


def predicts(module: cst.Module, var: str) -> bool:
    """Whether the program calls `<var>.predict(...)`."""
    found = []

    class _Find(cst.CSTVisitor):
        def visit_Call(self, node):
            if method_of(node, var) == "predict":
                found.append(node)

    module.visit(_Find())
    return bool(found)
