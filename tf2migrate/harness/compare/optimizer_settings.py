"""The optimizers' hyper-parameters, read on both sides and compared directly, not through the losses.

A hyper-parameter that only moves the update a little hides in the losses: Keras' default epsilon (1e-7) for
TF1's AdamOptimizer's (1e-8) moves an update by under 1e-4 where gradients are near 1e-3, less than the drift
twin's nudge (sensitivity.py), so 400 steps stayed inside the twin's envelope once both sides' Adam rounded
alike (capture/adam_rounding.py; the revert fa3a7de). Read from the optimizer objects themselves
(capture/optimizer_settings.py), the two epsilons differ whatever the losses do. The optimizers (each distinct
setting once) are paired by agreeing settings first, the rest in the order they first applied gradients (two
counts that differ are not paired, and the scope says so); a field is compared where both sides
read it as a number (a learning-rate schedule or a tensor is left to the losses), float32 apart being a
difference, since both kernels compute in float32. Optimizers outside the shared vocabulary (Adam, RMSprop,
Adagrad, Adadelta, Ftrl, SGD with TF1's Momentum and GradientDescent) are not compared, and the scope says so.
"""
import numpy as np


def check_optimizers(original, migrated):
    """(scope, causes): one line for the "compared" list, and the differences that make the pair DIVERGED."""
    o, m = getattr(original, "optimizers", None) or [], getattr(migrated, "optimizers", None) or []
    if not o and not m:
        return ("optimizers: none of Adam, RMSprop, Adagrad, Adadelta, Ftrl, SGD (TF1's or Keras') seen in either "
                "program"), []
    kinds_o, kinds_m = [s["kind"] for s in o], [s["kind"] for s in m]
    if len(o) != len(m):
        return (f"optimizers: not compared (the original applies {_kinds(kinds_o)}, the migrated program "
                f"{_kinds(kinds_m)}: not paired one to one)"), []
    causes, shown = [], []
    for i, (a, b) in enumerate(_paired(o, m), start=1):
        which = f"optimizer {i} " if len(o) > 1 else "the optimizer "
        if a["kind"] != b["kind"]:
            causes.append(f"{which}differs: the original trains with {a['class']}, the migrated program with "
                          f"{b['class']}")
            continue
        fields = [f for f in a if f not in ("kind", "class") and f in b]
        differ = [f"{f}: original {_show(a[f])}, migrated {_show(b[f])}" for f in fields
                  if a[f] is not None and b[f] is not None and not _same(a[f], b[f])]
        if differ:
            causes.append(f"{which.rstrip()}'s hyper-parameters differ ({a['class']} and {b['class']}): "
                          + "; ".join(differ))
        same = [f"{f} {_show(a[f])}" for f in fields if a[f] is not None and b[f] is not None and _same(a[f], b[f])]
        left = [f for f in fields if a[f] is None or b[f] is None]
        shown.append(f"{a['kind']} ({', '.join(same) or 'nothing'} alike"
                     + (f"; {', '.join(left)} not a number on one side, left to the losses" if left else "") + ")")
    return f"optimizers: hyper-parameters read from both programs' optimizers and compared: {'; '.join(shown)}", causes


def _paired(o, m):
    """Pairs of settings: first those that agree (two optimizers a program applies in one order in its TF1 graph
    may first apply in another in Keras), then the rest in the order they first applied gradients."""
    rest = list(m)
    pairs, left = [], []
    for a in o:
        b = next((b for b in rest if _agree(a, b)), None)
        if b is None:
            left.append(a)
        else:
            rest.remove(b)
            pairs.append((a, b))
    return pairs + list(zip(left, rest))


def _agree(a, b):
    return a["kind"] == b["kind"] and all(_same(a[f], b[f]) for f in a if f not in ("kind", "class") and f in b
                                          and a[f] is not None and b[f] is not None)


def _same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a) == bool(b)
    return np.float32(a) == np.float32(b)


def _show(value):
    return repr(value) if isinstance(value, bool) else f"{value:g}"


def _kinds(kinds):
    return ", ".join(kinds) or "none of them"
