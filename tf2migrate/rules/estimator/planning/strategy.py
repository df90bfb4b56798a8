"""Which `tf.distribute` strategy the Keras program is built under, and the code that creates it.

`RunConfig(train_distribute=S)` names it; without one, a `TF_CONFIG` cluster written in the file
decides: `ps` tasks mean `ParameterServerStrategy`, workers alone `MultiWorkerMirroredStrategy`.
`--strategy` overrides the choice. In TF1 every task ran `train_and_evaluate`: the chief and the
workers trained and the ps served. In TF2 the chief only coordinates, so the migrated program starts
a server and waits on the worker and ps tasks, and TF1's "chief + N workers" needs N + 1 TF2 workers.
The partitioner the model passed to `variable_scope` moves to the strategy (TF2 has one per strategy).
"""
from __future__ import annotations

import functools
from typing import Optional

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.call_edit import keep_prefix
from tf2migrate.rules.tables import load_tables
from tf2migrate.rules.estimator.planning import tpu
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind, literal

CONFIG_PARAMS = ("model_dir", "tf_random_seed", "save_summary_steps", "save_checkpoints_steps",
                 "save_checkpoints_secs", "session_config", "keep_checkpoint_max", "keep_checkpoint_every_n_hours",
                 "log_step_count_steps", "train_distribute", "device_fn", "protocol", "eval_distribute",
                 "experimental_distribute", "experimental_max_worker_delay_secs", "session_creation_timeout_secs",
                 "checkpoint_save_graph_def")
CONFIG_DROPPED = {"save_summary_steps", "session_config", "keep_checkpoint_max", "keep_checkpoint_every_n_hours",
                  "log_step_count_steps", "save_checkpoints_secs", "session_creation_timeout_secs",
                  "checkpoint_save_graph_def", "eval_distribute"}
KINDS = {
    "tf.distribute.MirroredStrategy": StrategyKind.MIRRORED,
    "tf.contrib.distribute.MirroredStrategy": StrategyKind.MIRRORED,
    "tf.distribute.experimental.ParameterServerStrategy": StrategyKind.PARAMETER_SERVER,
    "tf.contrib.distribute.ParameterServerStrategy": StrategyKind.PARAMETER_SERVER,
    "tf.distribute.experimental.MultiWorkerMirroredStrategy": StrategyKind.MULTI_WORKER,
    "tf.distribute.MultiWorkerMirroredStrategy": StrategyKind.MULTI_WORKER,
    "tf.contrib.distribute.CollectiveAllReduceStrategy": StrategyKind.MULTI_WORKER,
}
PARTITIONS = "tf.distribute.experimental.partitioners."


@functools.lru_cache(maxsize=None)
def partitioners() -> dict:
    """TF1 partitioner -> (TF1 parameters, TF2 class, {TF1 param: TF2 keyword}, first positional), read
    from the one TF1 signature table, rules/partitioners.toml, whose rules (TFM201-TFM203) bind the same
    arguments when a partitioner is rewritten in place."""
    out = {}
    for name, actions in load_tables().by_symbol.items():
        for action in actions:
            if action.new and action.new.startswith(PARTITIONS) and action.call is not None:
                spec = action.call
                first = spec.args[0] if keep_prefix(spec) else None
                renames = {p: spec.keywords.get(p, p) for p in spec.args if p != first and p not in spec.drop}
                out[name] = (spec.args, action.new[len(PARTITIONS):], renames, first)
    return out


def choose(prog, ctx) -> StrategyKind:
    """The strategy the model is built under; raises Unreadable for an unknown strategy."""
    wanted = ctx.selection.strategy
    if wanted != "auto":
        return StrategyKind(wanted)
    if prog.tpu is not None:
        return StrategyKind.NONE if prog.tpu.never else StrategyKind.TPU
    if getattr(prog, "replicated", None) is not None:  # replicate_model_fn's towers (replicate.py)
        return StrategyKind.MIRRORED
    expr = prog.strategy_expr
    if expr is not None:
        canonical = ctx.resolve(expr.func)[1] if isinstance(expr, cst.Call) else None
        if canonical not in KINDS:
            raise Unreadable(expr, "train_distribute is not a strategy the converter knows: pass --strategy")
        return KINDS[canonical]
    if prog.cluster is not None:
        has_ps, has_worker, _ = prog.cluster
        return StrategyKind.PARAMETER_SERVER if has_ps else StrategyKind.MULTI_WORKER if has_worker \
            else StrategyKind.NONE
    return StrategyKind.NONE


def tf1_kind(prog, ctx) -> Optional[StrategyKind]:
    """The kind of the strategy the TF1 RunConfig named (None without one)."""
    expr = prog.strategy_expr
    return KINDS.get(ctx.resolve(expr.func)[1]) if isinstance(expr, cst.Call) else None


def partitioner(prog, ctx, kind) -> Optional[cst.BaseExpression]:
    """The single partitioner of the model (None if none); raises Unreadable for several or an axis."""
    found = list(prog.model.partitioners) if prog.model is not None else []
    texts = {source(expr) for _, expr in found}
    if len(texts) > 1:
        raise Unreadable(found[1][0], "several different partitioners: TF2 has one per ParameterServerStrategy; "
                         "choose one and pass it as variable_partitioner by hand")
    if not found:
        return None
    node, expr = found[0]
    canonical = ctx.resolve(expr.func)[1] if isinstance(expr, cst.Call) else None
    if canonical not in partitioners():
        raise Unreadable(node, "partitioner that is not a TF1 partitioner call: convert by hand")
    params, _, _, _ = partitioners()[canonical]
    bound = bind(expr, params, canonical)
    if "axis" in bound and literal(bound["axis"]) != 0:
        raise Unreadable(bound["axis"], "partitioning along an axis other than 0: TF2 shards only axis 0")
    return expr


def render_partitioner(expr, ctx, tf) -> cst.Call:
    canonical = ctx.resolve(expr.func)[1]
    params, cls, renames, first = partitioners()[canonical]
    bound = bind(expr, params, canonical)
    args = [source(bound[first])] if first and first in bound else []
    args += [templates.arg(source(v), renames[k]) for k, v in bound.items() if k in renames]
    return templates.call(tf("tf.distribute.experimental.partitioners." + cls), args)


def statements(kind, var, prog, ctx, w, partitioner) -> list:
    """The statements that create `var` for `kind` (none for none)."""
    tf, r = w.tf, w.resolver_var
    if kind is StrategyKind.NONE:
        return []
    if kind is StrategyKind.TPU:
        return tpu.strategy_lines(prog.tpu, var, w)
    if kind is StrategyKind.MIRRORED:
        expr = prog.strategy_expr
        keep = (isinstance(expr, cst.Call) and ctx.resolve(expr.func)[1] in ("tf.distribute.MirroredStrategy",)
                and expr.args)
        args = [w.arg(a) for a in expr.args] if keep else _contrib_devices(expr, ctx, w)
        made = templates.call(tf("tf.distribute.MirroredStrategy"), args)
        return [templates.fitted("{var} = {call}", w, var=var, call=made)]
    if kind is StrategyKind.MULTI_WORKER:
        return [templates.statement("{var} = {strategy}()", w, var=var,
                                    strategy=tf("tf.distribute.MultiWorkerMirroredStrategy"))]
    made = templates.call(tf("tf.distribute.experimental.ParameterServerStrategy"), [r] + (
        [templates.arg(partitioner, "variable_partitioner")] if partitioner is not None else []))
    resolver = tf("tf.distribute.cluster_resolver.TFConfigClusterResolver")
    return [templates.statement("{r} = {resolver}()", w, r=r, resolver=resolver),
            templates.statement(SERVE, w, r=r, server=tf("tf.distribute.Server")),
            templates.fitted("{var} = {call}", w, var=var, call=made)]


CONTRIB_MIRRORED = ("devices", "num_gpus", "num_gpus_per_worker", "cross_device_ops", "auto_shard_dataset",
                   "cross_tower_ops")


def _contrib_devices(expr, ctx, w) -> list:
    """The arguments of contrib's MirroredStrategy that TF2's takes: its `devices` and `cross_device_ops` (named
    `cross_tower_ops` before), by keyword. A GPU count (`num_gpus`) has no TF2 argument: the tables report it
    (TFM105), and the strategy then mirrors on every local GPU."""
    if not (isinstance(expr, cst.Call) and expr.args
            and ctx.resolve(expr.func)[1] == "tf.contrib.distribute.MirroredStrategy"):
        return []
    try:
        bound = bind(expr, CONTRIB_MIRRORED, "tf.contrib.distribute.MirroredStrategy")
    except Unreadable:
        return []
    renamed = {"devices": "devices", "cross_device_ops": "cross_device_ops", "cross_tower_ops": "cross_device_ops"}
    return [templates.arg(w.text(v), renamed[k]) for k, v in bound.items() if k in renamed]


SERVE = '''if {r}.task_type in ("worker", "ps"):
{i}# In TF1 these tasks ran train_and_evaluate themselves; in TF2 they serve the coordinator.
{i}server = {server}(
{i}{i}{r}.cluster_spec(),
{i}{i}job_name={r}.task_type,
{i}{i}task_index={r}.task_id,
{i}{i}protocol={r}.rpc_layer or "grpc",
{i})
{i}server.join()
'''
