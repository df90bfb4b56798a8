"""The Estimator plugin: one `leave_module` hook that converts the whole program or nothing.

Reading (analyze, model_fn) and writing (emit, runs) may both find a blocker; only when there is none
is TFM301 reported and the new module body built, statement by statement: the statements of the
Estimator program are replaced, every other statement is kept as the other rules left it.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.estimator import analyze, codes, emit, runs, shim, strategy
from tf2migrate.rules.estimator.args import Unreadable

TRIGGERS = {"Estimator", "DNNRegressor", "DNNClassifier", "LinearRegressor", "LinearClassifier"}
V1_SWITCHES = {"tf.disable_v2_behavior", "tf.disable_eager_execution"}


class EstimatorToKeras(Plugin):
    infos = codes.INFOS

    def triggers(self) -> set:
        return set(TRIGGERS)

    def leave_module(self, original: cst.Module, updated: cst.Module):
        ctx = self.ctx
        prog = analyze.find(original, ctx)
        if prog is None or not self._allowed(prog.call):
            return updated
        saved = (ctx.emit.new_alias, list(ctx.emit.new_from))
        try:
            body, notes = self._convert(prog, original, updated)
        except Unreadable as problem:
            prog.blockers.append(problem)
            body = None
        if prog.blockers or body is None:
            ctx.emit.new_alias, ctx.emit.new_from = saved  # nothing converted: no import is needed
            for problem in _one_per_line(prog.blockers, ctx):
                ctx.report(problem.node, problem.code or "TFM302", problem.message, fixable=False)
            return updated
        if not ctx.report(prog.call, "TFM301"):
            return updated
        for node, code, message in notes:
            ctx.report(node, code, message, severity=Severity.INFO)
        return updated.with_changes(body=body)

    def _allowed(self, node) -> bool:
        """TFM301 is selected and not suppressed on the Estimator line (checked before anything is built)."""
        ctx = self.ctx
        pos = ctx.positions.get(node)
        first, last = (pos.start.line, pos.end.line) if pos else (1, 1)
        return ctx.selection.enabled("TFM301") and not ctx.suppressions.covers("TFM301", first, last)

    def _convert(self, prog, original, updated):
        ctx = self.ctx
        model = prog.model
        shim_plan = None
        if model is not None and model.forward_blockers:
            shim_plan = shim.plan(model, ctx)
            if shim_plan is None:
                prog.blockers.extend(model.forward_blockers)
        if model is not None:
            prog.blockers.extend(model.blockers)
        if prog.blockers:
            self._more_blockers(prog, original)
            return None, []
        kind = strategy.choose(prog, ctx)
        part = strategy.partitioner(prog, ctx, kind)
        for key in prog.config:
            if key in ("device_fn", "experimental_distribute", "protocol", "experimental_max_worker_delay_secs"):
                raise Unreadable(prog.config[key], f"RunConfig({key}=...) has no Keras equivalent: convert by hand")
        w = emit.Writer(prog, ctx, original, kind)
        if prog.model_fn_index is not None:
            w.updated_model_fn = updated.body[prog.model_fn_index]
        r = runs.Runs(w)
        notes = list(getattr(model, "notes", [])) + codes.conversion_notes(prog, ctx, kind, part, shim_plan)
        new_body, carried = [], None
        for i, stmt in enumerate(updated.body):
            orig = original.body[i]
            if i in prog.removed or _v1_switch(orig, ctx, notes):
                carried = carried if carried is not None else stmt.leading_lines
                continue
            if carried is not None:
                stmt = stmt.with_changes(leading_lines=carried)
                carried = None
            if i == prog.model_fn_index:
                parts = [shim.layer_class(shim_plan, w) if shim_plan else "", optimizers_compat(model, w),
                         w.build_function(shim_plan.name if shim_plan else None), w.predictions_function()]
                new_body += _with_lines(w.parse("\n\n".join(p.rstrip("\n") + "\n" for p in parts if p)), stmt)
            elif i == prog.estimator:
                new_body += _with_lines(w.parse(self._model_statements(prog, w, kind, part)), stmt)
            elif i in prog.runs:
                new_body += self._run_statements(orig, stmt, r, w)
            else:
                new_body.append(render_kept(stmt, prog, ctx))
        notes += r.notes
        if prog.model_fn_index is None:  # a canned estimator: the builder goes before the model is made
            idx = _first_model_statement(new_body, w.model_var)
            head = w.parse(w.build_function())
            two = [cst.EmptyLine(), cst.EmptyLine()]
            head[0] = head[0].with_changes(leading_lines=two)
            if idx < len(new_body):
                new_body[idx] = new_body[idx].with_changes(leading_lines=two)
            new_body[idx:idx] = head
        return new_body, notes

    def _more_blockers(self, prog, original) -> None:
        """When the model blocks, still read the runs and hooks so that every blocking line is reported."""
        r = runs.Runs(emit.Writer(prog, self.ctx, original, "none"))
        for i in prog.runs:
            try:
                self._run_statements(original.body[i], original.body[i], r, r.w)
            except Unreadable as problem:
                prog.blockers.append(problem)

    def _model_statements(self, prog, w, kind, part) -> str:
        ctx, i = self.ctx, w.indent
        var = prog.strategy_var or w.fresh("strategy")
        part_text = strategy.render_partitioner(part, ctx, w.tf) if part is not None and kind == "parameter-server" \
            else None
        lines = []
        seed = prog.config.get("tf_random_seed")
        if seed is not None:
            lines.append(f"{w.tf('tf.random.set_seed')}({w.text(seed)})")
        lines += strategy.statements(kind, var, prog, ctx, w.tf, i, part_text, w.call)
        params = prog.bound.get("params")
        make = f"{w.model_var} = {w.build_name}({w.text(params) if params is not None else ''})"
        lines.append(f"with {var}.scope():\n{i}{make}" if kind != "none" else make)
        return "\n".join(lines)

    def _run_statements(self, orig, stmt, r, w) -> list:
        small = orig.body[0] if isinstance(orig, cst.SimpleStatementLine) and len(orig.body) == 1 else None
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if self.ctx.resolve(call.func)[1] == "tf.estimator.train_and_evaluate":
                return _with_lines(w.parse("\n".join(r.train_and_evaluate(call))), stmt)
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in analyze.METHODS:
                return _with_lines(w.parse(r.method(call)), stmt)
        replacer = _ReplaceRuns(prog_var=r.prog.var, runs=r, ctx=self.ctx)
        return [orig.visit(replacer).with_changes(leading_lines=stmt.leading_lines)]


def _with_lines(new: list, old) -> list:
    if new and hasattr(old, "leading_lines"):
        new[0] = new[0].with_changes(leading_lines=old.leading_lines)
    return new


class _ReplaceRuns(cst.CSTTransformer):
    """Rewrites `estimator.train/evaluate/predict(...)` nested in other statements (single-line forms)."""

    def __init__(self, prog_var, runs, ctx) -> None:
        self.var, self.runs, self.ctx = prog_var, runs, ctx

    def leave_Call(self, original, updated):
        func = original.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self.var \
                and func.attr.value in analyze.METHODS:
            text = self.runs.method(original)
            if "\n" in text:
                raise Unreadable(original, "this call needs several statements in TF2: move it to its own line")
            return cst.parse_expression(text)
        return updated


def _first_model_statement(body, model_var) -> int:
    for j, s in enumerate(body):
        code = cst.Module([s]).code
        if f"{model_var} = " in code or ".scope():" in code or "cluster_resolver = " in code:
            return j
    return len(body)


def optimizers_compat(model, w) -> str:
    from tf2migrate.rules.estimator.optimizers import compat_class

    opt = getattr(model, "optimizer", None)
    return compat_class(w.tf("tf"), w.indent) if opt is not None and opt.needs_compat_class else ""


def render_kept(stmt, prog, ctx):
    from tf2migrate.rules.estimator.render import respell

    if isinstance(stmt, cst.FunctionDef) and stmt.name.value in prog.input_fns:
        return respell(stmt, ctx)
    columns = getattr(prog.model, "columns_name", None)
    if columns is not None and analyze._assign(stmt)[0] == columns.value:
        return respell(stmt, ctx)
    return stmt


def _v1_switch(stmt, ctx, notes) -> bool:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr):
        value = stmt.body[0].value
        if isinstance(value, cst.Call) and ctx.resolve(value.func)[1] in V1_SWITCHES:
            notes.append((value, "TFM301", "TF1 graph mode switch removed: Keras runs eagerly"))
            return True
    return False


def _one_per_line(problems, ctx) -> list:
    seen, out = set(), []
    roots = [p for p in problems if not getattr(p, "cascade", False)]
    for p in roots or problems:
        pos = ctx.positions.get(p.node)
        line = pos.start.line if pos else 0
        if line not in seen:
            seen.add(line)
            out.append(p)
    return out
