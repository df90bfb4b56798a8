"""The parts of an Estimator program, read from the module's top-level statements.

Once `analyze.find` has the `Estimator(...)` call, everything it is built from or used by is read here:
the RunConfig (and a TPU's), the strategy it names, a TF_CONFIG cluster literal, the TrainSpec/EvalSpec,
hooks and exporters assigned to names, the model (a model_fn, a canned estimator, or one of another
module), the runs and the serving functions. Statements that disappear with the conversion are collected
in `prog.removed`.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.idiomatic.model_fn import read_model_fn
from tf2migrate.rules.estimator.planning import canned, estimator_wrappers, exporters
from tf2migrate.rules.estimator.planning import keras_estimator
from tf2migrate.rules.estimator.planning import replicate, tpu
from tf2migrate.rules.estimator.planning.hooks import HOOK_NAMES
from tf2migrate.rules.estimator.program import closure_elsewhere, imported_model_fn
from tf2migrate.rules.estimator.program import model_fn_elsewhere, built_elsewhere
from tf2migrate.rules.estimator.reading import closures
from tf2migrate.rules.estimator.reading import uses
from tf2migrate.rules.estimator.reading.uses import assignment, callee
from tf2migrate.rules.estimator.syntax import kept_source
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

SPEC_PARAMS = {
    "tf.estimator.TrainSpec": ("input_fn", "max_steps", "hooks", "saving_listeners"),
    "tf.estimator.EvalSpec": ("input_fn", "steps", "name", "hooks", "exporters", "start_delay_secs", "throttle_secs"),
}


def read(module, prog, ctx) -> None:
    """Fill `prog` (analyze.Program) from the module's top-level statements; a part that cannot be read adds
    its blocker."""
    for i, stmt in enumerate(module.body):
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            prog.defs[stmt.name.value] = stmt
        name, value = assignment(stmt)
        if name is not None:
            prog.values[name] = value
        if isinstance(value, cst.Dict):
            _cluster(value, prog)
        canonical = callee(value, ctx) if value is not None else None
        if canonical in HOOK_NAMES:
            prog.hooks[name] = value
            prog.removed.add(i)
        elif canonical in exporters.EXPORTERS:
            prog.exporters[name] = value
            prog.export_calls.append(value)
            prog.removed.add(i)
        elif canonical in SPEC_PARAMS:
            try:
                prog.specs[name] = (canonical, bind(value, SPEC_PARAMS[canonical], canonical), value)
                prog.removed.add(i)
                fn = prog.specs[name][1].get("input_fn")
                fn = uses.input_fn_name(fn.body if isinstance(fn, cst.Lambda) else fn)
                if fn is not None:
                    prog.input_fns.add(fn)
            except Unreadable as problem:
                prog.blockers.append(problem)
    config = _replaced(prog.bound.get("config"), {"tf.estimator.RunConfig"} | tpu.RUN_CONFIGS, ctx)
    on_tpu = callee(prog.call, ctx) in tpu.ESTIMATORS
    configs = {"tf.estimator.RunConfig"} | (tpu.RUN_CONFIGS if on_tpu else set())
    if isinstance(config, cst.Name):
        for i, stmt in enumerate(module.body):
            name, value = assignment(stmt)
            value = _replaced(value, configs, ctx)
            if name == config.value and callee(value, ctx) in configs:
                prog.config_node = value
                prog.removed.add(i)
    elif isinstance(config, cst.Call) and callee(config, ctx) in configs:
        prog.config_node = config
    elif config is not None:
        prog.blockers.append(Unreadable(config, "Estimator config that is not a RunConfig: convert by hand"))
    tpu_config = {}
    if prog.config_node is not None:
        from tf2migrate.rules.estimator.planning.strategy import CONFIG_PARAMS

        try:
            if callee(prog.config_node, ctx) in tpu.RUN_CONFIGS:
                bound = bind(prog.config_node, tpu.RUN_CONFIG_PARAMS + CONFIG_PARAMS, "RunConfig")
                bound = tpu.named_tpu_config(module, bound, prog, ctx)  # `tpu_config=tpu_config`, assigned above
                prog.config, tpu_config = tpu.split_config(bound, ctx)
            else:
                prog.config = bind(prog.config_node, CONFIG_PARAMS, "RunConfig")
        except Unreadable as problem:
            prog.blockers.append(problem)
    if on_tpu:
        try:
            prog.tpu = tpu.plan(prog.bound, tpu_config)
        except Unreadable as problem:
            prog.blockers.append(problem)
    keras_estimator.lift_distribute_config(prog, ctx)  # DistributeConfig(train_distribute=S): S, as train_distribute
    _strategy(module, prog, ctx)
    _model(module, prog, ctx)
    estimator_wrappers.read(module, prog, ctx)  # `est = add_metrics(est, fn)`: the metrics join the model
    uses.hook_lists(module, prog)
    uses.runs(module, prog, ctx)
    for _, bound, _ in prog.specs.values():
        listed = bound.get("exporters")
        if isinstance(listed, (cst.List, cst.Tuple)):
            prog.export_calls += [e.value for e in listed.elements if isinstance(e.value, cst.Call)]
    exporters.serving_functions(module, prog, ctx)


def _replaced(value, configs, ctx):
    """`RunConfig(a=1).replace(b=2)` read as `RunConfig(a=1, b=2)`, the config it makes (tensorflow/models)."""
    func = value.func if isinstance(value, cst.Call) else None
    if isinstance(func, cst.Attribute) and func.attr.value == "replace" and isinstance(func.value, cst.Call) \
            and callee(func.value, ctx) in configs and all(a.keyword is not None for a in value.args):
        return func.value.with_changes(args=[*func.value.args, *value.args])
    return value


def _cluster(value: cst.Dict, prog) -> None:
    for el in value.elements:
        if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString) \
                and el.key.evaluated_value == "cluster" and isinstance(el.value, cst.Dict):
            jobs = {e.key.evaluated_value for e in el.value.elements
                    if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)}
            prog.cluster = ("ps" in jobs, "worker" in jobs, value)


def _strategy(module, prog, ctx) -> None:
    expr = prog.config.get("train_distribute")
    if isinstance(expr, cst.Name):
        wanted = expr.value
        for i, stmt in enumerate(module.body):
            name, value = assignment(stmt)
            if name == wanted and isinstance(value, cst.Call):
                prog.strategy_var, expr, prog.strategy_index = name, value, i
                prog.removed.add(i)
            elif name == wanted and isinstance(value, cst.Name) and value.value == "None":
                prog.strategy_var, expr, prog.strategy_index = name, None, i  # `strategy = None`: no strategy
                prog.removed.add(i)
            elif name == wanted and isinstance(value, cst.IfExp) and isinstance(value.body, cst.Call) \
                    and isinstance(value.orelse, cst.Name) and value.orelse.value == "None":
                # `strategy = MirroredStrategy() if gpus > 1 else None`: the same choice, None -> the default
                prog.strategy_var, expr, prog.strategy_index = name, value.body, i
                prog.strategy_in_place, prog.strategy_test = True, value.test
                prog.removed.add(i)
    prog.strategy_expr = expr


def _model(module, prog, ctx) -> None:
    if built_elsewhere.external(prog) is not None:
        model_fn_elsewhere.read_model(prog, ctx)
        return
    if prog.builder is None and (found := imported_model_fn.find(prog, ctx)) is not None:
        prog.builder = found  # `Estimator(model_fn=model.model_fn)`: converted as a helper of that module is
        imported_model_fn.read(prog, ctx)
        return
    if callee(prog.call, ctx) in canned.CANNED:
        prog.model = canned.read(prog.call, prog.bound, ctx, prog.values, prog.defs, module)
        return
    if callee(prog.call, ctx) in keras_estimator.MODEL_TO_ESTIMATOR:
        prog.model = keras_estimator.read(prog, module, ctx)
        return
    _follow_alias(module, prog)
    replicate.read(module, prog, ctx)  # `if multi_gpu: model_function = replicate_model_fn(model_fn, ...)`
    prog.closure = closures.find(module, prog)
    if prog.closure is not None:  # `model_fn=model_fn_builder(...)`: the general path converts it in the builder
        prog.model_fn_index = prog.closure.index
        prog.model = read_model_fn(prog.closure.model_fn, ctx, prog.defs)
        return
    fn = prog.bound.get("model_fn")
    if not isinstance(fn, cst.Name) or not isinstance(prog.defs.get(fn.value), cst.FunctionDef):
        why = imported_model_fn.not_given(prog, ctx) or ("model_fn is not a function defined at the top level of this "
                                                        "file: convert by hand")
        built = prog.values.get(fn.value) if isinstance(fn, cst.Name) else None
        if why.startswith("the model_fn is the closure"):  # of another module's builder (closure_elsewhere.py)
            why = closure_elsewhere.tpu_spec_to_estimator(prog, ctx, built) or why
            site = closure_elsewhere.site_index(module, prog, built)
            prog.removed.update([site] if site is not None else [])  # this finding is the one about that line
        prog.blockers.append(Unreadable(fn or prog.call, why))
        return
    for i, stmt in enumerate(module.body):
        if stmt is prog.defs[fn.value]:
            prog.model_fn_index = i
    prog.model = read_model_fn(prog.defs[fn.value], ctx, prog.defs)
    for name in prog.model.metric_fns:  # a TPU metric_fn only the model_fn used goes with it
        if kept_source.references(module, name) == 1:
            prog.removed.add(next(i for i, stmt in enumerate(module.body) if stmt is prog.defs[name]))


def _follow_alias(module, prog) -> None:
    """`model_function = model_fn; Estimator(model_fn=model_function)`: the model_fn is the function the alias
    names, when the alias is assigned once at the top level; that assignment goes away with the model_fn."""
    fn = prog.bound.get("model_fn")
    if not isinstance(fn, cst.Name) or fn.value in prog.defs:
        return
    found = [(i, value) for i, stmt in enumerate(module.body) for name, value in [assignment(stmt)] if name == fn.value]
    if len(found) != 1 or not isinstance(found[0][1], cst.Name):
        return
    i, target = found[0]
    if isinstance(prog.defs.get(target.value), cst.FunctionDef) and i < prog.estimator:
        prog.bound = {**prog.bound, "model_fn": target}
        prog.model_fn_alias = fn.value
        prog.removed.add(i)
