"""Find the Estimator program in a module and decide whether it converts as a whole.

The program is the top-level `Estimator(...)` assignment and everything it is built from or used by:
its `model_fn`, `RunConfig`, strategy, `TrainSpec`/`EvalSpec`, hooks, `train_and_evaluate` and the
`estimator.train/evaluate/predict` calls. Each name must be used only in ways the converter rewrites;
any other use would be left pointing at something that no longer exists, so it blocks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator import canned
from tf2migrate.rules.estimator.args import Unreadable, bind
from tf2migrate.rules.estimator.hooks import HOOK_NAMES
from tf2migrate.rules.estimator.model_fn import read_model_fn

ESTIMATOR_PARAMS = ("model_fn", "model_dir", "config", "params", "warm_start_from")
SPEC_PARAMS = {
    "tf.estimator.TrainSpec": ("input_fn", "max_steps", "hooks", "saving_listeners"),
    "tf.estimator.EvalSpec": ("input_fn", "steps", "name", "hooks", "exporters", "start_delay_secs", "throttle_secs"),
}
METHODS = {
    "train": ("input_fn", "hooks", "steps", "max_steps", "saving_listeners"),
    "evaluate": ("input_fn", "steps", "hooks", "checkpoint_path", "name"),
    "predict": ("input_fn", "predict_keys", "hooks", "checkpoint_path", "yield_single_examples"),
}


@dataclass
class Program:
    estimator: int  # index of the `est = Estimator(...)` statement
    var: str
    call: cst.Call
    bound: dict
    model: object = None  # model_fn.ModelPlan or canned.CannedPlan
    model_fn_index: Optional[int] = None
    config: dict = field(default_factory=dict)  # RunConfig keyword -> expression
    config_node: Optional[cst.CSTNode] = None
    strategy_expr: Optional[cst.BaseExpression] = None
    strategy_var: Optional[str] = None
    specs: dict = field(default_factory=dict)  # var -> (canonical, bound, node)
    removed: set = field(default_factory=set)  # statement indices that disappear
    runs: dict = field(default_factory=dict)  # statement index -> the original statement with runs in it
    hooks: dict = field(default_factory=dict)  # var -> hook call, for hooks assigned to a name
    hook_lists: dict = field(default_factory=dict)  # var -> list literal passed as hooks=var
    defs: dict = field(default_factory=dict)  # top-level function and class names -> node
    values: dict = field(default_factory=dict)  # top-level `name = value` (last one wins)
    input_fns: set = field(default_factory=set)  # names of the input functions, respelled for TF2
    cluster: Optional[tuple] = None  # (has_ps, has_worker, node) of a TF_CONFIG dict literal
    blockers: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _assign(stmt):
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        a = stmt.body[0]
        if len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name):
            return a.targets[0].target.value, a.value
    return None, None


def _canonical(expr, ctx):
    return ctx.resolve(expr.func)[1] if isinstance(expr, cst.Call) else None


def find(module: cst.Module, ctx) -> Optional[Program]:
    """The first Estimator program of the module (None if there is none)."""
    prog = None
    for i, stmt in enumerate(module.body):
        name, value = _assign(stmt)
        canonical = _canonical(value, ctx) if value is not None else None
        if canonical == "tf.estimator.Estimator" or canonical in canned.CANNED:
            prog = Program(i, name, value, {})
            break
    if prog is None:
        return None
    try:
        prog.bound = bind(prog.call, canned.CANNED.get(_canonical(prog.call, ctx), ESTIMATOR_PARAMS), "Estimator")
    except Unreadable as problem:
        prog.blockers.append(problem)
        return prog
    _read_module(module, prog, ctx)
    return prog


def _read_module(module, prog: Program, ctx) -> None:
    for i, stmt in enumerate(module.body):
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            prog.defs[stmt.name.value] = stmt
        name, value = _assign(stmt)
        if name is not None:
            prog.values[name] = value
        if isinstance(value, cst.Dict):
            _cluster(value, prog)
        canonical = _canonical(value, ctx) if value is not None else None
        if canonical in HOOK_NAMES:
            prog.hooks[name] = value
            prog.removed.add(i)
        elif canonical in SPEC_PARAMS:
            try:
                prog.specs[name] = (canonical, bind(value, SPEC_PARAMS[canonical], canonical), value)
                prog.removed.add(i)
                fn = prog.specs[name][1].get("input_fn")
                if isinstance(fn, cst.Name):
                    prog.input_fns.add(fn.value)
            except Unreadable as problem:
                prog.blockers.append(problem)
    config = prog.bound.get("config")
    if isinstance(config, cst.Name):
        for i, stmt in enumerate(module.body):
            name, value = _assign(stmt)
            if name == config.value and _canonical(value, ctx) == "tf.estimator.RunConfig":
                prog.config_node = value
                prog.removed.add(i)
    elif isinstance(config, cst.Call) and _canonical(config, ctx) == "tf.estimator.RunConfig":
        prog.config_node = config
    elif config is not None:
        prog.blockers.append(Unreadable(config, "Estimator config that is not a RunConfig: convert by hand"))
    if prog.config_node is not None:
        from tf2migrate.rules.estimator.strategy import CONFIG_PARAMS

        try:
            prog.config = bind(prog.config_node, CONFIG_PARAMS, "RunConfig")
        except Unreadable as problem:
            prog.blockers.append(problem)
    _strategy(module, prog, ctx)
    _model(module, prog, ctx)
    _hook_lists(module, prog)
    _runs(module, prog, ctx)


def _hook_lists(module, prog) -> None:
    """`hooks = [...]` passed as `hooks=hooks`: the list goes away with the run that uses it."""
    names = set()

    class _V(cst.CSTVisitor):
        def visit_Arg(self, node):
            if node.keyword is not None and node.keyword.value == "hooks" and isinstance(node.value, cst.Name):
                names.add(node.value.value)

    module.visit(_V())
    for i, stmt in enumerate(module.body):
        name, value = _assign(stmt)
        if name in names and isinstance(value, (cst.List, cst.Tuple)):
            prog.hook_lists[name] = value
            prog.removed.add(i)


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
            name, value = _assign(stmt)
            if name == wanted and isinstance(value, cst.Call):
                prog.strategy_var, expr = name, value
                prog.removed.add(i)
    prog.strategy_expr = expr


def _model(module, prog, ctx) -> None:
    if _canonical(prog.call, ctx) in canned.CANNED:
        prog.model = canned.read(prog.call, prog.bound, ctx, prog.values)
        return
    fn = prog.bound.get("model_fn")
    if not isinstance(fn, cst.Name) or not isinstance(prog.defs.get(fn.value), cst.FunctionDef):
        prog.blockers.append(Unreadable(fn or prog.call, "model_fn is not a function defined at the top level "
                                        "of this file: convert by hand"))
        return
    for i, stmt in enumerate(module.body):
        if stmt is prog.defs[fn.value]:
            prog.model_fn_index = i
    prog.model = read_model_fn(prog.defs[fn.value], ctx)


def _runs(module, prog, ctx) -> None:
    """Statements that call `train_and_evaluate` or the estimator's train/evaluate/predict."""
    for i, stmt in enumerate(module.body):
        if i in prog.removed or i == prog.estimator or i == prog.model_fn_index:
            continue
        finder = _Uses(prog, ctx)
        stmt.visit(finder)
        if finder.runs:
            prog.runs[i] = stmt
        for call in finder.runs:
            for arg in call.args:
                if (arg.keyword is None or arg.keyword.value == "input_fn") and isinstance(arg.value, cst.Name):
                    prog.input_fns.add(arg.value.value)
        prog.blockers.extend(finder.problems)


class _Uses(cst.CSTVisitor):
    """Collects run calls and flags every other use of the estimator, its specs, config or model_fn."""

    def __init__(self, prog: Program, ctx) -> None:
        self.prog, self.ctx = prog, ctx
        self.runs: list = []
        self.problems: list = []
        self.owned = {prog.var, *prog.specs, *prog.hooks, *prog.hook_lists} | {
            e.value for e in (prog.bound.get("model_fn"), prog.bound.get("config")) if isinstance(e, cst.Name)}
        if prog.strategy_var:
            self.owned.add(prog.strategy_var)
        self._ok: set = set()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if _canonical(node, self.ctx) == "tf.estimator.train_and_evaluate":
            self.runs.append(node)
            self._ok.update(id(a.value) for a in node.args)
        elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self.prog.var:
            if func.attr.value in METHODS:
                self.runs.append(node)
                self._ok.add(id(func.value))
                for arg in node.args:
                    if arg.keyword is not None and arg.keyword.value == "hooks" and isinstance(arg.value, cst.List):
                        self._ok.update(id(e.value) for e in arg.value.elements)
                    elif arg.keyword is not None and arg.keyword.value == "hooks":
                        self._ok.add(id(arg.value))
        elif _canonical(node, self.ctx) in ("tf.estimator.experimental.stop_if_no_decrease_hook",
                                            "tf.estimator.experimental.stop_if_no_increase_hook"):
            if node.args and isinstance(node.args[0].value, cst.Name):
                self._ok.add(id(node.args[0].value))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.owned and id(node) not in self._ok:
            self.problems.append(Unreadable(node, f"`{node.value}` is used in a way the Estimator conversion does "
                                            "not rewrite: convert this use by hand, then run tf2migrate again"))

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False
