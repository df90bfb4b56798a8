"""TPUEstimator -> TPUStrategy + Keras, behind the program's own `use_tpu` switch.

`TPUEstimator(use_tpu=FLAGS.use_tpu, train_batch_size=B, config=tpu.RunConfig(cluster=resolver,
tpu_config=TPUConfig(iterations_per_loop=K)))` trains on the TPU the resolver names, or, with `use_tpu`
false, on the CPU like a plain Estimator. The Keras program keeps that switch: `TPUStrategy` over the same
resolver (connected and initialized first), else the default strategy; `compile(steps_per_execution=K)`
runs K steps per call as the TPU training loop did. TPUEstimator passed `params["batch_size"]` (the global
batch for the input on one host) and `params["use_tpu"]` to the model_fn and the input functions: the
Keras program builds the same dict. `CrossShardOptimizer` goes: Keras sums the replicas' gradients itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind, literal

ESTIMATORS = {"tf.estimator.tpu.TPUEstimator", "tf.contrib.tpu.TPUEstimator"}
ESTIMATOR_PARAMS = ("model_fn", "model_dir", "config", "params", "use_tpu", "train_batch_size", "eval_batch_size",
                    "predict_batch_size", "batch_axis", "eval_on_tpu", "export_to_tpu", "export_to_cpu",
                    "warm_start_from", "embedding_config_spec", "export_saved_model_api_version")
RUN_CONFIGS = {"tf.estimator.tpu.RunConfig", "tf.contrib.tpu.RunConfig"}
RUN_CONFIG_PARAMS = ("tpu_config", "evaluation_master", "master", "cluster")
TPU_CONFIGS = {"tf.estimator.tpu.TPUConfig", "tf.contrib.tpu.TPUConfig"}
TPU_CONFIG_PARAMS = ("iterations_per_loop", "num_shards", "num_cores_per_replica", "per_host_input_for_training",
                     "tpu_job_name", "initial_infeed_sleep_secs", "input_partition_dims",
                     "eval_training_input_configuration", "experimental_host_call_every_n_steps",
                     "experimental_allow_per_host_v2_parallel_get_next", "experimental_feed_hook")
CROSS_SHARD = {"tf.tpu.CrossShardOptimizer", "tf.contrib.tpu.CrossShardOptimizer"}
SPECS = {"tf.estimator.tpu.TPUEstimatorSpec", "tf.contrib.tpu.TPUEstimatorSpec"}
SPEC_ONLY = ("host_call", "scaffold_fn", "eval_metrics")  # TPUEstimatorSpec arguments with no automatic conversion
DROPPED = {"num_shards": "TPUStrategy trains on every core of the TPU the resolver names",
           "per_host_input_for_training": "Keras distributes the input of each host itself",
           "eval_on_tpu": "Keras evaluates under the same strategy it trains with",
           "evaluation_master": "Keras evaluates on the TPU it trains on",
           "predict_batch_size": "model.predict batches as the prediction input does",
           "export_to_tpu": "the model is saved once, for serving on CPU (model.export / model.save)"}


@dataclass
class TPUPlan:
    use_tpu: cst.BaseExpression  # the switch (a literal True when the program has none)
    train_batch_size: Optional[cst.BaseExpression]
    eval_batch_size: Optional[cst.BaseExpression]
    iterations: Optional[cst.BaseExpression]  # iterations_per_loop
    cluster: Optional[cst.BaseExpression]  # the TPUClusterResolver given to the RunConfig
    master: Optional[cst.BaseExpression]
    dropped: list  # (node, message) of settings with no Keras counterpart

    @property
    def always(self) -> bool:
        return literal(self.use_tpu) is True

    @property
    def never(self) -> bool:
        return literal(self.use_tpu) is False


def split_config(bound: dict, ctx) -> tuple:
    """(RunConfig keywords, TPU keywords) of a `tpu.RunConfig`; TPUConfig read into the TPU part."""
    tpu = {k: bound[k] for k in RUN_CONFIG_PARAMS if k in bound}
    rest = {k: v for k, v in bound.items() if k not in RUN_CONFIG_PARAMS}
    config = tpu.pop("tpu_config", None)
    if config is not None:
        if not (isinstance(config, cst.Call) and ctx.resolve(config.func)[1] in TPU_CONFIGS):
            raise Unreadable(config, "tpu_config that is not a TPUConfig(...) call: convert by hand")
        inner = bind(config, TPU_CONFIG_PARAMS, "TPUConfig")
        for key, value in inner.items():
            if key not in ("iterations_per_loop", "num_shards", "per_host_input_for_training"):
                raise Unreadable(value, f"TPUConfig({key}=...) has no Keras equivalent: convert by hand")
        tpu.update(inner)
    return rest, tpu


def named_tpu_config(module, bound: dict, prog, ctx) -> dict:
    """`tpu_config = TPUConfig(...)` just above `RunConfig(tpu_config=tpu_config)` (Google's TPU templates): read as
    the call, and the assignment goes with the RunConfig when nothing else reads the name."""
    from tf2migrate.rules.estimator.reading.uses import assignment
    from tf2migrate.rules.estimator.syntax.kept_source import references

    name = bound.get("tpu_config")
    if not isinstance(name, cst.Name):
        return bound
    found = [(i, value) for i, stmt in enumerate(module.body) for target, value in [assignment(stmt)]
             if target == name.value]
    if len(found) != 1 or not (isinstance(found[0][1], cst.Call) and ctx.resolve(found[0][1].func)[1] in TPU_CONFIGS) \
            or references(module, name.value, plain=True) != 2:
        return bound
    prog.removed.add(found[0][0])
    return {**bound, "tpu_config": found[0][1]}


def plan(bound: dict, tpu_config: dict) -> TPUPlan:
    for key in ("batch_axis", "embedding_config_spec", "export_to_cpu",
                "export_saved_model_api_version", "warm_start_from"):
        if key in bound:
            raise Unreadable(bound[key], f"TPUEstimator({key}=...): convert by hand")
    dropped = [(value, f"{key} dropped: {DROPPED[key]}") for key, value in {**bound, **tpu_config}.items()
               if key in DROPPED]
    return TPUPlan(bound.get("use_tpu", cst.Name("True")), bound.get("train_batch_size"),
                   bound.get("eval_batch_size"), tpu_config.get("iterations_per_loop"), tpu_config.get("cluster"),
                   tpu_config.get("master"), dropped)


def strategy_lines(t: TPUPlan, var: str, w) -> list:
    """The strategy: TPUStrategy over the program's resolver when its switch says TPU, else the default."""
    tf, on_tpu = w.tf, []
    resolver = w.text(t.cluster) if t.cluster is not None else w.fresh("resolver")
    if t.cluster is None:
        made = templates.call(tf("tf.distribute.cluster_resolver.TPUClusterResolver"),
                              [w.text(t.master)] if t.master is not None else [])
        on_tpu.append(templates.fitted("{resolver} = {call}", w, resolver=resolver, call=made))
    on_tpu += templates.statements(ON_TPU, w, resolver=resolver, var=var, strategy=tf("tf.distribute.TPUStrategy"),
                                   connect=tf("tf.config.experimental_connect_to_cluster"),
                                   initialize=tf("tf.tpu.experimental.initialize_tpu_system"))
    if t.always:
        return on_tpu
    return [templates.statement("if {use_tpu}:\n{i}{body}\nelse:\n{i}{var} = {default}()", w, use_tpu=w.text(t.use_tpu),
                                body=templates.block(on_tpu), var=var, default=tf("tf.distribute.get_strategy"))]


ON_TPU = '''{connect}({resolver})
{initialize}({resolver})
{var} = {strategy}({resolver})
'''


def params_text(t: TPUPlan, params, w) -> str:
    """The params TPUEstimator gave the model_fn and the training input: the user's, plus batch_size and use_tpu."""
    extra = ([("batch_size", w.text(t.train_batch_size))] if t.train_batch_size is not None else []) + [
        ("use_tpu", w.text(t.use_tpu))]
    if params is None or (isinstance(params, cst.Dict) and not params.elements):
        return "{" + ", ".join(f'"{k}": {v}' for k, v in extra) + "}"
    if isinstance(params, cst.Dict):
        inner = w.text(params)[1:-1].rstrip().rstrip(",")
        return "{" + inner + ", " + ", ".join(f'"{k}": {v}' for k, v in extra) + "}"
    return f"dict({w.text(params)}, " + ", ".join(f"{k}={v}" for k, v in extra) + ")"
