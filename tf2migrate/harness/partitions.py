"""TF1 partitioned variables (`kernel/part_0`, `kernel/part_1`, ...) seen as the whole variable.

A TF1 partitioner makes one variable per shard; TF2's ParameterServerStrategy makes one
`ShardedVariable`. Both are cut along axis 0, so the parts, in order, concatenate to the whole, and
that whole is what the two programs are compared and aligned on.
"""
import re

_PART = re.compile(r"^(?P<base>.*)/part_(?P<index>\d+)$")


def merge_shapes(variables):
    """[{"name", "shape"}] with the parts of each partitioned variable merged into one entry."""
    merged, index_of = [], {}
    for v in variables:
        m = _PART.match(v["name"])
        if not m:
            merged.append(v)
            continue
        base = m.group("base")
        if base not in index_of:
            index_of[base] = len(merged)
            merged.append({"name": base, "shape": list(v["shape"])})
        else:
            whole = merged[index_of[base]]
            whole["shape"] = [whole["shape"][0] + v["shape"][0]] + list(whole["shape"][1:])
    return merged


def merge_values(named_values):
    """[(name, array)] with the parts of each partitioned variable concatenated along axis 0."""
    import numpy as np

    order, parts = [], {}
    for name, value in named_values:
        m = _PART.match(name)
        key = m.group("base") if m else name
        if key not in parts:
            order.append(key)
            parts[key] = []
        parts[key].append((int(m.group("index")) if m else 0, np.asarray(value)))
    return [(k, np.concatenate([v for _, v in sorted(parts[k], key=lambda p: p[0])], axis=0)
             if len(parts[k]) > 1 else parts[k][0][1]) for k in order]


def sharded_name(var):
    """The name a TF2 ShardedVariable's first shard gives, without its `/part_0`."""
    first = getattr(var, "variables", None)
    name = str(first[0].name) if first else str(var.name)
    name = name.rsplit(":", 1)[0]
    m = _PART.match(name)
    return m.group("base") if m else name
