"""TF1 variables that are slices of one TF2 variable, seen as that whole variable.

- A TF1 partitioner makes one variable per shard (`kernel/part_0`, `kernel/part_1`); TF2's
  ParameterServerStrategy makes one `ShardedVariable`. Both cut along axis 0.
- A TF1 canned linear model keeps one `[1, k]` weight per numeric feature column
  (`linear/linear_model/x1/weights`, `.../x2/weights`, in column-name order); its Keras version has one
  kernel over `DenseFeatures`, which concatenates the columns in the same order.

The slices, in order, concatenate along axis 0 to the whole, and that whole is what the two programs
are compared and aligned on.
"""
import re

_PART = re.compile(r"^(?P<base>.*)/part_(?P<index>\d+)$")
_COLUMN = re.compile(r"^(?P<base>.*/linear_model)/(?P<index>[^/]+)/weights$")


def _part(name):
    m = _PART.match(name)
    return (m.group("base"), int(m.group("index"))) if m else None


def _column(name):
    m = _COLUMN.match(name)
    return (m.group("base") + "/weights", m.group("index")) if m else None


def merge_shapes(variables):
    """[{"name", "shape"}] with the slices of each variable merged into one entry (partitions first:
    a canned model's column weights are themselves partitioned)."""
    return _merge_shapes(_merge_shapes(variables, _part), _column)


def merge_values(named_values):
    """[(name, array)] with the slices of each variable concatenated along axis 0."""
    return _merge_values(_merge_values(named_values, _part), _column)


def _merge_shapes(variables, slice_of):
    merged, index_of = [], {}
    for v in variables:
        part = slice_of(v["name"])
        if part is None:
            merged.append(v)
            continue
        base = part[0]
        if base not in index_of:
            index_of[base] = len(merged)
            merged.append({"name": base, "shape": list(v["shape"])})
        else:
            whole = merged[index_of[base]]
            whole["shape"] = [whole["shape"][0] + v["shape"][0]] + list(whole["shape"][1:])
    return merged


def _merge_values(named_values, slice_of):
    import numpy as np

    order, parts = [], {}
    for position, (name, value) in enumerate(named_values):
        part = slice_of(name)
        key = part[0] if part else name
        if key not in parts:
            order.append(key)
            parts[key] = []
        rank = part[1] if part and isinstance(part[1], int) else position  # columns: creation order
        parts[key].append((rank, np.asarray(value)))
    return [(k, np.concatenate([v for _, v in sorted(parts[k], key=lambda p: p[0])], axis=0)
             if len(parts[k]) > 1 else parts[k][0][1]) for k in order]


def sharded_name(var):
    """The name a TF2 ShardedVariable's first shard gives, without its `/part_0`."""
    first = getattr(var, "variables", None)
    name = str(first[0].name) if first else str(var.name)
    name = name.rsplit(":", 1)[0]
    m = _PART.match(name)
    return m.group("base") if m else name
