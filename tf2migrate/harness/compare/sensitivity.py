"""Tell float drift from a mistake: the original's own sensitivity to rounding, measured in the same verify.

A correct migration computes the same numbers in another order (other kernels, Keras' optimizer against
TF1's, another sum over the batch) at every step; over hundreds of steps those roundings add up, and the
strict per-step tolerance (rtol 1e-5) called a correct 1,000-step migration DIVERGED (issue 18: apart by
one rounding at step 3, beyond rtol at step 264). So when the strict comparison fails only after its first
`EXACT_ATOL_STEPS` steps, the original runs once more (its twin) with the same seed, input order and masks,
but its step-0 values moved one ulp and every element of every gradient moved by `NUDGE` (relative, up or
down at random): what another order of a batch sum does to a gradient element with cancellation. The
twin's distance from the original, at most so far, times `FACTOR` is the envelope of the migrated program's
distance after the first steps (never less than the strict tolerance). A mistake is systematic and stands
out: a learning rate 1 % off moves every update by 1e-2, not 1e-4 at random, and is apart from step 2.
Measured on fixtures/programs/est_drift_adam (1,000 Adam steps): the migrated program reaches 2.1x the
twin's distance, the learning rate 1 % off 1,000x+. The twin costs one more run of the original, only where
the strict comparison failed late.
"""
import math

from tf2migrate.harness.compare.compare import DIVERGED, EQUIVALENT, EXACT_ATOL_STEPS, LossVerdict, rel_diff

NUDGE = 2.0 ** -13   # 1,024 float32 ulps: the early distance of a correct TF1 -> Keras migration (Adam)
NUDGE_SEED = 0x0ddba11
FACTOR = 10.0   # one twin is one draw of the drift: the migrated program's is another


def wants_twin(verdict, original, migrated):
    """A strict DIVERGED that float drift could explain: late, finite, over the same steps."""
    return (verdict.verdict == DIVERGED and (verdict.first_diverged_step or 0) > EXACT_ATOL_STEPS
            and len(original) == len(migrated) and all(map(math.isfinite, original + migrated)))


def perturb(init_path, out_path):
    """Write the original's step-0 values, each float moved one ulp up, where the twin reads its override.
    False when there is nothing to perturb (no step-0 values were written)."""
    import os

    import numpy as np

    from tf2migrate.harness.compare.align import load_values, save_values

    if not os.path.exists(init_path):
        return False
    named = load_values(init_path)
    names, values = [n for n, _ in named], [v for _, v in named]
    moved = [np.nextafter(v, np.inf).astype(v.dtype) if np.issubdtype(v.dtype, np.floating) else v for v in values]
    save_values(out_path, list(zip(names, moved)))
    return any(np.issubdtype(v.dtype, np.floating) and v.size for v in values)


def judge(original, twin, migrated, rtol, atol, strict):
    """The verdict of `migrated` against `original` inside the twin's envelope; `strict`: the strict verdict."""
    spread = max_abs = max_rel = 0.0
    widest, closest = (0.0, 0), (0.0, 0)   # (twin distance, step); (share of the envelope used, step)
    for i, (a, t, b) in enumerate(zip(original, twin, migrated), start=1):
        spread = max(spread, abs(a - t))
        widest = (spread, i) if spread > widest[0] else widest
        d = abs(a - b)
        max_abs, max_rel = max(max_abs, d), max(max_rel, rel_diff(a, b))
        bound = max(atol if i <= EXACT_ATOL_STEPS else rtol * abs(a), FACTOR * spread)
        if d > bound:
            return LossVerdict(DIVERGED, f"first differs at step {i} beyond the original's own float drift: original "
                                     f"{a!r}, migrated {b!r} (abs diff {d:.3g}, rel diff {rel_diff(a, b):.3g}; "
                                     f"{describe(widest, original)}: at most {bound:.3g} here)",
                           i, max_abs, max_rel)
        closest = (d / bound, i) if bound and d / bound > closest[0] else closest
    chaotic = ""
    if widest[1] and widest[0] > 0.1 * abs(original[widest[1] - 1]):
        chaotic = (f"; from step {widest[1]} rounding alone moves this program's loss by over 10 %: "
                   f"those steps prove little, fewer steps prove more")
    return LossVerdict(EQUIVALENT, f"all {len(original)} steps agree within the original's own float drift "
                               f"({describe(widest, original)}; the migrated program used at most "
                               f"{closest[0]:.0%} of it, at step {closest[1]}; the strict tolerance alone failed at "
                               f"step {strict.first_diverged_step}){chaotic}; max abs diff {max_abs:.3g}, max rel "
                               f"diff {max_rel:.3g}", None, max_abs, max_rel)


def describe(widest, original):
    """The envelope in words: which run measured it and how wide it became."""
    spread, step = widest
    where = (f"at most {spread:.3g} (rel {spread / abs(original[step - 1]):.3g}, step {step})"
             if step and original[step - 1] else "never apart")
    return (f"envelope: {FACTOR:g}x the distance of the original from its twin (step-0 values one ulp off, every "
            f"gradient {NUDGE:.2g} off at random), {where}")
