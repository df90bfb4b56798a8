"""Every use of the Estimator program's names outside the statements the conversion replaces.

`estimator.train/evaluate/predict(...)` and `train_and_evaluate(...)` are runs, rewritten in place; a
`hooks=[...]` list assigned to a name goes away with its run. Any other use of the estimator, its
specs, config, hooks or model_fn would be left pointing at something that no longer exists: a blocker.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.syntax.args import Unreadable

METHODS = {
    "train": ("input_fn", "hooks", "steps", "max_steps", "saving_listeners"),
    "evaluate": ("input_fn", "steps", "hooks", "checkpoint_path", "name"),
    "predict": ("input_fn", "predict_keys", "hooks", "checkpoint_path", "yield_single_examples"),
    "export_saved_model": ("export_dir_base", "serving_input_receiver_fn", "assets_extra", "as_text",
                           "checkpoint_path", "experimental_mode"),
    "export_savedmodel": ("export_dir_base", "serving_input_receiver_fn", "assets_extra", "as_text",
                          "checkpoint_path", "strip_default_attrs"),
}
EXPORTS = {"export_saved_model", "export_savedmodel"}


def assignment(stmt):
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign):
        a = stmt.body[0]
        if len(a.targets) == 1 and isinstance(a.targets[0].target, cst.Name):
            return a.targets[0].target.value, a.value
    return None, None


REPLICATE = ("tf.contrib.estimator.replicate_model_fn",)


def method_of(value, var: str):
    """`run` in `<var>.run(...)`: the method a call of the Estimator variable `var` names, else None."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
            and isinstance(value.func.value, cst.Name) and value.func.value.value == var:
        return value.func.attr.value
    return None


def input_fn_name(expr):
    """The same-file function an `input_fn` argument names: `train_input_fn` or the factory in `make_input_fn(...)`."""
    if isinstance(expr, cst.Call):
        expr = expr.func
    return expr.value if isinstance(expr, cst.Name) else None


def callee(expr, ctx):
    return ctx.resolve(expr.func)[1] if isinstance(expr, cst.Call) else None


def hook_lists(module, prog) -> None:
    """`hooks = [...]` passed as `hooks=hooks`: the list goes away with the run that uses it. The module is walked
    only when a top-level statement assigns a list or tuple (tensor2tensor's trainer_lib.py: none, 90 ms saved)."""
    lists = [(i, name, value) for i, (name, value) in enumerate(map(assignment, module.body))
             if name is not None and isinstance(value, (cst.List, cst.Tuple))]
    if not lists:
        return
    names = set()

    class _V(cst.CSTVisitor):
        def visit_Arg(self, node):
            if node.keyword is not None and node.keyword.value == "hooks" and isinstance(node.value, cst.Name):
                names.add(node.value.value)

    module.visit(_V())
    for i, name, value in lists:
        if name in names:
            prog.hook_lists[name] = value
            prog.removed.add(i)


def runs(module, prog, ctx) -> None:
    """Statements that call `train_and_evaluate` or the estimator's train/evaluate/predict."""
    for i, stmt in enumerate(module.body):
        if i in prog.removed or i == prog.estimator or i == prog.model_fn_index:
            continue
        finder = Uses(prog, ctx)
        stmt.visit(finder)
        if finder.runs:
            prog.runs[i] = stmt
        prog.train_calls += sum((2 if id(c) in finder.repeated else 1) for c in finder.runs
                                if isinstance(c.func, cst.Attribute) and c.func.attr.value == "train")
        prog.export_calls += [c for c in finder.runs if isinstance(c.func, cst.Attribute) and c.func.attr.value in EXPORTS]
        for call in finder.runs:
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in EXPORTS:
                continue  # its serving_input_receiver_fn is no input function
            for arg in [a for c in [call, *inline_specs(call, ctx)] for a in c.args]:
                value = arg.value.body if isinstance(arg.value, cst.Lambda) else arg.value  # lambda: fn(x, y)
                if (arg.keyword is None or arg.keyword.value == "input_fn") and input_fn_name(value):
                    prog.input_fns.add(input_fn_name(value))
        prog.blockers.extend(finder.problems)


def inline_specs(call, ctx) -> list:
    """`train_and_evaluate(est, train_spec=TrainSpec(...), eval_spec=EvalSpec(...))`: the spec calls written in it."""
    if ctx.resolve(call.func)[1] != "tf.estimator.train_and_evaluate":
        return []
    return [a.value for a in call.args if isinstance(a.value, cst.Call)
            and ctx.resolve(a.value.func)[1] in ("tf.estimator.TrainSpec", "tf.estimator.EvalSpec")]


class Uses(cst.CSTVisitor):
    """Collects run calls and flags every other use of the estimator, its specs, config or model_fn (`prog`:
    program/analyze.Program, not imported: analyze imports this module)."""

    def __init__(self, prog, ctx) -> None:
        self.prog, self.ctx = prog, ctx
        self.runs: list = []
        self.problems: list = []
        self.owned = {prog.var, *prog.specs, *prog.hooks, *prog.hook_lists, *prog.exporters} | {
            e.value for e in (prog.bound.get("model_fn"), prog.bound.get("config")) if isinstance(e, cst.Name)}
        if prog.closure is not None and isinstance(prog.closure.site, cst.Name):
            self.owned.discard(prog.closure.site.value)  # `model_fn = builder(...)` now returns the model's builder
        if prog.strategy_var:
            self.owned.add(prog.strategy_var)
        if prog.model_fn_alias:
            self.owned.add(prog.model_fn_alias)
        if prog.builder is not None:
            self.owned.add(prog.builder.fn.name.value)
        self._ok: set = set()
        self._replicated: set = set()  # ids of names given to or bound from replicate_model_fn
        if getattr(prog, "replicated", None) is not None:  # the switch that becomes a MirroredStrategy (replicate.py)
            self._ok.update(prog.replicated.names)
        self.repeated: set = set()  # ids of run calls that may run more than once (in a loop or a nested def)
        self._loops = 0

    def visit_Call(self, node: cst.Call) -> None:
        if self._loops:
            self.repeated.add(id(node))
        func = node.func
        if callee(node, self.ctx) == "tf.estimator.train_and_evaluate":
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
        elif callee(node, self.ctx) in ("tf.estimator.experimental.stop_if_no_decrease_hook",
                                            "tf.estimator.experimental.stop_if_no_increase_hook"):
            if node.args and isinstance(node.args[0].value, cst.Name):
                self._ok.add(id(node.args[0].value))

    def _enter(self, node) -> None:
        self._loops += 1

    def _leave(self, node) -> None:
        self._loops -= 1

    # An `if` runs its body at most once: only these may repeat a train call (max_steps then means less).
    visit_For = visit_While = visit_FunctionDef = visit_Lambda = visit_ClassDef = _enter
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _enter
    leave_For = leave_While = leave_FunctionDef = leave_Lambda = leave_ClassDef = _leave
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _leave

    def visit_Assign(self, node: cst.Assign) -> None:
        if isinstance(node.value, cst.Call) and callee(node.value, self.ctx) in REPLICATE:
            self._replicated.update(id(t.target) for t in node.targets)  # `model_function = replicate_model_fn(..)`
            self._replicated.update(id(a.value) for a in node.value.args)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.owned and id(node) not in self._ok and id(node) in self._replicated:
            self.problems.append(Unreadable(node, f"`{node.value}` goes through tf.contrib.estimator."
                                            "replicate_model_fn (TF1's multi-GPU towers, with TowerOptimizer in the "
                                            "model_fn), which TF2 lacks: a tf.distribute.MirroredStrategy does it; "
                                            "give it as RunConfig(train_distribute=...) (what the conversion reads), "
                                            "or convert by hand"))
        elif node.value in self.owned and id(node) not in self._ok:
            self.problems.append(Unreadable(node, f"`{node.value}` is used in a way the Estimator conversion does "
                                            "not rewrite: convert this use by hand, then run tf2migrate again"))

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False  # `from trainer.model import build_estimator` is no use (built_elsewhere.imports_renamed)
