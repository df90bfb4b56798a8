"""Make the two runs start from the same point, and say so when they cannot.

Child side (`Aligner`): the original's step-0 values are handed to the migrated program's variables as
they are created (matched on `layer/weight` name and shape, then on creation order and shape), which also
works for models that are built lazily. Parent side (`compare_variables`): count, names and shapes are
compared first, as TF's validate-correctness guide does; a count or shape mismatch makes the runs
INCOMPARABLE and names the variables.
"""
import json
import os
import time

from tf2migrate.harness.compare.partitions import merge_shapes, merge_values


def load_values(path) -> list:
    """[(name, array)] that `save_values` wrote at `path` ([] for no path)."""
    if not path:
        return []
    import numpy as np

    with open(path + ".names.json") as f:
        names = json.load(f)
    with np.load(path) as data:
        return [(n, data[f"v{i}"]) for i, n in enumerate(names)]


def save_values(path, named_values):
    """Write [(name, array)] so that `Aligner.wait_for` can read it; atomic, as a child may be polling."""
    import numpy as np

    named_values = list(named_values)
    with open(path + ".names.json", "w") as f:
        json.dump([n for n, _ in named_values], f)
    tmp = path + ".tmp.npz"
    np.savez(tmp, **{f"v{i}": np.asarray(v) for i, (_, v) in enumerate(named_values)})
    os.replace(tmp, path)


def load_user_values(init):
    """`verify(init=...)`: a dict name -> array, or an .npz whose keys are variable names."""
    import numpy as np

    if isinstance(init, (str, os.PathLike)):
        with np.load(init) as data:
            return [(k, data[k]) for k in data.files]
    return [(k, np.asarray(v, dtype=np.float32)) for k, v in init.items()]


class Aligner:
    """Hands out the original's step-0 values to variables of the migrated program."""

    def __init__(self, names, values):
        self.pending = [(n, v) for n, v in zip(names, values)]

    @classmethod
    def wait_for(cls, path, timeout, abort_path=None):
        """Block until the original child has written its values (the two sides start together)."""
        import numpy as np

        deadline = time.time() + timeout
        while not os.path.exists(path):
            if abort_path and os.path.exists(abort_path):
                with open(abort_path) as f:
                    if f.read() == "none":  # the original trained nothing: run unaligned, the verdict says why
                        return cls([], [])
                raise SystemExit("original side failed before step 0; nothing to align to")
            if time.time() > deadline:
                raise TimeoutError(f"no step-0 values from the original after {timeout:.0f} s")
            time.sleep(0.05)
        with open(path + ".names.json") as f:
            names = json.load(f)
        data = np.load(path)
        merged = merge_values([(n, data[f"v{i}"]) for i, n in enumerate(names)])
        return cls([n for n, _ in merged], [v for _, v in merged])

    def take(self, wanted, shape):
        shape = tuple(shape)
        for matcher in (lambda n, v: n == wanted and v.shape == shape, lambda n, v: v.shape == shape):
            for i, (name, value) in enumerate(self.pending):
                if matcher(name, value):
                    del self.pending[i]
                    return value
        return None


def compare_variables(original, migrated):
    """Return (ok, message). `original`/`migrated`: [{"name", "shape"}] in creation order."""
    original, migrated = merge_shapes(original), merge_shapes(migrated)
    o_names = {v["name"]: tuple(v["shape"]) for v in original}
    m_names = {v["name"]: tuple(v["shape"]) for v in migrated}
    problems = []
    if len(original) != len(migrated):
        problems.append(f"{len(original)} trainable variables in the original, {len(migrated)} in the migrated")
    only_o = [f"{n}{list(s)}" for n, s in o_names.items() if n not in m_names]
    only_m = [f"{n}{list(s)}" for n, s in m_names.items() if n not in o_names]
    shape_diff = [f"{n}: {list(o_names[n])} vs {list(m_names[n])}" for n in o_names
                  if n in m_names and o_names[n] != m_names[n]]
    if len(original) == len(migrated) and not shape_diff:
        o_shapes = [tuple(v["shape"]) for v in original]
        m_shapes = [tuple(v["shape"]) for v in migrated]
        if sorted(o_shapes) == sorted(m_shapes):
            note = "" if not (only_o or only_m) else (
                "; names differ, matched by creation order and shape: " + ", ".join(only_o) + " ~ " + ", ".join(only_m))
            return True, f"{len(original)} trainable variables, same shapes{note}"
    if only_o:
        problems.append("only in the original: " + ", ".join(only_o))
    if only_m:
        problems.append("only in the migrated: " + ", ".join(only_m))
    if shape_diff:
        problems.append("shapes differ: " + "; ".join(shape_diff))
    return False, "variables differ: " + "; ".join(problems)
