"""The notes a converted program reports: what changed and what to check (TFM303-TFM317, TFM301 drops).

Read from the plan once it converts (program_plan.py, helper_side.py): the optimizer with TF1's numbers,
the schedule and metrics mapped, the canned estimator or shim used, the strategy the model is built under,
what a parameter-server cluster trains on in TF2, and each RunConfig or EvalSpec argument that was dropped.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import plan_types
from tf2migrate.rules.estimator.planning.canned_results import CannedMetric
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.planning.strategy import CONFIG_DROPPED


def conversion_notes(prog, ctx, kind, part, shim_plan) -> list:
    notes, model = list(prog.dropped), prog.model
    if prog.tpu is not None:
        notes.append((prog.call, "TFM317", None))
        notes += [(node, "TFM317", message) for node, message in prog.tpu.dropped]
    opt = model.optimizer if model is not None else None
    if opt is not None:
        notes.append((opt.node, "TFM304" if opt.needs_compat_class else "TFM303", None))
    sched = model.schedule if model is not None else None
    if sched is not None:
        notes.append((sched.node, "TFM305", None))
    metrics = {id(m.node): m for m in (model.metrics if model is not None else ())}.values()
    for m in metrics:  # once per call (a metric helper's call makes several); a canned estimator's own metric:
        notes.append((m.node, "TFM330" if isinstance(m, CannedMetric) else "TFM306", None))  # where its key is read
    if plan_types.canned(model):
        notes.append((prog.call, "TFM312", None))
    if shim_plan is not None:
        notes.append((shim_plan.node, "TFM313", None))
    if kind is not StrategyKind.NONE:
        where = prog.strategy_expr or (prog.cluster[2] if prog.cluster else prog.call)
        notes.append((where, "TFM309", f"the model is built in the scope of a {kind} strategy"))
    if kind is StrategyKind.PARAMETER_SERVER:
        notes.append((prog.cluster[2] if prog.cluster else prog.call, "TFM310", _trainers(prog)))
    for key, value in prog.config.items():
        if key in CONFIG_DROPPED:
            notes.append((value, "TFM315", f"RunConfig({key}=...) has no Keras equivalent here and was dropped"))
    for canonical, bound, _ in prog.specs.values():
        for key in ("name", "throttle_secs", "start_delay_secs"):
            if key in bound:
                notes.append((bound[key], "TFM301", f"EvalSpec({key}=...) dropped: Keras evaluates after fit "
                              "(or at every epoch end with validation_data)"))
    if model is not None:
        for node, _ in model.partitioners:
            notes.append((node, "TFM311", None if kind is StrategyKind.PARAMETER_SERVER else
                          "partitioner dropped: without a parameter server it changes no number"))
    return notes


def _trainers(prog):
    """TFM310's message with the numbers of a TF_CONFIG literal: how many TF1 tasks trained, how many TF2 will."""
    if not prog.cluster:
        return None
    jobs = {}
    for el in prog.cluster[2].elements:
        if isinstance(el, cst.DictElement) and isinstance(el.value, cst.Dict):
            for job in el.value.elements:
                if isinstance(job, cst.DictElement) and isinstance(job.key, cst.SimpleString) \
                        and isinstance(job.value, cst.List):
                    jobs[job.key.evaluated_value] = len(job.value.elements)
    chief, workers = jobs.get("chief", 0), jobs.get("worker", 0)
    if chief + workers == 0:
        return None
    return (f"TF1 trained on {chief + workers} task(s) (chief and workers); in TF2 the chief only coordinates, so "
            f"this cluster trains on {workers} worker(s): add {chief} worker(s) to keep {chief + workers} trainers")
