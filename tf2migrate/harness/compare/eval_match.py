"""Pair the metrics of the two sides' last evaluation by what they compute (`metric_kinds.py`), so every metric
of either side is accounted for: compared with its counterpart, or reported as having none.

Order: a metric of the same name and the same (or an unknown) kind; then one of the same kind under another
name (the TF1 key `rmse` against Keras' default name `root_mean_squared_error`). A canned Estimator's automatic
metric is compared by value with the migrated metric of its name whatever their kinds: its head computed it with
`tf1.metrics.mean` of its own loss (`average_loss`), which the converter writes as the loss's Keras metric
(rules/estimator/planning/canned_results.py); the numbers say whether they agree. A metric the program asked
for itself with a known kind and no counterpart makes the pair DIVERGED; one whose kind is unknown (a custom
metric, a canned Estimator's automatic ones) is listed as not compared, as a name alone says nothing.
"""
from dataclasses import dataclass, field

from tf2migrate.harness.compare.vocabulary import BATCH_MEAN, LOSS


@dataclass
class Matched:
    pairs: list = field(default_factory=list)        # (original name, migrated name, kind or None)
    other_kind: list = field(default_factory=list)   # (name, original kind, migrated kind): same name, not alike
    missing: list = field(default_factory=list)      # (side, name, kind): asked for, no counterpart
    unknown: list = field(default_factory=list)      # (side, name): no counterpart, kind unknown: not compared


def match(o, m, kinds_o, kinds_m):
    """`o`, `m`: {name: value} of the last evaluation; `kinds_*`: {name: {"kind", "own"}} of each side."""
    def kind(kinds, name):
        return name if name in (LOSS, BATCH_MEAN) else (kinds.get(name) or {}).get("kind")

    out, left_o, left_m = Matched(), list(o), list(m)
    for name in [n for n in left_o if n in left_m]:
        a, b = kind(kinds_o, name), kind(kinds_m, name)
        canned = not (kinds_o.get(name) or {}).get("own", True)  # a canned head's own `average_loss` (a `mean`)
        if a and b and a != b and not canned:
            out.other_kind.append((name, a, b))
        else:
            out.pairs.append((name, name, a or b))
        left_o.remove(name)
        left_m.remove(name)
    for name in list(left_o):
        a = kind(kinds_o, name)
        other = next((n for n in left_m if a and kind(kinds_m, n) == a), None)
        if other is not None:
            out.pairs.append((name, other, a))
            left_o.remove(name)
            left_m.remove(other)
    for side, left, kinds, others in (("original", left_o, kinds_o, left_m), ("migrated", left_m, kinds_m, left_o)):
        could_be = any(kind(kinds_o if side == "migrated" else kinds_m, n) is None for n in others)
        for name in left:
            k = kind(kinds, name)
            asked = name not in (LOSS, BATCH_MEAN) and (kinds.get(name) or {}).get("own", True)
            if k and asked and not could_be:
                out.missing.append((side, name, k))
            else:
                out.unknown.append((side, name))
    return out


def show_pair(a, b, kind):
    shown = a if a == b else f"{a} ~ {b}"
    return f"{shown} [{kind}]" if kind and kind not in (LOSS, BATCH_MEAN, shown) else shown
