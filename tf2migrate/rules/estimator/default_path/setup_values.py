"""What one set-up statement of a model_fn binds, for the general conversion (setup_statements.py): the global step,
an optimizer (read, made from a params class, or wrapped by CrossShardOptimizer/TowerOptimizer), a train op
(`minimize`, `apply_gradients`, `create_train_op`, a `tf1.group` of one with UPDATE_OPS and the step's increment),
UPDATE_OPS, `tf1.metrics.*` calls and their dict, Keras metric objects, session hooks and `loss = None` defaults.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.default_path import train_op as train_op_reader
from tf2migrate.rules.estimator.planning import inline_metrics, keras_metric_objects, params_optimizer
from tf2migrate.rules.estimator.planning.hooks import HOOK_NAMES
from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.planning.schedules import GLOBAL_STEP
from tf2migrate.rules.estimator.reading import optimize_loss, spec


class SetupValues:
    """Mixed into `setup_statements.Env`: `_setup(name, value)` records a set-up value in Env's dicts, or says no."""

    def _setup(self, name, value) -> bool:
        ctx = self.ctx
        if isinstance(value, cst.Name) and value.value == "None":
            return True  # `loss = None` before the mode branches assign it
        if isinstance(value, cst.Call) and spec.is_update_ops(value, ctx):
            self.update_ops.add(name)  # Keras layers update their own state (batch norm's moving averages)
            return True
        if _wraps(value, ctx) and len(value.args) == 1 and isinstance(value.args[0].value, cst.Name) \
                and value.args[0].value.value in self.optimizers:  # TF2 strategies sum the replicas' gradients
            self.optimizers[name] = self.optimizers[value.args[0].value.value]
            return True
        if spec.is_cross_shard(value, ctx) and len(value.args) == 1 and value.args[0].keyword is None \
                and isinstance(value.args[0].value, cst.Call) and read_optimizer(value.args[0].value, ctx) is not None:
            self.optimizers[name] = read_optimizer(value.args[0].value, ctx)  # `CrossShardOptimizer(AdamOptimizer(lr))`
            return True
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value in self.defs:
            made = inline_metrics.returned_dict(value, self.defs)  # `eval_metric_ops = metric_fn(labels, logits)`
            if isinstance(made, cst.Dict) and made.elements and all(
                    isinstance(e, cst.DictElement) and self._metric(e.value) for e in made.elements):
                self.metric_dicts[name] = value  # read where the spec names it (metric_ops.read)
                return True
        if isinstance(value, cst.Call) and self._grouped(name, value):
            return True
        if isinstance(value, cst.Call) and ctx.resolve(value.func)[1] in HOOK_NAMES:
            self.hooks[name] = value  # for the spec's training_hooks: callbacks of fit (hooks.py)
            return True
        if isinstance(value, cst.Dict) and value.elements and all(
                isinstance(e, cst.DictElement) and self._metric(e.value) for e in value.elements):
            self.metric_dicts[name] = value
            return True
        if params_optimizer.read(value, ctx) is not None or isinstance(value, cst.Call) and isinstance(
                value.func, cst.Name) and value.func.value in self.from_params:
            self.from_params[name] = value  # not known here: a train op applying it says so (train_op.py)
        if keras_metric_objects.made(value, ctx) is not None:  # made once in the model's __init__
            self.keras_metrics[name] = value
            return True
        cls = params_optimizer.optimizer_class(value, self.params, ctx)
        if cls is not None:  # `optimizer = params.get("optimizer", tf1.train.AdamOptimizer)`
            self.classes[name] = cls
            return True
        if not isinstance(value, cst.Call):
            return False
        canonical = ctx.resolve(value.func)[1] or ""
        if canonical in GLOBAL_STEP and not value.args:
            self.steps.add(name)
            return True
        if canonical.startswith("tf.metrics."):
            self.metric_calls[name] = value
            return True
        opt = read_optimizer(value, ctx)
        if opt is not None:
            self.optimizers[name] = opt
            return True
        if isinstance(value.func, cst.Name) and value.func.value in self.classes:  # `optimizer = optimizer(lr)`
            opt = read_optimizer(params_optimizer.made(value, self.classes[value.func.value]), ctx)
            opt.node = value  # reported where the program makes it
            self.optimizers[name] = opt
            self.set_up[name] = value  # the name rebound from the class to the optimizer: one set-up
            return True
        if isinstance(value.func, cst.Attribute) and value.func.attr.value in ("minimize", "apply_gradients") \
                or canonical in train_op_reader.CREATE_TRAIN_OP or canonical == optimize_loss.OPTIMIZE_LOSS:
            self.train_ops[name] = value
            return True
        return False

    def _grouped(self, name, call) -> bool:
        """`train_op = tf1.group(minimize_op, update_ops)`: the train op, with the updates Keras makes itself."""
        if self.ctx.resolve(call.func)[1] != "tf.group" or any(a.keyword is not None or a.star for a in call.args):
            return False
        items = [e.value for a in call.args for e in (a.value.elements if isinstance(a.value, (cst.List, cst.Tuple))
                                                        else [cst.Element(a.value)])]
        ops = [self.train_ops[i.value] if isinstance(i, cst.Name) else i for i in items if _minimize(i, self.train_ops)]
        rest = [i for i in items if not (_minimize(i, self.train_ops) or self._step_increment(i)
                                         or isinstance(i, cst.Name) and i.value in self.update_ops)]
        if len(ops) != 1 or rest:
            return False
        self.train_ops[name] = ops[0]
        return True

    def _step_increment(self, item) -> bool:
        """`tf1.assign_add(global_step, 1)`: what the Keras optimizer's iterations do at every step."""
        if not (isinstance(item, cst.Call) and self.ctx.resolve(item.func)[1] in ("tf.assign_add", "tf.compat.v1.assign_add")
                and len(item.args) == 2):
            return False
        step, by = item.args[0].value, item.args[1].value
        stepped = isinstance(step, cst.Name) and step.value in self.steps or \
            isinstance(step, cst.Call) and self.ctx.resolve(step.func)[1] in GLOBAL_STEP and not step.args
        return stepped and isinstance(by, cst.Integer) and by.value == "1"

    def _metric(self, value) -> bool:
        if isinstance(value, cst.Name):
            return value.value in self.metric_calls or value.value in self.keras_metrics
        return isinstance(value, cst.Call) and (self.ctx.resolve(value.func)[1] or "").startswith("tf.metrics.")


def _wraps(value, ctx) -> bool:
    """`CrossShardOptimizer(opt)` (TPU) or `tf.contrib.estimator.TowerOptimizer(opt)` (replicate_model_fn's towers):
    the replicas' gradients summed, which a TF2 strategy does itself for the Keras optimizer."""
    return spec.is_cross_shard(value, ctx) or isinstance(value, cst.Call) \
        and ctx.resolve(value.func)[1] == "tf.contrib.estimator.TowerOptimizer"


def _minimize(item, train_ops) -> bool:
    """A train op in a `tf1.group`: a name bound to one, or `opt.minimize(...)` itself."""
    if isinstance(item, cst.Name):
        return item.value in train_ops
    return isinstance(item, cst.Call) and isinstance(item.func, cst.Attribute) and item.func.attr.value == "minimize"
