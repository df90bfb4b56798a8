"""Never silent: every Estimator-world construct that the rewrite leaves in the file gets a finding.

The Estimator converter converts a whole program or nothing, and reports the lines that block it
(TFM302...). Everything else it does not touch would be left without a word although TF 2.16 cannot run
it: an Estimator built by a helper, a TPUEstimator, a canned estimator it has no model for, specs and
hooks whose Estimator comes from another module. This rule runs after it (`leave_module`), reads what is
still there, and reports each line once, with why it was left and what to do, unless a converter finding
already stands on that line.
"""
from __future__ import annotations

import ast

from tf2migrate.rules.base import Plugin
from tf2migrate.rules.unconverted import codes, leftover_codes, leftovers, names
from tf2migrate.rules.unconverted.scan import references
from tf2migrate.rules.wake_words import words_of

OWN = frozenset({names.ESTIMATOR, names.RUN, names.PIECE})
BLOCKERS = frozenset({"TFM302", "TFM308"})  # the converter's "this blocks the conversion" findings
_CONVERTER_ESTIMATORS = None  # canonical names the Estimator converter can convert, read on first use


class Unconverted(Plugin):
    infos = codes.INFOS + leftover_codes.INFOS
    claims = frozenset({leftovers.LOAD_DATASET})  # reported here (TFM352) or rewritten (TFM341), not by tables

    def leave_module(self, original, updated):
        ctx = self.ctx
        if ctx.tree is None or not any(ctx.selection.enabled(code) for code in OWN):
            return updated
        if names.WORDS.isdisjoint(words_of(ctx.text)):
            return updated  # every name it reports spells one of its words (names.py), in the code or its imports
        refs = references(ctx.tree, ctx.imports)
        if not refs:
            return updated
        converted = any(d.code == "TFM301" and d.fixed for d in ctx.diagnostics)
        if converted:
            refs = _still_there(refs, updated, ctx)
            updated, done = leftovers.rewrite(updated, refs, ctx)
            refs = [r for r in refs if r not in done]
        taken = {d.line for d in ctx.diagnostics if d.code.startswith("TFM3")}
        blocked = [d for d in ctx.diagnostics if d.code.startswith("TFM3") and not d.fixed]
        # a blocker says why the conversion stopped, not that the Estimator it builds is gone in TF 2.16:
        # an Estimator built on a blocker's line is still reported (explain TFM350)
        told = {d.line for d in ctx.diagnostics if d.code.startswith("TFM3") and d.code not in BLOCKERS}
        by_line: dict = {}
        for ref in refs:
            if ref.line not in (told if ref.kind.code == names.ESTIMATOR else taken):
                by_line.setdefault(ref.line, []).append(ref)
        for line_refs in by_line.values():
            first = min(line_refs, key=lambda r: (r.kind.code, r.node.col_offset))
            shown = ", ".join(dict.fromkeys(f"`{r.canonical}`" for r in line_refs if r.kind.code == first.kind.code))
            why = _why(first, converted, blocked, refs, ctx)
            ctx.report(first.node, first.kind.code, f"{shown} not converted: {why}; {first.kind.gone}: {first.kind.todo}",
                       fixable=False)
        return updated


def _why(ref, converted: bool, blocked: list, refs: list, ctx) -> str:
    if converted:
        return "outside the Estimator program that was converted"
    if blocked:
        here = [d for d in blocked if d.line == ref.line]
        first = min(here or blocked, key=lambda d: (d.line, d.col))
        where = "on this line" if here else f"on line {first.line}"
        return f"the Estimator conversion is blocked, see {first.code} {where}"
    if not ctx.selection.enabled("TFM301"):
        return "the Estimator conversion TFM301 is not selected"
    if ref.kind.code == names.ESTIMATOR:
        if names.is_boosted_trees(ref.canonical):
            return "boosted trees have no TF2 Keras equivalent"
        if ref.canonical in _converter_estimators():
            return "the Estimator conversion did not run here (skip comment?)"
        return f"no automatic conversion for `{ref.canonical.rsplit('.', 1)[-1]}` yet"
    built = [r for r in refs if r.kind.code == names.ESTIMATOR]
    if built:
        return f"the Estimator on line {built[0].line} is not converted"
    return "no Estimator is built in this file (a helper or another module builds it)"


def _converter_estimators() -> frozenset:
    global _CONVERTER_ESTIMATORS
    if _CONVERTER_ESTIMATORS is None:
        from tf2migrate.rules.estimator.planning.canned import CANNED

        _CONVERTER_ESTIMATORS = frozenset({"tf.estimator.Estimator", *CANNED})
    return _CONVERTER_ESTIMATORS


def _still_there(refs: list, updated, ctx) -> list:
    """The references the conversion left: found again in the new code, placed by their line's text."""
    left = references(ast.parse(updated.code), ctx.imports)
    wanted: dict = {}
    for ref in left:
        wanted.setdefault(ref.canonical, []).append(ref)
    old_lines, new_lines = ctx.positions.lines, updated.code.splitlines()
    kept = []
    for canonical, remaining in wanted.items():
        candidates = [r for r in refs if r.canonical == canonical]
        out_texts = {_text(r.node, new_lines) for r in remaining}
        chosen = [c for c in candidates if _text(c.node, old_lines) in out_texts]
        kept += (chosen + [c for c in candidates if c not in chosen])[:len(remaining)]
    return kept


def _text(node, lines) -> str:
    return lines[node.lineno - 1].strip() if node.lineno <= len(lines) else ""
