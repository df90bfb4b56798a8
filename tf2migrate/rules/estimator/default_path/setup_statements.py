"""The set-up statements of a model_fn for the general conversion (model_subclass.py): read, not kept.

The global step, the optimizer (and its CrossShardOptimizer wrap behind a `params["use_tpu"]` switch), the train op
(`minimize`, `apply_gradients` of kept gradients, `create_train_op`, `tf1.group` with UPDATE_OPS), the UPDATE_OPS
collection and its `control_dependencies` block, `tf1.metrics.*` calls and their dict (or a helper returning it),
session hooks and `loss = None` defaults only set up TF1 training: Keras does each of them itself (compile's
optimizer, fit's callbacks, the layers' own updates). `Env` records what they bound, and which names a kept statement
must then not read.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.default_path import train_op as train_op_reader
from tf2migrate.rules.estimator.planning import inline_metrics, keras_metric_objects, params_optimizer
from tf2migrate.rules.estimator.planning.hooks import HOOK_NAMES
from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.planning.schedules import GLOBAL_STEP
from tf2migrate.rules.estimator.reading import optimize_loss, spec
from tf2migrate.rules.estimator.reading.uses import assignment
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in

class Env:
    """What the set-up statements of the model_fn bound: optimizers, train ops, metrics."""

    def __init__(self, ctx, defs=None, params=None, outer=None) -> None:
        self.ctx, self.defs = ctx, defs or {}
        self.outer: dict = outer or {}  # name -> Optimizer made outside the model_fn (a builder's: closures.py)
        self.outer_used: set = set()  # the names of `outer` the train op applies
        self.params = params  # the params dict literal the Estimator is given (params_optimizer.given), or None
        self.optimizers: dict = {}  # name -> Optimizer
        self.keras_metrics: dict = {}  # name -> a Keras metric's constructor call (keras_metric_objects.py)
        self.metric_updates: dict = {}  # name -> [its update_state calls], each once
        self.from_params: dict = {}  # name -> a params read (or a call of one) that is no known optimizer class
        self.classes: dict = {}  # name -> the TF1 optimizer class read from params (params_optimizer.py)
        self.train_ops: dict = {}  # name -> minimize call
        self.metric_calls: dict = {}  # name -> tf1.metrics.* call
        self.metric_dicts: dict = {}  # name -> dict literal of metrics
        self.set_up: dict = {}  # every name a set-up statement bound -> the value it was bound to
        self.update_ops: set = set()  # names of `tf1.get_collection(UPDATE_OPS)`
        self.hooks: dict = {}  # name -> session hook call
        self.steps: set = set()  # names of the global step
        self.notes: list = []  # (node, code, message) of what was dropped
        self.minimized = None  # the Name the train op minimizes when it is not the spec's loss (train_op.py)
        self.applied = None  # the train op's `opt.apply_gradients(...)` call, when it applies kept gradients

    def kept(self, stmts) -> list:
        """The statements of one run that its step computes (set-up statements are recorded instead)."""
        out = []
        for stmt in stmts:
            if isinstance(stmt, cst.With) and len(stmt.items) == 1 and self._on_update_ops(stmt.items[0].item):
                out += self.kept(stmt.body.body)  # the dependency on UPDATE_OPS is what Keras layers do themselves
                continue
            if self._setup_block(stmt):
                continue
            updated = keras_metric_objects.update(stmt, self.keras_metrics)
            if updated is not None:  # test_step's update of the metric made once in __init__
                calls = self.metric_updates.setdefault(updated[0], [])
                calls += [] if any(c is updated[1] for c in calls) else [updated[1]]
                continue
            if _names_a_tensor(stmt, self.ctx):
                if all(n[0] is not stmt for n in self.notes):
                    self.notes.append((stmt, "TFM301", "tf.identity naming a tensor dropped: Keras has no graph "
                                       "tensors by name (a LoggingTensorHook's logs: TFM323)"))
                continue
            target, value = assignment(stmt)
            if target is None or not self._setup(target, value):
                out.append(stmt)
            elif not (isinstance(value, cst.Name) and value.value == "None") \
                    and self.set_up.setdefault(target, value) is not value and not _wraps(value, self.ctx):
                raise Unreadable(stmt, f"`{target}` is set up twice (an optimizer or train op chosen by a test?): "
                                 "the conversion makes one Keras optimizer; choose it before the model_fn or convert "
                                 "by hand")
        return out

    def _setup_block(self, stmt) -> bool:
        """`if params["use_tpu"]: optimizer = CrossShardOptimizer(optimizer)`: a block of set-up statements only."""
        if not isinstance(stmt, cst.If):
            return False
        blocks = [stmt.body.body] + ([[stmt.orelse] if isinstance(stmt.orelse, cst.If) else stmt.orelse.body.body]
                                     if stmt.orelse is not None else [])
        return all(not self.kept(block) for block in blocks)

    def _on_update_ops(self, item) -> bool:
        if not (isinstance(item, cst.Call) and self.ctx.resolve(item.func)[1] == "tf.control_dependencies"
                and len(item.args) == 1):
            return False
        dep = item.args[0].value
        return isinstance(dep, cst.Name) and dep.value in self.update_ops or \
            isinstance(dep, cst.Call) and spec.is_update_ops(dep, self.ctx)

    def setup_read(self, stmt):
        """The first set-up name (optimizer, train op, global step, UPDATE_OPS) a kept statement reads, or None."""
        read = names_in(stmt)
        return next((name for name in self.set_up if name in read), None)

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

    def optimizer(self, train_op, loss):
        """The optimizer of `train_op`, which must minimize `loss` (train_op.py)."""
        return train_op_reader.optimizer(self, train_op, loss)

    def known_optimizer(self, name: str):
        """The Optimizer a name of the model_fn, or of its builder, is bound to (None: not an optimizer)."""
        if name in self.optimizers:
            return self.optimizers[name]
        if name in self.outer:
            self.outer_used.add(name)
        return self.outer.get(name)

    def _locals(self) -> set:
        return set(self.optimizers) | set(self.train_ops) | set(self.metric_calls)


def _wraps(value, ctx) -> bool:
    """`CrossShardOptimizer(opt)` (TPU) or `tf.contrib.estimator.TowerOptimizer(opt)` (replicate_model_fn's towers):
    the replicas' gradients summed, which a TF2 strategy does itself for the Keras optimizer."""
    return spec.is_cross_shard(value, ctx) or isinstance(value, cst.Call) \
        and ctx.resolve(value.func)[1] == "tf.contrib.estimator.TowerOptimizer"


def _names_a_tensor(stmt, ctx) -> bool:
    """`tf1.identity(loss, "cross_entropy")` as a statement: a graph name for a LoggingTensorHook, nothing else."""
    small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
    return isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) \
        and ctx.resolve(small.value.func)[1] == "tf.identity"


def _minimize(item, train_ops) -> bool:
    """A train op in a `tf1.group`: a name bound to one, or `opt.minimize(...)` itself."""
    if isinstance(item, cst.Name):
        return item.value in train_ops
    return isinstance(item, cst.Call) and isinstance(item.func, cst.Attribute) and item.func.attr.value == "minimize"


