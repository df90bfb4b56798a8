"""The Estimator plugin: one `leave_module` hook that converts the whole program or nothing.

Reading (analyze, model_fn) and writing (emit, runs) may both find a blocker; only when there is none
is TFM301 reported and the new module body built, statement by statement: the statements of the
Estimator program are replaced, every other statement is kept as the other rules left it.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.estimator import analyze, assemble, codes, emit, runs, scope, shim, strategy, target, uses
from tf2migrate.rules.estimator.args import Unreadable


class EstimatorToKeras(Plugin):
    infos = codes.INFOS
    wake = "estimator"

    def leave_module(self, original: cst.Module, updated: cst.Module):
        ctx = self.ctx
        prog, flat = analyze.find(original, ctx), None
        if prog is None:  # not at the top level: in `def main():`, or somewhere it only gets reported
            flat = scope.flatten(original, updated, lambda value: analyze.is_estimator(value, ctx))
            prog = analyze.find(flat.original, ctx) if flat else analyze.elsewhere(original, ctx)
        if prog is None or not ctx.allowed(prog.call, "TFM301"):
            return updated
        saved = ctx.emit.snapshot()
        try:
            body, notes, marks = self._convert(prog, *((flat.original, flat.updated) if flat else (original, updated)))
        except Unreadable as problem:
            prog.blockers.append(problem)
            body = None
        if prog.blockers or body is None:
            ctx.emit.restore(saved)  # nothing converted: no import is needed
            for problem in assemble.one_per_line(prog.blockers, ctx):
                ctx.report(problem.node, problem.code or "TFM302", problem.message, fixable=False)
            return updated
        if not ctx.report(prog.call, "TFM301"):
            return updated
        for node, code, message in notes:
            ctx.report(node, code, message, severity=Severity.WARNING if code == "TFM320" else Severity.INFO)
        body = flat.unflatten(updated, body, marks) if flat else body
        if any(code == "TFM320" for _, code, _ in notes):
            body = target.with_legacy_switch(body, updated)
        return updated.with_changes(body=body)

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
            return None, [], {}
        kind = strategy.choose(prog, ctx)
        part = strategy.partitioner(prog, ctx, kind)
        for key in prog.config:
            if key in ("device_fn", "experimental_distribute", "protocol", "experimental_max_worker_delay_secs"):
                raise Unreadable(prog.config[key], f"RunConfig({key}=...) has no Keras equivalent: convert by hand")
        w = emit.Writer(prog, ctx, original, kind)
        w.target, why_keras2 = target.choose(ctx.selection.target, kind, shim_plan, model, ctx)
        w.strategy_var = prog.strategy_var or w.fresh("strategy")
        w.resolver_var = w.fresh("cluster_resolver") if kind == "parameter-server" else None
        w.per_replica_input = kind in ("mirrored", "multi-worker") and strategy.tf1_kind(prog, ctx) == kind
        if prog.model_fn_index is not None:
            w.updated_model_fn = updated.body[prog.model_fn_index]
        r = runs.Runs(w)
        notes = list(getattr(model, "notes", [])) + codes.conversion_notes(prog, ctx, kind, part, shim_plan)
        if why_keras2:
            notes.append((prog.call, "TFM320", why_keras2))
        new_body, carried, marks = [], None, {}  # marks: statement index -> where its output starts
        for i, stmt in enumerate(updated.body):
            marks[i] = len(new_body)
            orig = original.body[i]
            if i in prog.removed or assemble.v1_switch(orig, ctx, notes):
                carried = carried if carried is not None else stmt.leading_lines
                continue
            if carried is not None:
                stmt = stmt.with_changes(leading_lines=carried)
                carried = None
            if i == prog.model_fn_index:
                parts = [shim.layer_class(shim_plan, w) if shim_plan else "", assemble.optimizers_compat(model, w),
                         w.build_function(shim_plan.name if shim_plan else None), w.predictions_function()]
                new_body += assemble.with_lines(w.parse("\n\n".join(p.rstrip("\n") + "\n" for p in parts if p)), stmt)
            elif i == prog.estimator:
                model_at = len(new_body)
                new_body += assemble.with_lines(w.parse(self._model_statements(prog, w, kind, part)), stmt)
            elif i in prog.runs:
                try:
                    new_body += self._run_statements(orig, stmt, r, w)
                except Unreadable as problem:
                    prog.blockers.append(problem)
            elif assemble.unused_columns(orig, prog, w, original):
                carried = carried if carried is not None else stmt.leading_lines
            else:
                new_body.append(assemble.render_kept(stmt, prog, ctx))
        marks[len(updated.body)] = len(new_body)
        if prog.blockers:
            return None, [], {}
        notes += r.notes
        if prog.model_fn_index is None:  # a canned estimator: the builder goes just before the model is made
            head = w.parse(w.build_function())
            two = [cst.EmptyLine(), cst.EmptyLine()]
            head[0] = head[0].with_changes(leading_lines=two)
            new_body[model_at] = new_body[model_at].with_changes(leading_lines=two)
            new_body[model_at:model_at] = head
            marks = {i: at + len(head) if at > model_at else at for i, at in marks.items()}
        return new_body, notes, marks

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
        var = w.strategy_var
        part_text = strategy.render_partitioner(part, ctx, w.tf) if part is not None and kind == "parameter-server" \
            else None
        lines = []
        seed = prog.config.get("tf_random_seed")
        if seed is not None:
            lines.append(f"{w.tf('tf.random.set_seed')}({w.text(seed)})")
        lines += strategy.statements(kind, var, prog, ctx, w, part_text)
        params = prog.bound.get("params")
        make = f"{w.model_var} = {w.build_name}({w.text(params) if params is not None else ''})"
        lines.append(f"with {var}.scope():\n{i}{make}" if kind != "none" else make)
        return "\n".join(lines)

    def _run_statements(self, orig, stmt, r, w) -> list:
        small = orig.body[0] if isinstance(orig, cst.SimpleStatementLine) and len(orig.body) == 1 else None
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if self.ctx.resolve(call.func)[1] == "tf.estimator.train_and_evaluate":
                return assemble.with_lines(w.parse("\n".join(r.train_and_evaluate(call))), stmt)
            if isinstance(call.func, cst.Attribute) and call.func.attr.value in uses.METHODS:
                return assemble.with_lines(w.parse(r.method(call)), stmt)
        target, value = uses.assignment(orig)
        if target is not None and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) \
                and value.func.attr.value in uses.METHODS and value.func.value.deep_equals(cst.Name(r.prog.var)):
            *prelude, last = r.method(value).split("\n")
            return assemble.with_lines(w.parse("\n".join(prelude + [f"{target} = {last}"])), stmt)
        replacer = assemble.ReplaceRuns(prog_var=r.prog.var, runs=r, ctx=self.ctx)
        return [orig.visit(replacer).with_changes(leading_lines=stmt.leading_lines)]
