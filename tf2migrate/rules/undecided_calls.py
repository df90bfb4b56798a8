"""Table upgrades of names TF2 also has (`also_tf2`), in a file nobody can call TF1 or TF2 code.

`tf.gradients`, `tf.math.in_top_k`, `tf.losses.mean_squared_error`, the initializers, the asserts: TF2 has a
function of the same name with another signature or meaning, so their table upgrades run only where the call
is known to mean TF1's (`needs_tf1`). Where nobody can tell, they used to be dropped in silence, and the TF1
reading then failed on TF2 (a TypeError) or, worse, ran with its arguments swapped.

Two cases now:
  - the call passes a keyword that only TF1's signature has and the upgrade renames or removes
    (`keep_dims=`, `colocate_gradients_with_ops=`, `split_dim=`): no TF2 call is written so, the call is TF1's,
    and the upgrade runs as in TF1 code;
  - otherwise, when the TF1 upgrade would change the call (a rename, positional arguments that TF2 binds
    otherwise), TFM650 names both readings and the call is left as written.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.call_edit import edit_args

PREVIEW = 70  # characters of the TF1 reading shown in the finding
# Keras is the same API in TF1 and TF2 code; its table entries (optimizers -> `legacy`) are about TF 2.11's
# new optimizers, not about TF1 against TF2: in an undecided file they stay as written, with no finding.
KERAS = "tf.keras."
# ... except TF1's Keras initializers, which took `dtype` after the arguments TF2's take: `Constant(v, d)`
# passed a dtype in TF1 and is a TypeError in TF2. Positional arguments TF2's class reads as TF1's did:
SAME_POSITIONS = {**dict.fromkeys(("Zeros", "zeros", "Ones", "ones"), 0),
                  **dict.fromkeys(("Constant", "constant", "Identity", "identity", "glorot_uniform",
                                   "glorot_normal"), 1),
                  **dict.fromkeys(("Orthogonal", "orthogonal"), 2),
                  **dict.fromkeys(("RandomNormal", "normal", "random_normal", "RandomUniform", "uniform",
                                   "random_uniform", "TruncatedNormal", "truncated_normal"), 3),
                  "VarianceScaling": 4}
INITIALIZERS = "tf.keras.initializers."


def keras_reads_otherwise(canonical: str, positional: int) -> bool:
    """A TF1 Keras initializer called with more positional arguments than TF2's reads the same (the next was
    TF1's `dtype`)."""
    if not canonical.startswith(INITIALIZERS):
        return False
    same = SAME_POSITIONS.get(canonical[len(INITIALIZERS):])
    return same is not None and positional > same


def tf1_only_actions(ctx, tables, func, literal: Optional[str], claimed: frozenset = frozenset(),
                     positional: int = 0) -> tuple:
    """The `needs_tf1` actions the table holds for this call where nobody can tell TF1 from TF2, else ()
    (`claimed`: names a code rule upgrades, and reports in such a file itself; `positional`: the call's
    positional arguments)."""
    if ctx.tf1_semantics(literal) is not None:
        return ()
    canonical = ctx.resolve(func)[1]
    if canonical is None or canonical in claimed or canonical.startswith(KERAS) and not keras_reads_otherwise(
            canonical, positional):
        return ()
    for key in (literal, canonical):
        found = tables.by_symbol.get(key) if key else None
        if found:
            return tuple(a for a in found if a.needs_tf1)
    return ()


def proves_tf1(call: cst.Call, action) -> bool:
    """Does the call pass a keyword that only TF1's signature has, which this upgrade renames or removes?"""
    spec = action.call
    if spec is None:
        return False
    tf1_only = (set(spec.keywords) | set(spec.remove) | set(spec.drop)) - set(spec.new_args) - set(spec.keywords.values())
    return any(a.keyword is not None and a.keyword.value in tf1_only for a in call.args)


def tf1_reading(ctx, original: cst.Call, updated: cst.Call, actions) -> Optional[cst.Call]:
    """The call as the TF1 upgrade would write it, when that differs from what is written; else None."""
    changed = updated
    for action in actions:
        if action.call is not None:
            args, blocker = edit_args(original, changed, action.call, ctx.emit.alias)
            if blocker is not None:
                return changed  # the TF1 reading cannot even be written: still two readings
            changed = changed.with_changes(args=args)
    for action in actions:
        if action.new is not None:
            changed = changed.with_changes(func=ctx.emit.attribute(action.new))
    return None if changed.deep_equals(updated) else changed


def report_two_readings(ctx, original: cst.Call, reading: cst.Call) -> None:
    """TFM650 with both readings of the call."""
    name = source(original.func)
    preview = source(reading)
    if len(preview) > PREVIEW:
        preview = preview[:PREVIEW - 3] + "..."
    ctx.report(original, "TFM650", f"`{name}` means something else in TF1 and TF2 code: as TF1 it would become "
               f"`{preview}`, as TF2 it stays; not upgraded: cannot tell whether this file is TF1 or TF2 code "
               f"({ctx.tf_version.reason}); set `source = \"tf1\"` or `\"tf2\"` in [tool.tf2migrate] (or --source)")
