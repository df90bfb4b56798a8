"""Converting one Estimator program, or both branches of an if/else that chooses one: plan, render, splice.

`one` runs the three steps (program_plan.py, program_statements.py, splice.py) on one view of the module;
`both_branches` converts each branch of a switch as if the program had taken it, then merges the two
bodies into one if/else (switch.py). Each returns (body, notes, marks, conversions), body None when
something blocks: the blockers are then in the programs' `blockers`.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator import program_plan
from tf2migrate.rules.estimator.planning import branch_config
from tf2migrate.rules.estimator.planning import strategy
from tf2migrate.rules.estimator.planning.plan_types import StrategyKind
from tf2migrate.rules.estimator.program import analyze, built_elsewhere, unused_estimator
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.writing import program_statements, splice

NOTHING = (None, [], {}, [])


def one(prog, ctx, original, updated, steps_param=False, default_strategy=False, params_name=None) -> tuple:
    try:
        conv = program_plan.plan(prog, ctx, original, updated, steps_param, default_strategy, params_name)
        if conv is None:
            return _unused(prog, ctx, original)
        rendered = program_statements.render_body(conv, original, updated)
    except Unreadable as problem:
        prog.blockers.append(problem)
        return _unused(prog, ctx, original)
    if prog.blockers:
        return _unused(prog, ctx, original)
    body, marks = splice.splice(updated, rendered)
    notes = []  # ModeKeys kept beside the program become their strings after it, each with TFM340 (leftovers.py)
    body = built_elsewhere.imports_renamed(body, prog, conv.writer)  # `from model import build_estimator`
    body, marks = splice.insert_before(body, marks, prog.estimator, program_statements.builder_head(conv))
    return body, conv.notes + conv.runs.notes + notes, marks, [conv]


def both_branches(sw, progs, ctx) -> tuple:
    """Both branches converted, then merged into one `if/else` (switch.py)."""
    first = progs[0]
    if len({p.var for p in progs}) != 1:
        first.blockers.append(Unreadable(sw.original.test, "the branches of this `if` build Estimators of different "
                                         "names: convert by hand"))
        return NOTHING
    results = _each(sw, progs, ctx)
    why = _keras2(results) if results is not None else None
    if why is not None:  # one file, one Keras: a branch written for tf-keras makes the others so (TFM320)
        progs[:] = [analyze.find(view[0], ctx) for view in sw.views]
        for p in progs:
            p.keras2 = why
        results = _each(sw, progs, ctx)
    if results is None:
        return NOTHING
    try:
        body, marks = sw.merge([(body, marks) for body, _, marks, _ in results])
    except Unreadable as problem:
        progs[0].blockers.append(problem)
        return NOTHING
    notes, seen = [], set()
    for _, more, _, _ in results:
        for note in more:
            if (id(note[0]), note[1]) not in seen:
                seen.add((id(note[0]), note[1]))
                notes.append(note)
    return body, notes, marks, [c for _, _, _, convs in results for c in convs]


def _each(sw, progs, ctx):
    """Each branch's (body, notes, marks, conversions), converted as if taken; None when one is blocked."""
    first = progs[0]
    steps_param = any(p.tpu is not None and p.tpu.iterations is not None for p in progs)
    try:  # local or distributed: the local branch takes the default strategy, fed like the other one
        kinds = [strategy.choose(p, ctx) for p in progs]
        fed = [k.replicated and strategy.tf1_kind(p, ctx) == k for p, k in zip(progs, kinds)]
    except Unreadable as problem:
        first.blockers.append(problem)
        return None
    shared = next((p.strategy_var for p in progs if p.strategy_var), True)  # one name in both branches
    default = [shared if k is StrategyKind.NONE and any(fed) else False for k in kinds]
    for p, view in zip(progs, sw.views):  # `strategy = ...` in the branch: converted where it stands
        p.strategy_in_place = p.strategy_index is not None and sw.index <= p.strategy_index < sw.index + view[2]
    # `params = vars(args)` given to the plain Estimator: the TPU branch's params (with batch_size) take that name
    own = {p.bound["params"].value for p in progs if p.tpu is None and isinstance(p.bound.get("params"), cst.Name)}
    named = next(iter(own)) if len(own) == 1 and any(p.tpu is not None for p in progs) else None
    for p in progs:  # the one model class of both branches divides its loss by the TPU replicas (general_render)
        p.tpu_branch = any(o is not p and o.tpu is not None and not o.tpu.never for o in progs)
    branch_config.align(sw, progs)  # `save_checkpoints_steps` in one branch only: one fit saves as each did
    results, mixed = {}, len({p.model_fn_alias or _model_fn_name(p) for p in progs}) > 1
    # other models in other branches: each builder a name of its own, a model_fn's (top level) first
    for k in sorted(range(len(progs)), key=lambda k: _model_fn_name(progs[k]) is None):
        progs[k].reserved = {c.writer.build_name for *_, convs in results.values() for c in convs} if mixed else set()
        results[k] = one(progs[k], ctx, *sw.views[k][:2], steps_param, default[k], named)
    results = [results[k] for k in range(len(progs))]
    if any(body is None for body, _, _, _ in results) or any(p.blockers for p in progs):
        return None
    return results


def _unused(prog, ctx, original) -> tuple:
    """NOTHING, with the true cause first when the blocked Estimator is one the program never uses."""
    found = unused_estimator.cause(prog, ctx, original)
    if found is not None:
        prog.blockers.insert(0, found)
    return NOTHING


def _keras2(results) -> str:
    """The TFM320 message of a branch written for tf-keras when another is written for Keras 3, else None."""
    targets = {c.writer.target for *_, convs in results for c in convs}
    why = [message for _, notes, _, _ in results for _, code, message in notes if code == "TFM320"]
    return why[0] if len(targets) > 1 and why else None


def _model_fn_name(prog):
    fn = prog.bound.get("model_fn")
    return fn.value if hasattr(fn, "value") else None
