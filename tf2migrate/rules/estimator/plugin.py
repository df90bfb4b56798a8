"""The Estimator plugin: one `leave_module` hook that converts the whole program or nothing.

Reading (analyze, model_fn) and writing (emit, runs) may both find a blocker; only when there is none
is TFM301 reported and the new module body built, statement by statement: the statements of the
Estimator program are replaced, every other statement is kept as the other rules left it.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.estimator import analyze, assemble, codes, emit, general, general_render, render, runs, scope, shim
from tf2migrate.rules.estimator import strategy, switch, tpu, uses
from tf2migrate.rules.estimator import helper_module, other_module, other_module_report, target
from tf2migrate.rules.estimator.args import Unreadable
from tf2migrate.rules.estimator.model_fn import ModelPlan
from tf2migrate.rules.idle import estimator_may_act


class EstimatorToKeras(Plugin):
    infos = codes.INFOS
    wake = "estimator"

    def leave_module(self, original: cst.Module, updated: cst.Module):
        ctx = self.ctx
        if ctx.package is None and ctx.tree is not None and not estimator_may_act(ctx.tree, ctx.imports):
            return updated  # no Estimator call, no helper's Estimator trained here (rules/idle.py)
        view, flat, sw, progs = (original, updated), None, None, []
        prog = analyze.find(original, ctx)
        if prog is None:  # not at the top level: in `def main():`, in an if/else, or only reported
            flat = scope.flatten(original, updated, analyze.builds_estimator(original, ctx))
            view = (flat.original, flat.updated) if flat else view
            prog = analyze.find(view[0], ctx)
        if prog is None:
            sw = switch.find(*view, analyze.builds_estimator(original, ctx))
        elif switch.find_strategy(*view, prog) is not None:  # the strategy is chosen by an if/else
            sw = switch.find_strategy(*view, prog)
        if sw is not None:
            progs = [analyze.find(v[0], ctx) for v in sw.views]
            prog = progs[0] if None not in progs else None
            other_module.not_in_a_switch(progs)
        if prog is None:  # a helper another module trains (helper_module.py), or one it could not read
            done = helper_module.convert(self, original, updated)
            if done is not None or other_module_report.report_foreign(ctx):
                return done or updated
            sw, prog = None, analyze.elsewhere(original, ctx)
        if prog is None or not ctx.allowed(other_module.call_of(prog), "TFM301"):
            return updated
        saved = ctx.emit.snapshot()
        if sw is not None:
            body, notes, marks = self._convert_switch(sw, progs)
        else:
            progs = [prog]
            body, notes, marks = self._convert_one(prog, *view)
        blockers = [other_module.placed(p, one, ctx) for one in progs for p in one.blockers]
        if blockers or body is None:
            ctx.emit.restore(saved)  # nothing converted: no import is needed
            for problem in assemble.one_per_line(blockers, ctx):
                ctx.report(problem.node, problem.code or "TFM302", problem.message, fixable=False)
            return updated
        if not all(ctx.report(other_module.call_of(one), "TFM301") for one in progs):
            return updated
        for node, code, message in notes:
            if other_module.external(prog) is not None and not other_module.own(ctx, node):
                continue  # about the model_fn: reported in its own module
            ctx.report(node, code, message, severity=Severity.WARNING if code == "TFM320" else Severity.INFO)
        body = flat.unflatten(updated, body, marks) if flat else body
        if any(code == "TFM320" for _, code, _ in notes):
            body = target.with_legacy_switch(body, updated)
        return updated.with_changes(body=body)

    def _convert_one(self, prog, original, updated, steps_param=False, default_strategy=False):
        try:
            return self._convert(prog, original, updated, steps_param, default_strategy)
        except Unreadable as problem:
            prog.blockers.append(problem)
            return None, [], {}

    def _convert_switch(self, sw, progs):
        """Both branches converted, then merged into one `if/else` (switch.py)."""
        if len({(p.var, p.model_fn_alias or getattr(p.bound.get("model_fn"), "value", None)) for p in progs}) != 1:
            progs[0].blockers.append(Unreadable(sw.original.test, "the branches of this `if` build Estimators of "
                                                "different names or model_fns: convert by hand"))
            return None, [], {}
        steps_param = any(p.tpu is not None and p.tpu.iterations is not None for p in progs)
        try:  # local or distributed: the local branch takes the default strategy, fed like the other one
            kinds = [strategy.choose(p, self.ctx) for p in progs]
            fed = [k in ("mirrored", "multi-worker") and strategy.tf1_kind(p, self.ctx) == k for p, k in zip(progs, kinds)]
        except Unreadable as problem:
            progs[0].blockers.append(problem)
            return None, [], {}
        shared = next((p.strategy_var for p in progs if p.strategy_var), True)  # one name in both branches
        default = [shared if k == "none" and any(fed) else False for k in kinds]
        for p, view in zip(progs, sw.views):  # `strategy = ...` in the branch: converted where it stands
            p.strategy_in_place = p.strategy_index is not None and sw.index <= p.strategy_index < sw.index + view[2]
        results = [self._convert_one(p, *view[:2], steps_param, d) for p, view, d in zip(progs, sw.views, default)]
        if any(body is None for body, _, _ in results) or any(p.blockers for p in progs):
            return None, [], {}
        try:
            body, marks = sw.merge([(body, marks) for body, _, marks in results])
        except Unreadable as problem:
            progs[0].blockers.append(problem)
            return None, [], {}
        notes, seen = [], set()
        for _, more, _ in results:
            for note in more:
                if (id(note[0]), note[1]) not in seen:
                    seen.add((id(note[0]), note[1]))
                    notes.append(note)
        return body, notes, marks

    def _convert(self, prog, original, updated, steps_param=False, default_strategy=False):
        ctx = self.ctx
        model = prog.model
        shim_plan = None
        if model is not None and model.forward_blockers:
            shim_plan = shim.plan(model, ctx)
        general_plan = self._general(prog, model) if shim_plan is None else None
        if general_plan is not None:
            model = prog.model = general_plan
        elif model is not None:
            prog.blockers.extend(model.forward_blockers if shim_plan is None else [])
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
        named = default_strategy if isinstance(default_strategy, str) else None
        other_module.adapt(w)  # a helper of another module: `model.build_model(...)`
        self.writer = w  # read by helper_module.py, which converts that helper's module alike
        w.strategy_var = prog.strategy_var or named or w.fresh("strategy")
        w.resolver_var = w.fresh("cluster_resolver") if kind == "parameter-server" else None
        w.per_replica_input = kind in ("mirrored", "multi-worker") and strategy.tf1_kind(prog, ctx) == kind
        w.default_strategy = default_strategy  # the local branch of an if/else whose other branch distributes
        w.per_replica_input = w.per_replica_input or default_strategy
        w.steps_per_execution = steps_param or (prog.tpu is not None and prog.tpu.iterations is not None)
        w.target, why_keras2 = target.choose(ctx.selection.target, kind, shim_plan or general_plan, model, ctx,
                                             w.steps_per_execution)
        given = prog.bound.get("params")
        if prog.tpu is None and isinstance(given, cst.Name):
            w.params_var = given.value  # the program's own params dict serves the input functions too
        elif prog.tpu is not None or any(runs.takes_params(prog.defs.get(name)) for name in prog.input_fns):
            w.params_var = w.fresh("params") if runs.params_taken(original, prog) else "params"
        if prog.model_fn_index is not None:
            w.updated_model_fn = updated.body[prog.model_fn_index]
        r = runs.Runs(w)
        notes = list(getattr(model, "notes", [])) + codes.conversion_notes(prog, ctx, kind, part, shim_plan)
        if general_plan is not None:
            notes.insert(0, (general_plan.node, "TFM321", None))
        if why_keras2:
            notes.append((prog.call, "TFM320", why_keras2))
        new_body, carried, marks = [], None, {}  # marks: statement index -> where its output starts
        for i, stmt in enumerate(updated.body):
            marks[i] = len(new_body)
            orig = original.body[i]
            if prog.strategy_in_place and i == prog.strategy_index:
                new_body += assemble.with_lines(w.parse(self._strategy_in_place(prog, w, kind)), stmt)
                continue
            if i in prog.removed or assemble.v1_switch(orig, ctx, notes):
                carried = carried if carried is not None else stmt.leading_lines
                continue
            if carried is not None:
                stmt = stmt.with_changes(leading_lines=carried)
                carried = None
            if i == prog.model_fn_index and general_plan is not None:
                parts = [general_render.model_class(general_plan, w), assemble.optimizers_compat(model, w),
                         general_render.build_function(general_plan, w)]
                new_body += assemble.with_lines(w.parse("\n\n".join(p.rstrip("\n") + "\n" for p in parts if p)), stmt)
            elif i == prog.model_fn_index:
                parts = [shim.layer_class(shim_plan, w) if shim_plan else "", assemble.optimizers_compat(model, w),
                         w.build_function(shim.construct(shim_plan) if shim_plan else None), w.predictions_function(),
                         w.examples_function()]
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
                new_body.append(assemble.render_kept(stmt, prog, ctx, notes, orig))
        marks[len(updated.body)] = len(new_body)
        if prog.blockers:
            return None, [], {}
        notes += r.notes
        new_body = other_module.imports_renamed(new_body, prog, w)  # `from model import build_estimator`
        if prog.model_fn_index is None and other_module.external(prog) is None:
            # a canned estimator: the builder goes just before the model is made
            head = w.parse(w.build_function())
            two = [cst.EmptyLine(), cst.EmptyLine()]
            head[0] = head[0].with_changes(leading_lines=two)
            new_body[model_at] = new_body[model_at].with_changes(leading_lines=two)
            new_body[model_at:model_at] = head
            marks = {i: at + len(head) if at > model_at else at for i, at in marks.items()}
        return new_body, notes, marks

    def _general(self, prog, model):
        """The general plan (general.py) when the model_fn blocks both other paths and the program runs without
        a strategy or TPU; its reason is added to the blockers when it does not apply either."""
        if not isinstance(model, ModelPlan) or not (model.blockers or model.forward_blockers) or prog.blockers \
                or prog.tpu is not None or not self.ctx.allowed(model.node, "TFM321"):
            return None
        if any(isinstance(p.node, cst.Parameters) for p in model.blockers):  # not (features, labels, mode, params)
            return None
        try:
            if strategy.choose(prog, self.ctx) != "none":
                raise Unreadable(model.node.name, "the model_fn converts only to a Keras Model subclass "
                                 "(TFM321), which this converter writes for a program without a distribution "
                                 "strategy: convert by hand")
            return general.plan(model, self.ctx)
        except Unreadable as problem:
            problem.code = problem.code or "TFM302"
            model.blockers.append(problem)
            return None

    def _more_blockers(self, prog, original) -> None:
        """When the model blocks, still read the runs and hooks so that every blocking line is reported."""
        r = runs.Runs(emit.Writer(prog, self.ctx, original, "none"))
        for i in prog.runs:
            try:
                self._run_statements(original.body[i], original.body[i], r, r.w)
            except Unreadable as problem:
                prog.blockers.append(problem)

    def _strategy_in_place(self, prog, w, kind) -> str:
        """The strategy made where the program chose it: in an if/else branch, or `S = X if test else None`."""
        default = f"{w.tf('tf.distribute.get_strategy')}()"
        made = strategy.statements(kind, w.strategy_var, prog, self.ctx, w, None)
        if prog.strategy_test is None:
            return "\n".join(made) or f"{w.strategy_var} = {default}"
        if len(made) != 1 or "\n" in made[0]:
            raise Unreadable(prog.strategy_test, "a strategy chosen in an expression that needs several statements "
                             "in TF2: write the choice as an if/else")
        var, _, value = made[0].partition(" = ")
        line = f"{var} = {value} if {w.text(prog.strategy_test)} else {default}"
        if len(line) + len(w.indent) <= 100:  # (it usually stands in main())
            return line
        return f"{var} = (\n{w.indent}{value} if {w.text(prog.strategy_test)} else {default}\n)"

    def _model_statements(self, prog, w, kind, part) -> str:
        ctx, i = self.ctx, w.indent
        var = w.strategy_var
        part_text = strategy.render_partitioner(part, ctx, w.tf) if part is not None and kind == "parameter-server" \
            else None
        lines = []
        seed = prog.config.get("tf_random_seed")
        if seed is not None:
            lines.append(f"{w.tf('tf.random.set_seed')}({w.text(seed)})")
        if not prog.strategy_in_place:  # else made where the program chose it
            lines += strategy.statements(kind, var, prog, ctx, w, part_text)
            if w.default_strategy:
                lines.append(f"{var} = {w.tf('tf.distribute.get_strategy')}()")
        given = prog.bound.get("params")
        value = tpu.params_text(prog.tpu, given, w) if prog.tpu is not None \
            else w.text(render.one_per_line(given, i)) if given is not None else None
        own = prog.tpu is None and isinstance(given, cst.Name) and given.value == w.params_var
        if w.params_var is not None and not own:  # the input functions take the params too
            lines.append(f"{w.params_var} = {value or '{}'}")
            value = w.params_var if value is not None else None
        args = [value] if value is not None else []
        if prog.tpu is not None and prog.tpu.iterations is not None:
            args.append(f"steps_per_execution={w.text(prog.tpu.iterations)}")
        make = f"{w.model_var} = {w.build_name}({', '.join(args)})"
        lines.append(f"with {var}.scope():\n{i}{make}" if kind != "none" or prog.strategy_in_place else make)
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
            if value.func.attr.value in uses.EXPORTS:
                raise Unreadable(value, "the path export_saved_model returns: model.save returns nothing; save "
                                 "the model by hand where the program needs its path")
            *prelude, last = w.parse(r.method(value))  # statements: an expression may span lines
            assigned = last.with_changes(body=[cst.Assign([cst.AssignTarget(cst.Name(target))], last.body[0].value)])
            return assemble.with_lines([*prelude, assigned], stmt)
        replacer = assemble.ReplaceRuns(prog_var=r.prog.var, runs=r, ctx=self.ctx)
        return [orig.visit(replacer).with_changes(leading_lines=stmt.leading_lines)]
