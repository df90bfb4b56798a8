"""Find the Estimator program in a module and decide whether it converts as a whole.

The program is the top-level `Estimator(...)` assignment and everything it is built from or used by:
its `model_fn`, `RunConfig`, strategy, `TrainSpec`/`EvalSpec`, hooks, `train_and_evaluate` and the
`estimator.train/evaluate/predict` calls. Each name must be used only in ways the converter rewrites;
any other use would be left pointing at something that no longer exists, so it blocks.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.rules.estimator.planning import canned, keras_estimator, tpu
from tf2migrate.rules.estimator.planning.plan_types import ModelPlan
from tf2migrate.rules.estimator.program import built_elsewhere, parts
from tf2migrate.rules.estimator.reading import builders
from tf2migrate.rules.estimator.reading.uses import assignment, callee
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind

ESTIMATOR_PARAMS = ("model_fn", "model_dir", "config", "params", "warm_start_from")


@dataclass
class Program:
    estimator: int  # index of the `est = Estimator(...)` statement
    var: str
    call: cst.Call
    bound: dict
    model: Optional[ModelPlan] = None  # plan_types.py: the idiomatic, canned or general path's plan
    model_fn_index: Optional[int] = None
    config: dict = field(default_factory=dict)  # RunConfig keyword -> expression
    config_node: Optional[cst.CSTNode] = None
    strategy_expr: Optional[cst.BaseExpression] = None
    strategy_var: Optional[str] = None
    specs: dict = field(default_factory=dict)  # var -> (canonical, bound, node)
    removed: set = field(default_factory=set)  # statement indices that disappear
    runs: dict = field(default_factory=dict)  # statement index -> the original statement with runs in it
    hooks: dict = field(default_factory=dict)  # var -> hook call, for hooks assigned to a name
    train_calls: int = 0  # estimator.train calls (one in a loop or block counts as several)
    hook_lists: dict = field(default_factory=dict)  # var -> list literal passed as hooks=var
    defs: dict = field(default_factory=dict)  # top-level function and class names -> node
    values: dict = field(default_factory=dict)  # top-level `name = value` (last one wins)
    input_fns: set = field(default_factory=set)  # names of the input functions, respelled for TF2
    cluster: Optional[tuple] = None  # (has_ps, has_worker, node) of a TF_CONFIG dict literal
    blockers: list = field(default_factory=list)
    strategy_index: Optional[int] = None  # the `strategy = ...` statement, when it is a statement of its own
    strategy_in_place: bool = False  # that statement is in a branch of an if/else: converted where it stands
    strategy_test: Optional[cst.BaseExpression] = None  # `S = X if test else None`: X when test, else the default
    tpu: Optional[tpu.TPUPlan] = None  # for a TPUEstimator: its switch, batch sizes and TPU settings
    tpu_branch: bool = False  # the other branch of its `if use_tpu:` switch builds a TPUEstimator (convert.py)
    exporters: dict = field(default_factory=dict)  # var -> FinalExporter/LatestExporter call assigned to it
    export_calls: list = field(default_factory=list)  # every exporter call and export_saved_model run
    builder: Optional[builders.Builder] = None  # the helper that returns the Estimator, if it is built by one
    builder_site: Optional[cst.Call] = None  # the call of that helper (or the Estimator call itself)
    model_fn_alias: Optional[str] = None  # `model_function = model_fn`: the alias, which goes with the model_fn
    closure: Optional[object] = None  # closures.Closure: the model_fn is returned by a builder function
    replicated: Optional[object] = None  # replicate.Replicated: `if multi_gpu: fn = replicate_model_fn(model_fn)`
    reserved: set = field(default_factory=set)  # names another branch's model builder took (convert.py)
    dropped: list = field(default_factory=list)  # (node, code, message) of what goes with no note of its own
    keras2: Optional[str] = None  # why another branch of its choice is written for tf-keras (convert.py)


def find(module: cst.Module, ctx) -> Optional[Program]:
    """The Estimator program at the top level of the module (None if there is none there)."""
    prog, helpers = None, _helpers(module, ctx)
    for i, stmt in enumerate(module.body):
        name, value = assignment(stmt)
        helper = builders.called(value, helpers)
        if is_estimator(value, ctx) or helper is not None:
            if prog is None:
                prog = Program(i, name, helper.call if helper else value, {}, builder=helper)
                prog.builder_site = value
            else:
                prog.blockers.append(Unreadable(value, "a second Estimator in this file: the conversion handles one "
                                                "Estimator program per file; split the file or convert by hand"))
    if prog is None:
        return None
    try:
        canonical = callee(prog.call, ctx)
        signature = tpu.ESTIMATOR_PARAMS if canonical in tpu.ESTIMATORS else keras_estimator.PARAMS \
            if canonical in keras_estimator.MODEL_TO_ESTIMATOR else canned.CANNED.get(canonical, ESTIMATOR_PARAMS)
        prog.bound = bind(prog.call, signature, "Estimator")
        if prog.builder is not None:
            prog.bound = builders.substitute(prog.bound, prog.builder, prog.builder_site)
            if prog.builder.index is not None:  # None: a helper of another module (built_elsewhere.py)
                prog.removed.add(prog.builder.index)
    except Unreadable as problem:
        prog.blockers.append(problem)
        return prog
    parts.read(module, prog, ctx)
    return prog


def is_estimator(value, ctx) -> bool:
    canonical = callee(value, ctx) if value is not None else None
    return canonical == "tf.estimator.Estimator" or canonical in canned.CANNED or canonical in tpu.ESTIMATORS \
        or canonical in keras_estimator.MODEL_TO_ESTIMATOR


def builds_estimator(module: cst.Module, ctx):
    """`value -> bool`: an Estimator call, or a call of a helper of `module` that returns one."""
    helpers = _helpers(module, ctx)
    return lambda value: is_estimator(value, ctx) or builders.called(value, helpers) is not None


def _helpers(module, ctx) -> dict:
    """This module's Estimator helpers, and those of the package's other modules it imports."""
    return {**built_elsewhere.helpers(ctx), **builders.find(module, lambda value: is_estimator(value, ctx))}


def _builds_estimator(ctx) -> bool:
    return builds_estimator_in(ctx.tree, ctx.imports)


def builds_estimator_in(tree, imports) -> bool:
    """Does the module (its `ast`) call an Estimator class or `model_to_estimator` (`is_estimator`'s names)?"""
    for node in nodes(tree, ast.Call):
        canonical = imports.ast_canonical(node.func)
        if canonical == "tf.estimator.Estimator" or canonical in canned.CANNED or canonical in tpu.ESTIMATORS \
                or canonical in keras_estimator.MODEL_TO_ESTIMATOR:
            return True
    return False


def elsewhere(module, ctx) -> Optional[Program]:
    """An Estimator built somewhere `find` and `main_body.flatten` do not read: a program that only blocks, so
    that it is reported instead of silently left alone."""
    if ctx.tree is not None and not _builds_estimator(ctx):
        return None  # proved with the fast `ast` tree: no LibCST walk of the whole module
    found = []

    class _V(cst.CSTVisitor):
        def visit_Call(self, node):
            if is_estimator(node, ctx):
                found.append(node)

    module.visit(_V())
    if not found:
        return None
    prog = Program(-1, "", found[0], {})
    why = ("Estimator built in a nested block, an expression or several functions: the conversion handles a "
           "program at the top level of a module or directly in the body of one function, `if` without `else` or "
           "`with` (or of an `if`/`with` in that function); move it there or convert by hand")
    from tf2migrate.rules.estimator.reading.switch import chained

    helpers = builders.helper_returns(module, lambda value: is_estimator(value, ctx))
    helpers.update(chained(module, lambda value: is_estimator(value, ctx)))
    prog.blockers = [Unreadable(call, helpers.get(id(call), why)) for call in found]
    return prog
