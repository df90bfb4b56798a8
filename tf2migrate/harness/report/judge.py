"""The verdict of a verify, built from the comparisons: a side that could not run makes it INCOMPARABLE, then
the losses decide (exact, inside the twin's drift envelope, or statistical), and every other check
(`checks.compare_the_rest`) can make agreeing losses DIVERGED or name what explains a divergence."""
from tf2migrate.harness.compare import checks, compare, sensitivity, tolerance as tol_lib
from tf2migrate.harness.compare.align import compare_variables
from tf2migrate.harness.compare.hints import divergence_hint


def judge(result):
    """Set the comparison of `result` from its sides' runs and every comparison; return `result`."""
    facts, sides, c = result.facts, result.sides, result.comparison
    c.rtol, c.atol, c.tolerance = tol_lib.choose(facts.rtol, facts.atol, facts.tolerance, sides.original,
                                                 sides.migrated)
    for label, side in [("original", r) for r in sides.original_runs] + [("migrated", sides.migrated)]:
        if side.status == "unsupported":
            c.verdict, c.failed_side = compare.INCOMPARABLE, label
            c.reason = f"the {label} side cannot run under {side.python}: {side.error.split(': ', 1)[-1]}"
            return result
        if side.status == "incomparable":
            c.verdict, c.failed_side = compare.INCOMPARABLE, label
            c.reason = f"the {label} program cannot run as the {facts.cluster} cluster: {side.error}"
            return result
        if side.status != "ok":
            why = "timed out" if side.status == "timeout" else f"failed: {side.error}"
            c.verdict, c.failed_side = compare.INCOMPARABLE, label
            c.reason = f"the {label} program {why}"
            return result
    for label, side in (("original", sides.original), ("migrated", sides.migrated)):
        if not side.losses:
            c.verdict = compare.INCOMPARABLE
            c.reason = f"no training step was seen in the {label} program"
            return result
    ok, message = compare_variables(sides.original.variables, sides.migrated.variables)
    if sides.original.variables or sides.migrated.variables:
        c.alignment = (f"{len(sides.migrated.aligned)} of {len(sides.migrated.variables)} migrated variables "
                       f"started from the original's step-0 values; {message}")
    if not ok:
        c.verdict, c.reason = compare.INCOMPARABLE, message
        return result
    o, m = sides.original.losses, sides.migrated.losses
    if facts.mode == "exact":
        v = strict = compare.exact(o, m, c.rtol, c.atol)
        twin = sides.twin
        if twin is not None and twin.status == "ok" and len(twin.losses) == len(o):
            v = sensitivity.judge(o, twin.losses, m, c.rtol, c.atol, v)
    else:
        v = compare.statistical([r.losses for r in sides.original_runs], m, c.rtol, c.atol)
    before, after, hints = checks.compare_the_rest(result)
    first = None
    c.verdict, c.reason = v.verdict, v.reason
    if v.verdict == compare.DIVERGED and facts.mode == "exact":
        hint = divergence_hint(o, m, v.first_diverged_step, facts.cluster)
        c.reason = f"{v.reason}; {hint}" if hint else v.reason
    if v.verdict == compare.DIVERGED and before:   # what differs before training explains the losses
        c.reason = f"{c.reason}; " + "; ".join(before)
    elif v.verdict != compare.DIVERGED and before + after:
        c.verdict = compare.DIVERGED
        c.reason = "; ".join(before + after) + f" (the losses agree: {v.reason})"
        if facts.mode == "exact" and strict.verdict == compare.DIVERGED:   # inside the drift envelope only:
            first = strict.first_diverged_step   # where they part beyond the strict tolerance it shows
    if c.verdict == compare.DIVERGED and hints:
        c.reason += "; " + "; ".join(hints)
    if facts.accepted_fixes:
        c.reason += (f" (against the original with the fixes of {', '.join(facts.accepted_fixes)} "
                     f"applied, accepted as intended changes)")
    if tol_lib.cross_version(sides.original, sides.migrated):
        c.reason += f" (tolerance {c.tolerance})"
    if sides.original.api_reading:  # which TF the baseline is: TF 1.x and TF2 mean other numbers for some calls
        c.compared.insert(0, sides.original.api_reading)
    if sides.original.api_ambiguous:
        c.reason += " (the original's TF version is ambiguous: it ran with TF2 behaviour; " \
                    "`--original-api v1` runs it as TF 1.x did)"
    c.first_diverged_step, c.details = first or v.first_diverged_step, v.details
    c.max_abs_diff, c.max_rel_diff = v.max_abs_diff, v.max_rel_diff
    return result
