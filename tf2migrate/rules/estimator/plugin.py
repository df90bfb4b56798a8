"""The Estimator plugin: one `leave_module` hook that converts the whole program or nothing.

It finds the program: at the top level, in `main()` (main_body.py), chosen by an if/else (switch.py), or a
helper another module trains (helper_side.py). Reading (analyze, model_fn) and converting (convert.py:
plan, render, splice) may both find a blocker; only when there is none is TFM301 reported and the new
module body returned: the statements of the Estimator program replaced, every other one kept as the
other rules left it.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.estimator import codes, failures
from tf2migrate.rules.estimator.package import idle_neighbours


class EstimatorToKeras(Plugin):
    infos = codes.INFOS
    writer = None  # the last program's writer (keras_source.Writer): helper_side.py converts another module alike
    converted = False  # this module's body was rewritten (so check_output reads the output)
    models: frozenset = frozenset()  # the names of the Keras models it made (`model`)

    def reads_whole_module(self) -> bool:
        """With package neighbours too, only where it may act (idle_neighbours.py): others take the splice path."""
        ctx = self.ctx
        if "estimator-may-act" not in ctx.memo:
            ctx.memo["estimator-may-act"] = idle_neighbours.may_act(ctx.tree, ctx.imports, ctx.text, ctx.package)
        return ctx.memo["estimator-may-act"]

    def leave_module(self, original: cst.Module, updated: cst.Module):
        if not self.reads_whole_module():
            return updated  # no Estimator call, no helper's Estimator trained here (rules/idle.py)
        if type(self).__name__ in self.ctx.vetoed:  # its output did not pass check_output (failures.py)
            failures.report_vetoed(self.ctx, original, self.ctx.vetoed[type(self).__name__])
            return updated
        saved, found = self.ctx.emit.snapshot(), len(self.ctx.diagnostics)
        try:
            views = self._views(original, updated)  # a choosing helper inlined where it is called (builder_chain.py)
            done = self._convert(*views)
            done = updated if done is views[1] else done
        except Exception as exc:  # a bug of the converter: the other rules' edits and findings stay (failures.py)
            self.ctx.emit.restore(saved)
            del self.ctx.diagnostics[found:]
            failures.report_crash(self.ctx, original, exc)
            return updated
        self.converted = done is not updated
        return done

    def check_output(self, before: str, after: str):
        """Why the converted module cannot run (output_check.py), or None; asked only when this rule converted."""
        if not self.converted:
            return None
        from tf2migrate.rules.estimator.writing import output_check

        try:
            return output_check.problem(before, after, self.ctx.path, self.models)
        except SyntaxError as exc:  # a bug of the converter too: the file is written without its conversion
            return f"its output does not compile ({exc.msg}, line {exc.lineno})"

    def _views(self, original: cst.Module, updated: cst.Module) -> tuple:
        from tf2migrate.rules.estimator.program import analyze
        from tf2migrate.rules.estimator.reading import builder_chain
        if analyze.find(original, self.ctx) is not None:
            return original, updated
        return builder_chain.inline(original, updated, lambda value: analyze.is_estimator(value, self.ctx)) \
            or (original, updated)

    def _convert(self, original: cst.Module, updated: cst.Module):
        ctx = self.ctx
        # imported here: most files rewritten build no Estimator (a pre-commit run must not import the converter)
        from tf2migrate.rules.estimator import convert
        from tf2migrate.rules.estimator.package import helper_side
        from tf2migrate.rules.estimator.package import model_fn_users, not_converted_report
        from tf2migrate.rules.estimator.planning import target
        from tf2migrate.rules.estimator.program import analyze, built_elsewhere
        from tf2migrate.rules.estimator.reading import choice_chain, main_body, switch
        from tf2migrate.rules.estimator.writing import body_pieces
        view, flat, sw, progs = (original, updated), None, None, []
        prog = analyze.find(original, ctx)
        if prog is None:  # not at the top level: in `def main():`, in an if/else, or only reported
            flat = main_body.flatten(original, updated, analyze.builds_estimator(original, ctx))
            view = (flat.original, flat.updated) if flat else view
            prog = analyze.find(view[0], ctx)
            if prog is not None:
                prog.blockers.extend(flat.header_uses(prog, ctx))
        if prog is None:
            sw = switch.find(*view, analyze.builds_estimator(original, ctx)) \
                or choice_chain.find(*view, analyze.builds_estimator(original, ctx))  # if/elif/.../exit
        elif switch.find_strategy(*view, prog) is not None:  # the strategy is chosen by an if/else
            sw = switch.find_strategy(*view, prog)
        if sw is not None:
            progs = [analyze.find(v[0], ctx) for v in sw.views]
            prog = progs[0] if None not in progs else None
            built_elsewhere.not_in_a_switch(progs)
        if prog is None:  # a helper another module trains (helper_side.py), or one it could not read
            done = helper_side.convert(self, original, updated)
            if done is None:  # a module of input functions beside a program (input_side.py)
                from tf2migrate.rules.estimator.package import input_side

                done = input_side.convert(self, original, updated)
            if done is not None or not_converted_report.report_foreign(ctx):
                return done or updated
            sw, prog = None, analyze.elsewhere(original, ctx)
        if prog is None or not ctx.allowed(built_elsewhere.call_of(prog), "TFM301"):
            return updated
        prog.blockers.extend(model_fn_users.problems(prog, ctx))  # another module of the run takes its model_fn
        saved = ctx.emit.snapshot()
        if sw is not None:
            body, notes, marks, convs = convert.both_branches(sw, progs, ctx)
        else:
            progs = [prog]
            body, notes, marks, convs = convert.one(prog, ctx, *view)
        self.writer = convs[-1].writer if convs else None  # read by helper_side.py, which converts alike
        self.models = frozenset(c.writer.model_var for c in convs)
        blockers = [built_elsewhere.placed(p, one, ctx) for one in progs for p in one.blockers]
        if blockers or body is None:
            ctx.emit.restore(saved)  # nothing converted: no import is needed
            for problem in body_pieces.one_per_line(blockers, ctx):
                ctx.report(problem.node, problem.code or "TFM302", problem.message, fixable=False)
            return updated
        if not all(ctx.report(built_elsewhere.call_of(one), "TFM301") for one in progs):
            return updated
        for node, code, message in notes:
            if built_elsewhere.external(prog) is not None and not built_elsewhere.own(ctx, node):
                continue  # about the model_fn: reported in its own module
            ctx.report(node, code, message, severity=Severity.WARNING if code in codes.WARNING_NOTES else Severity.INFO)
        body = flat.unflatten(updated, body, marks) if flat else body
        if any(code == "TFM320" for _, code, _ in notes):
            body = target.with_legacy_switch(body, updated)
        return updated.with_changes(body=body)
