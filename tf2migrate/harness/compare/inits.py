"""Compare the two programs' *own* step-0 values, before the migrated one is given the original's.

Alignment makes the loss comparison exact, and by the same token hides a wrong initializer. So each
variable's own value is compared first:
- a constant (all elements equal; a single element that is a round number such as 0 or 1) must be the
  same constant on the other side, exactly;
- random values must look drawn from the same distribution: mean and spread compared with z-tests whose
  standard errors shrink with sqrt(n), plus a two-sample Kolmogorov-Smirnov test for the shape of the
  distribution. Thresholds are far in the tails (z 6, p 1e-7), so a correct pair of any size passes:
  a variable of a few elements is only caught when it is constant on one side and random on the other.
"""
import math

from tf2migrate.harness.compare import law_tests

Z_LIMIT = 6.0
KS_P_LIMIT = 1e-7


def is_constant(a):
    import numpy as np

    flat = np.asarray(a, dtype=np.float64).reshape(-1)
    if flat.size == 0 or not np.all(flat == flat[0]):
        return False
    if flat.size > 1:
        return True
    v = float(np.asarray(a).reshape(-1)[0])
    return v == float(np.float32(round(v, 3)))  # a random draw is almost never a round number


def describe(a, initializer=None):
    import numpy as np

    flat = np.asarray(a, dtype=np.float64).reshape(-1)
    if flat.size == 0:
        return "empty"
    if is_constant(a):
        return "all zeros" if flat[0] == 0 else ("all ones" if flat[0] == 1 else f"constant {flat[0]:.6g}")
    family = f"~ {initializer}, " if initializer else "random, "
    return f"{family}mean {flat.mean():.3g}, std {flat.std():.3g}, range [{flat.min():.3g}, {flat.max():.3g}]"


def differs(a, b):
    """'' when `b` could come from the same initializer as `a`, else the statistic that tells them apart."""
    import numpy as np

    x = np.asarray(a, dtype=np.float64).reshape(-1)
    y = np.asarray(b, dtype=np.float64).reshape(-1)
    ca, cb = is_constant(a), is_constant(b)
    if ca or cb:
        return "" if ca and cb and x[0] == y[0] else ("constant against random" if ca != cb else "other constant")
    n, m = x.size, y.size
    if min(n, m) < 4:
        return ""
    va, vb = x.var(ddof=1), y.var(ddof=1)
    z_mean = abs(x.mean() - y.mean()) / math.sqrt(va / n + vb / m) if va + vb > 0 else 0.0
    if z_mean > Z_LIMIT:
        return f"means differ (z = {z_mean:.1f})"
    if va > 0 and vb > 0:
        z_scale = abs(math.log(va / vb)) / math.sqrt(2 / (n - 1) + 2 / (m - 1))
        if z_scale > Z_LIMIT:
            return f"spreads differ (std {math.sqrt(va):.3g} vs {math.sqrt(vb):.3g}, z = {z_scale:.1f})"
    p = ks_p_value(x, y)
    if p < KS_P_LIMIT:
        return f"distributions differ (Kolmogorov-Smirnov p = {p:.2g})"
    return ""


def ks_p_value(x, y):
    """Two-sample Kolmogorov-Smirnov test, asymptotic p-value (Numerical Recipes' correction)."""
    import numpy as np

    x, y = np.sort(x), np.sort(y)
    grid = np.concatenate([x, y])
    d = np.max(np.abs(np.searchsorted(x, grid, side="right") / x.size
                      - np.searchsorted(y, grid, side="right") / y.size))
    ne = x.size * y.size / (x.size + y.size)
    lam = (math.sqrt(ne) + 0.12 + 0.11 / math.sqrt(ne)) * d
    if lam < 0.2:
        return 1.0
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(1.0, max(0.0, p))


def compare_initial(original, migrated, inits_o=None, inits_m=None, laws_o=None, laws_m=None, tally=None):
    """`original`/`migrated`: [(name, array)] own step-0 values; `laws_*`: name -> law spec (init_laws.py).
    Returns (checked count, [causes]); `tally` (a dict), when given, gets how each variable was judged
    ("by law", "against a law", "by samples", "inconclusive": names) and the notes."""
    from tf2migrate.harness.compare.partitions import merge_values

    inits_o, inits_m, laws_o, laws_m = inits_o or {}, inits_m or {}, laws_o or {}, laws_m or {}
    tally = {} if tally is None else tally
    checked, causes = 0, []
    for name, a, other, b in pair_up(merge_values(original), merge_values(migrated)):
        checked += 1
        label = name if name == other else f"{name} (migrated {other})"
        lo, lm = _law(laws_o, name, a, tally, "original"), _law(laws_m, other, b, tally, "migrated")
        why = _judge(label, a, b, lo, lm, tally)
        if why is None:
            why = differs(a, b)
            if not (is_constant(a) and is_constant(b)):
                tally.setdefault("inconclusive", []).append(label)
        if why and lo and lm:
            causes.append(f"{label}: original ~ {law_tests.show(lo)}; migrated ~ {law_tests.show(lm)} ({why})")
        elif why:
            causes.append(f"{label}: original {describe(a, _initializer(inits_o, name))}; migrated "
                          f"{describe(b, _initializer(inits_m, other))} ({why})")
    return checked, causes


def _law(laws, name, values, tally, side):
    """The law `name`'s initializer draws from, if known and if the side's own values fit it."""
    spec = law_tests.merged(laws, name)
    if not law_tests.usable(spec) or sum(r for r, _ in spec["parts"]) != (values.shape[0] if values.ndim else 1):
        return None
    misfit = law_tests.misfit(values, spec)
    if misfit:
        tally.setdefault("notes", []).append(f"{name}: the {side}'s own values do not fit its recorded initializer "
                                             f"{law_tests.show(spec)} ({misfit}): compared by values")
        return None
    return spec


def _judge(label, a, b, lo, lm, tally):
    """'' (same), why they differ, or None (no law on either side: the samples decide)."""
    if lo and lm:
        tally.setdefault("by law", []).append(label)
        if law_tests.same_laws(lo, lm):
            return ""
        if law_tests.only_cut_differs(lo, lm):
            tally.setdefault("notes", []).append(f"{label}: the same initializer, cut otherwise (original "
                                                 f"{law_tests.show(lo)}; migrated {law_tests.show(lm)})")
            return ""
        return "other initializers: other distributions at any size"
    if lo or lm:
        tally.setdefault("against a law", []).append(label)
        known, side, values, other = (lo, "original", b, "migrated") if lo else (lm, "migrated", a, "original")
        misfit = law_tests.misfit(values, known)
        return (f"the {other}'s values were not drawn from the {side}'s initializer {law_tests.show(known)}: "
                f"{misfit}") if misfit else ""
    return None


def _initializer(names, name):
    return names.get(name) or names.get(name.split("/part_")[0])


def pair_up(original, migrated):
    """[(name, a, other, b)]: same name and shape first; the rest by creation order and shape, as the
    alignment does, but only when both sides have the same number left (a side that reported only some of
    its variables must not have them matched to others of the same shape)."""
    by_name = {n: v for n, v in migrated}
    pairs, rest_o = [], []
    for name, a in original:
        b = by_name.get(name)
        if b is not None and b.shape == a.shape:
            pairs.append((name, a, name, by_name.pop(name)))
        else:
            rest_o.append((name, a))
    rest_m = [(n, v) for n, v in migrated if n in by_name]
    if len(rest_o) == len(rest_m):
        for name, a in rest_o:
            for i, (other, b) in enumerate(rest_m):
                if b.shape == a.shape:
                    pairs.append((name, a, other, b))
                    del rest_m[i]
                    break
    return pairs
