"""Which tolerances a verify compares with, and why (the verdict says both).

Same TensorFlow on both sides: rtol and atol 1e-5 (TF's migration guide; measured bitwise on most pairs).
Different TensorFlow or Keras (the original on TF 2.15, the migrated program on TF 2.21): kernels and
Keras 3's optimizers may round differently, so the defaults are wider, chosen from the largest relative
difference measured over every pair of `fixtures/programs` (the table is in README "Moving to TF 2.16+").
They stay far below what a wrong migration gives (a wrong learning rate differs by 1e-2 or more from
step 2 on). `tolerance="strict"` keeps the same-version defaults across versions; `rtol`/`atol` given by
the user always win.
"""
STRICT_RTOL = STRICT_ATOL = 1e-5
CROSS_RTOL = 1e-4
CROSS_ATOL = 1e-5
CHOICES = ("auto", "strict", "cross-version")


def describe_side(side):
    v = side.versions if side else {}
    if not v:
        return "an unknown TensorFlow"
    return f"TF {v.get('tensorflow', '?')} ({v.get('keras', '?')})"


def cross_version(original, migrated):
    """True when the two sides ran with a different TensorFlow or Keras."""
    a, b = (original.versions if original else {}), (migrated.versions if migrated else {})
    return bool(a and b) and (a.get("tensorflow"), a.get("keras")) != (b.get("tensorflow"), b.get("keras"))


def choose(rtol, atol, tolerance, original, migrated):
    """(rtol, atol, note): the note says which tolerance and why."""
    across = cross_version(original, migrated)
    where = (f"the original ran on {describe_side(original)}, the migrated program on {describe_side(migrated)}"
             if across else f"both ran on {describe_side(original)}")
    wide = tolerance == "cross-version" or (tolerance == "auto" and across)
    default_rtol, default_atol = (CROSS_RTOL, CROSS_ATOL) if wide else (STRICT_RTOL, STRICT_ATOL)
    why = ("cross-version defaults" if wide else "strict defaults") + f" ({where})"
    if tolerance == "strict" and across:
        why = f"strict defaults, as asked, although {where}"
    if rtol is not None or atol is not None:
        why = f"given by the user ({where})"
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    return rtol, atol, f"rtol {rtol:g}, atol {atol:g}: {why}"
