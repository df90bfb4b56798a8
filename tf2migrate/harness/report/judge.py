"""The verdict of a verify, built from the comparisons: a side that could not run makes it INCOMPARABLE, then
the losses decide (exact, inside the twin's drift envelope, or statistical), and every other check
(`checks.compare_the_rest`) can make agreeing losses DIVERGED or name what explains a divergence."""
from tf2migrate.harness.compare import checks, compare, sensitivity, tolerance as tol_lib
from tf2migrate.harness.compare.align import compare_variables
from tf2migrate.harness.compare.hints import divergence_hint
from tf2migrate.harness.compare.vocabulary import AMBIGUOUS, API_NOTE


def judge(result):
    """Set the verdict of `result` from its sides' runs and every comparison; return it."""
    result.rtol, result.atol, result.tolerance = tol_lib.choose(result.rtol, result.atol, result.tolerance,
                                                                result.original, result.migrated)
    for label, side in [("original", r) for r in result.original_runs] + [("migrated", result.migrated)]:
        if side.status == "unsupported":
            result.verdict, result.failed_side = compare.INCOMPARABLE, label
            result.reason = f"the {label} side cannot run under {side.python}: {side.error.split(': ', 1)[-1]}"
            return result
        if side.status == "incomparable":
            result.verdict, result.failed_side = compare.INCOMPARABLE, label
            result.reason = f"the {label} program cannot run as the {result.cluster} cluster: {side.error}"
            return result
        if side.status != "ok":
            why = "timed out" if side.status == "timeout" else f"failed: {side.error}"
            result.verdict, result.failed_side = compare.INCOMPARABLE, label
            result.reason = f"the {label} program {why}"
            return result
    for label, side in (("original", result.original), ("migrated", result.migrated)):
        if not side.losses:
            result.verdict = compare.INCOMPARABLE
            result.reason = f"no training step was seen in the {label} program"
            return result
    ok, message = compare_variables(result.original.variables, result.migrated.variables)
    if result.original.variables or result.migrated.variables:
        result.alignment = (f"{len(result.migrated.aligned)} of {len(result.migrated.variables)} migrated variables "
                            f"started from the original's step-0 values; {message}")
    if not ok:
        result.verdict, result.reason = compare.INCOMPARABLE, message
        return result
    if result.mode == "exact":
        v = compare.exact(result.original.losses, result.migrated.losses, result.rtol, result.atol)
        twin = result.twin
        if twin is not None and twin.status == "ok" and len(twin.losses) == len(result.original.losses):
            v = sensitivity.judge(result.original.losses, twin.losses, result.migrated.losses, result.rtol,
                                  result.atol, v)
    else:
        v = compare.statistical([r.losses for r in result.original_runs], result.migrated.losses,
                                result.rtol, result.atol)
    before, after, hints = checks.compare_the_rest(result)
    result.verdict, result.reason = v.verdict, v.reason
    if v.verdict == compare.DIVERGED and result.mode == "exact":
        hint = divergence_hint(result.original.losses, result.migrated.losses, v.first_diverged_step, result.cluster)
        result.reason = f"{v.reason}; {hint}" if hint else v.reason
    if v.verdict == compare.DIVERGED and before:   # what differs before training explains the losses
        result.reason = f"{result.reason}; " + "; ".join(before)
    elif v.verdict != compare.DIVERGED and before + after:
        result.verdict = compare.DIVERGED
        result.reason = "; ".join(before + after) + f" (the losses agree: {v.reason})"
    if result.verdict == compare.DIVERGED and hints:
        result.reason += "; " + "; ".join(hints)
    if result.accepted_fixes:
        result.reason += (f" (against the original with the fixes of {', '.join(result.accepted_fixes)} "
                          f"applied, accepted as intended changes)")
    if tol_lib.cross_version(result.original, result.migrated):
        result.reason += f" (tolerance {result.tolerance})"
    api_notes = [n for n in result.original.notes if n.startswith(API_NOTE)]
    if api_notes:  # which TF the baseline is: TF 1.x and TF2 mean other numbers for some of the same calls
        result.compared.insert(0, api_notes[0])
    if any(n.startswith(AMBIGUOUS) for n in api_notes):
        result.reason += " (the original's TF version is ambiguous: it ran with TF2 behaviour; " \
                         "`--original-api v1` runs it as TF 1.x did)"
    result.first_diverged_step, result.details = v.first_diverged_step, v.details
    result.max_abs_diff, result.max_rel_diff = v.max_abs_diff, v.max_rel_diff
    return result
