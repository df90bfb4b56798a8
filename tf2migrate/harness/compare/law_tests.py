"""In the parent: initial values judged against the laws their initializers draw from (`init_laws.py`).

- Both laws known: compared as distributions, exactly (a uniform is not a normal of equal variance, a
  truncated normal is not an untruncated one), row range by row range. Two laws of the same initializer on
  the same whole shape that differ only by how the variable is cut (shard count, TF1's whole-shape fans
  against TF2's per-shard ones) are not a mistake of the migration: noted, not DIVERGED.
- One law known: the other side's values are tested against it (one-sample Kolmogorov-Smirnov with the
  exact CDF, and mean and spread z-tests), which has the power of infinitely many fresh draws from it.
- A recorded law is trusted only if its own side's values fit it (else the values alone are compared).
"""
import math

from tf2migrate.harness.compare.partitions import _PART

Z_LIMIT, KS_P_LIMIT = 6.0, 1e-7


def merged(laws, name):
    """The spec of `name`, or of its TF1 partitions `name/part_i` joined in index order; None if unknown."""
    if name in laws:
        return laws[name]
    parts = sorted((int(m.group("index")), s) for n, s in laws.items()
                   for m in [_PART.match(n)] if m and m.group("base") == name)
    if not parts:
        return None
    first = parts[0][1]
    return {"label": first["label"], "family": first["family"], "seeded": first["seeded"],
            "parts": [p for _, s in parts for p in s["parts"]]}


def usable(spec):
    return bool(spec) and all(law is not None for _, law in spec["parts"])


def show(spec):
    laws = [_show_law(law) for _, law in spec["parts"]]
    cut = f" in {len(laws)} shards" if len(laws) > 1 else ""
    shown = laws[0] if len(set(laws)) == 1 else " | ".join(laws)
    return f"{spec['label']}: {shown}{cut}"


def _show_law(law):
    if law["kind"] == "uniform":
        return f"uniform({law['low']:.4g}, {law['high']:.4g})"
    if law["kind"] == "constant":
        return f"constant {law['value']:g}"
    name = "truncated normal" if law["kind"] == "truncated_normal" else "normal"
    return f"{name}(mean {law['mean']:.4g}, std {law['std']:.4g})"


def same_laws(a, b):
    """Row by row, the same law (parameters within float rounding)."""
    return _rows(a) == _rows(b)


def _rows(spec):
    out = []
    for rows, law in spec["parts"]:
        key = (law["kind"],) + tuple(round(float(v), 6) for k, v in sorted(law.items()) if k != "kind")
        if out and out[-1][1] == key:
            out[-1][0] += rows
        else:
            out.append([rows, key])
    return out


def only_cut_differs(a, b):
    """The same initializer, only cut into other shards (so each shard's fans differ)."""
    cuts = lambda s: [r for r, _ in s["parts"]]  # noqa: E731
    return a["family"] is not None and a["family"] == b["family"] and sum(cuts(a)) == sum(cuts(b)) and (
        len(cuts(a)) > 1 or len(cuts(b)) > 1)


def misfit(values, spec):
    """'' when `values` (rows along axis 0) could be drawn from the spec's laws, else the statistic."""
    import numpy as np

    values = np.asarray(values, dtype=np.float64)
    start = 0
    for rows, law in spec["parts"]:
        block = values[start:start + rows].reshape(-1) if values.ndim else values.reshape(-1)
        start += rows
        why = _misfit(block, law)
        if why:
            return why
    return ""


def _misfit(x, law):
    import numpy as np

    if x.size == 0:
        return ""
    if law["kind"] == "constant":
        return "" if np.all(x == np.float32(law["value"])) else f"not the constant {law['value']:g}"
    mean, var = _moments(law)
    n = x.size
    if var > 0 and n > 1:
        z_mean = abs(x.mean() - mean) / math.sqrt(var / n)
        if z_mean > Z_LIMIT:
            return f"mean {x.mean():.3g} against {mean:.3g} (z = {z_mean:.1f})"
        s2 = x.var(ddof=1)
        z_scale = abs(math.log(max(s2, 1e-300) / var)) / math.sqrt(2.0 / (n - 1))
        if z_scale > Z_LIMIT:
            return f"std {math.sqrt(s2):.3g} against {math.sqrt(var):.3g} (z = {z_scale:.1f})"
    d = float(np.max(np.abs(_cdf(law, np.sort(x)) - np.arange(1, n + 1) / n)))
    d = max(d, float(np.max(np.abs(_cdf(law, np.sort(x)) - np.arange(0, n) / n))))
    p = _kolmogorov(d, n)
    return f"Kolmogorov-Smirnov p = {p:.2g} against it" if p < KS_P_LIMIT else ""


def _moments(law):
    if law["kind"] == "uniform":
        return (law["low"] + law["high"]) / 2, (law["high"] - law["low"]) ** 2 / 12
    if law["kind"] == "normal":
        return law["mean"], law["std"] ** 2
    return law["mean"], (law["std"] * 0.87962566103423978) ** 2   # truncated at 2 std


def _cdf(law, x):
    import numpy as np

    if law["kind"] == "uniform":
        return np.clip((x - law["low"]) / (law["high"] - law["low"]), 0.0, 1.0)
    phi = np.vectorize(lambda t: 0.5 * (1 + math.erf(t / math.sqrt(2))))
    z = (x - law["mean"]) / law["std"]
    if law["kind"] == "normal":
        return phi(z)
    lo, hi = 0.5 * (1 + math.erf(-2 / math.sqrt(2))), 0.5 * (1 + math.erf(2 / math.sqrt(2)))
    return np.clip((phi(np.clip(z, -2, 2)) - lo) / (hi - lo), 0.0, 1.0)


def _kolmogorov(d, n):
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    if lam < 0.2:
        return 1.0
    return min(1.0, max(0.0, 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))))
