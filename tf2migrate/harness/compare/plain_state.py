"""State outside Keras layers: the program's own `tf.Variable`s and the results of its own Keras metrics.

A custom loop may keep state no layer owns: an exponential moving average of the weights in
`tf.Variable(..., trainable=False)`, a step counter, a running statistic; and it may evaluate with metrics it
drives itself (`test_loss = tf.keras.metrics.Mean()`, `update_state`, `result()`), which no `evaluate` call
reports. A mistake there leaves the losses alone (issue 18: an EMA with `decay` and `1 - decay` swapped was
EQUIVALENT). Child side (`capture/program_state.py`): a variable made eagerly by the program's own code (not
by TF, Keras or an optimizer) is kept and its value read when the program ends; so is the result of every metric
the program makes itself. Parent side (`check_variables`, `check_metrics`): the variables are paired by creation order and
shape and compared after training; a count or shape that differs is a difference too. Metric results are
compared where both sides have a metric of that name. TF1 graphs (legacy mode) are not tracked: there the
check says it did not compare.
"""
from tf2migrate.harness.compare.compare import rel_diff


def _load(side):
    from tf2migrate.harness.compare.align import load_values as load

    return load(getattr(side, "plain_state", "") or "")


def check_variables(original, migrated, rtol, atol):
    if original.api != "v2" or migrated.api != "v2":
        return "program variables: not compared (a TF1 graph: its own tf.Variables are not tracked)", []
    o, m = _load(original), _load(migrated)
    if not o and not m:
        return "program variables: none outside Keras layers in either program", []
    causes = []
    for i, ((name, a), (other, b)) in enumerate(zip(o, m), start=1):
        label = _label(name) if _label(name) == _label(other) else f"{_label(name)} (migrated {_label(other)})"
        if a.shape != b.shape:
            causes.append(f"program variable {i} differs in shape: {label}: {list(a.shape)} vs {list(b.shape)}")
            continue
        diff = float(abs(a.astype("float64") - b.astype("float64")).max()) if a.size else 0.0
        if diff > (max(atol, rtol * float(abs(a).max())) if a.size else atol):
            causes.append(f"program variable {i} differs after training: {label}: max abs diff {diff:.3g} "
                          f"(original mean {float(a.mean()):.6g}, migrated {float(b.mean()):.6g})")
    if len(o) != len(m):
        extra, side = (o[len(m):], "original") if len(o) > len(m) else (m[len(o):], "migrated")
        causes.append(f"program variables differ: {len(o)} in the original, {len(m)} in the migrated (only in the "
                      f"{side}: {', '.join(f'{_label(n)}{list(v.shape)}' for n, v in extra)})")
    return (f"program variables: {min(len(o), len(m))} tf.Variables outside Keras layers compared after training "
            f"by creation order and shape (rtol {rtol:g}, atol {atol:g})"), causes


def _label(key):
    return key.split(":", 1)[1]


def check_metrics(original, migrated, rtol, atol):
    o, m = getattr(original, "metric_results", None) or {}, getattr(migrated, "metric_results", None) or {}
    common = [k for k in o if k in m]
    if not o and not m:
        return "program metrics: none made by either program", []
    if not common:
        return (f"program metrics: none in common (original: {', '.join(o) or '-'}; migrated: "
                f"{', '.join(m) or '-'}): not compared"), []
    causes = []
    for key in common:
        a, b = o[key], m[key]
        if a["kind"] != b["kind"]:
            causes.append(f"program metric {key} computes another metric: original {a['kind']}, migrated {b['kind']}")
        elif abs(a["value"] - b["value"]) > max(atol, rtol * abs(a["value"])):
            causes.append(f"program metric {key} differs at the end: original {a['value']:.6g}, migrated "
                          f"{b['value']:.6g} (rel diff {rel_diff(a['value'], b['value']):.3g})")
    return f"program metrics: result() of {', '.join(common)} compared at the end", causes
