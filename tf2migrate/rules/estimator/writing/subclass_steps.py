"""The steps of the general path's Keras Model subclass (model_subclass_source.py): train_step's forward pass,
loss and update (the tape's gradients, or the model_fn's own gradient statements, with the loss divided over the
replicas as TF1's optimizer did), test_step and predict_step, each over the model's own variables with its mode
known.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.default_path import gradients, tpu_steps
from tf2migrate.rules.estimator.planning import regularization
from tf2migrate.rules.estimator.reading import modes
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.kept_source import names_in

TEST_STEP = '''def test_step(self, data):
{i}{unpack}
{i}{body}
{i}self.loss_tracker.update_state({loss})
{i}{updates}
{i}return {metric.name: metric.result() for metric in self.metrics}
'''
PREDICT_STEP = '''def predict_step(self, data):
{i}features, _, _ = {tf}.keras.utils.unpack_x_y_sample_weight(data)
{i}{body}
{i}return {output}
'''


def _apply(gp, target: str, w, updated) -> list:
    """The step's update: the tape's gradients applied, or the model_fn's own gradient statements (gradients.py)."""
    if gp.applied is None:
        return templates.statements("gradients = tape.gradient({target}, self.trainable_variables)\n"
                                    "self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))\n",
                                    w, target=target)
    on_tape = gradients.OnTape(w.ctx, target, set(gp.optimizers))
    kept = [s.visit(on_tape) for s in _step(None, updated(gp.gradients), gp.gradients, w, "TRAIN")]
    return kept + [templates.statement("self.optimizer.apply_gradients({applied})", w, applied=w.text(gp.applied))]


def _replica_scale(loss: str, w) -> list:
    """Under a strategy with replicas TF1's optimizer divided the loss by their number before its gradients
    were summed (a MEAN loss reduction, program_plan.GENERAL_STRATEGIES): the step takes the same gradients."""
    if not _scaled(w):
        return []
    made = templates.statement("scaled_loss = {loss} / self.distribute_strategy.num_replicas_in_sync", w, loss=loss)
    why = cst.EmptyLine(comment=cst.Comment(REPLICA_SCALE if w.kind.replicated else tpu_steps.SCALE))
    return [made.with_changes(leading_lines=[why])]


REPLICA_SCALE = "# as TF1's optimizer did under a strategy: the replicas' gradients are summed"


def _scaled(w) -> bool:
    """The loss is divided by the replicas: under a replicated strategy, or TPU in any branch (tpu_steps.py)."""
    return w.kind.replicated or tpu_steps.on_tpu(w)


def _head(gp, training: str, w) -> cst.BaseStatement:
    """`logits = self(features)`: a step's forward pass, in training or not."""
    args = ["features"] + ([templates.arg(training, "training")] if gp.training else [])
    made = templates.call("self", args)
    return templates.statement("{outputs} = {call}", w, outputs=", ".join(gp.outputs), call=made)


def _test_step(gp, w, updated) -> list:
    if gp.evaluate is None:
        return []
    loss, tail = _loss(gp.eval_loss, w)
    updates = [templates.statement("{call}", w, call=templates.call(templates.expression(
        "self.eval_metrics[{key}].update_state", w, key=w.text(m.key)), _args(m, w))) for m in gp.metrics]
    body = _step(_head(gp, "False", w), updated(gp.evaluate), gp.evaluate, w, "EVAL") + tail
    return [templates.statement(TEST_STEP, w, body=body, loss=loss, updates=updates, unpack=_unpack(gp, w))]


def _unpack(gp, w) -> cst.BaseStatement:
    """`features, labels = data`; a model_fn without labels (an autoencoder) reads features alone."""
    if any(p.name.value == "labels" for p in gp.node.params.params):
        return templates.statement("features, labels = data", w)
    return templates.statement("features, _, _ = {unpack}(data)", w, unpack=w.tf("tf.keras.utils.unpack_x_y_sample_weight"))


def _predict_step(gp, w, updated) -> list:
    if gp.predict is None:
        return []
    body = _step(_head(gp, "False", w), updated(gp.predict), gp.predict, w, "PREDICT")
    return [templates.statement(PREDICT_STEP, w, tf=w.tf("tf"), body=body, output=w.text(gp.predict_output))]


def _step(head, stmts, originals, w, mode) -> list:
    """A step's statements: the forward pass's outputs, then the kept ones, over the model's own variables, with the
    step's mode known (modes.Known)."""
    on_model, known = regularization._OnModel(w.ctx, "self"), modes.Known(mode, w.ctx)
    return ([head] if head is not None else []) + _read_params(originals, w) + [s.visit(on_model).visit(known)
                                                                                for s in stmts]


def _loss(expr, w):
    """(the name of the step's loss, the statement that computes it when the spec gives an expression)."""
    if isinstance(expr, cst.Name):
        return expr.value, []
    return "loss", [templates.statement("loss = {value}", w, value=w.text(expr))]


def _args(metric, w) -> list:
    return [templates.arg(w.text(a[1]), a[0]) if isinstance(a, tuple) else w.text(a) for a in metric.args]


def _read_params(stmts, w) -> list:
    """`params = self.params` when the statements read the params."""
    return [templates.statement("params = self.params", w)] if any("params" in names_in(s) for s in stmts) else []
