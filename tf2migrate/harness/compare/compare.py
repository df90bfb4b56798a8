"""Decide EQUIVALENT / DIVERGED / INCOMPARABLE from two loss sequences.

Exact mode follows TF's migration-debugging guide: the first 10 steps must agree within `atol`
(default 1e-5), later steps within `rtol` (default 1e-5) of the original; NaN or inf on either side is a
failure. Statistical mode is for asynchronous training, where step order changes from run to run: the
original is run several times and the migrated run must fall inside that spread (final loss and loss
decrease), widened by half the spread and by the tolerances.
"""
import enum
import math
from dataclasses import dataclass, field


class Verdict(str, enum.Enum):
    """What a pair is: the value is the word the CLI prints and `--json` writes; the exit code follows from it
    (`report/result.py`). A str, so it compares, formats and serialises as that word."""
    EQUIVALENT = "EQUIVALENT"
    DIVERGED = "DIVERGED"
    INCOMPARABLE = "INCOMPARABLE"

    __str__ = str.__str__
    __format__ = str.__format__


EQUIVALENT, DIVERGED, INCOMPARABLE = Verdict.EQUIVALENT, Verdict.DIVERGED, Verdict.INCOMPARABLE
EXACT_ATOL_STEPS = 10


@dataclass
class LossVerdict:
    """The verdict of the losses alone, with where and how far they part."""
    verdict: Verdict
    reason: str
    first_diverged_step: int = None   # 1-based
    max_abs_diff: float = 0.0
    max_rel_diff: float = 0.0
    details: dict = field(default_factory=dict)


def rel_diff(a: float, b: float) -> float:
    """|a - b| relative to the original's `a`; inf when a is 0 and b is not."""
    d = abs(a - b)
    return d / abs(a) if a else (0.0 if d == 0 else math.inf)


def exact(original, migrated, rtol=1e-5, atol=1e-5):
    if not original or not migrated:
        side = "original" if not original else "migrated"
        return LossVerdict(INCOMPARABLE, f"no training step was seen in the {side} program")
    max_abs = max_rel = 0.0
    for i, (a, b) in enumerate(zip(original, migrated), start=1):
        for side, v in (("original", a), ("migrated", b)):
            if not math.isfinite(v):
                return LossVerdict(DIVERGED, f"step {i}: the {side} loss is {v}", i, math.inf, math.inf)
        d, rel = abs(a - b), rel_diff(a, b)
        max_abs, max_rel = max(max_abs, d), max(max_rel, rel)
        ok = d <= atol if i <= EXACT_ATOL_STEPS else d <= rtol * abs(a)
        if not ok:
            bound = f"atol {atol:g}" if i <= EXACT_ATOL_STEPS else f"rtol {rtol:g}"
            return LossVerdict(DIVERGED, f"first differs at step {i}: original {a!r}, migrated {b!r} "
                                     f"(abs diff {d:.3g}, rel diff {rel:.3g}, beyond {bound})", i, max_abs, max_rel)
    if len(original) != len(migrated):
        n = min(len(original), len(migrated)) + 1
        return LossVerdict(DIVERGED, f"step counts differ: the original trained {len(original)} steps, the migrated "
                                 f"{len(migrated)} (all common steps agree)", n, max_abs, max_rel)
    return LossVerdict(EQUIVALENT, f"all {len(original)} steps agree (first {EXACT_ATOL_STEPS} within atol {atol:g}, "
                               f"then rtol {rtol:g}); max abs diff {max_abs:.3g}, max rel diff {max_rel:.3g}",
                   None, max_abs, max_rel)


def summary(losses):
    """Final loss and loss decrease, each over the first/last fifth of the steps to damp step noise."""
    k = max(1, len(losses) // 5)
    first, last = sum(losses[:k]) / k, sum(losses[-k:]) / k
    return {"final_loss": last, "decrease": first - last}


def statistical(original_runs, migrated, rtol=1e-5, atol=1e-5):
    if not migrated or not all(original_runs):
        return LossVerdict(INCOMPARABLE, "no training step was seen in " + ("the migrated program" if not migrated
                                                                        else "a run of the original"))
    bad = [v for run in original_runs + [migrated] for v in run if not math.isfinite(v)]
    if bad:
        return LossVerdict(DIVERGED, f"a loss is {bad[0]}")
    stats = [summary(r) for r in original_runs]
    mine = summary(migrated)
    details, failures = {}, []
    counts = [len(r) for r in original_runs]
    slack = max(1, round(0.1 * max(counts)))
    details["steps"] = {"original_runs": counts, "migrated": len(migrated)}
    if not min(counts) - slack <= len(migrated) <= max(counts) + slack:
        span = f"{min(counts)}" if min(counts) == max(counts) else f"{min(counts)} to {max(counts)}"
        failures.append(f"the migrated program trained {len(migrated)} steps, the original {span} "
                        f"(in a TF1 cluster every trainer task reads the whole input)")
    for key in ("final_loss", "decrease"):
        values = [s[key] for s in stats]
        lo, hi = min(values), max(values)
        margin = max(0.5 * (hi - lo), atol, rtol * max(abs(lo), abs(hi)))
        inside = lo - margin <= mine[key] <= hi + margin
        details[key] = {"original_runs": values, "band": [lo - margin, hi + margin], "migrated": mine[key]}
        if not inside:
            failures.append(f"{key.replace('_', ' ')} {mine[key]:.6g} outside the original's band "
                            f"[{lo - margin:.6g}, {hi + margin:.6g}] over {len(values)} runs")
    if failures:
        return LossVerdict(DIVERGED, "; ".join(failures), details=details)
    return LossVerdict(EQUIVALENT, f"final loss and loss decrease inside the spread of {len(original_runs)} original "
                               f"runs", details=details)
