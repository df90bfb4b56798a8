"""Inside a child: which TensorFlow and which Keras this interpreter gives the program, and whether the
harness can work with them.

The two sides of a verify may run under different interpreters (`--original-python`, `--migrated-python`):
typically the original on TF 2.15 (tf.estimator, Keras 2 as `tf.keras`) and the migrated program on
TF 2.21, where `tf.keras` is Keras 3, or Keras 2 from the `tf-keras` package when `TF_USE_LEGACY_KERAS=1`.
The capture hooks differ by Keras (see `capture_keras.py`, `capture_keras3.py`), so they ask here.
"""
import os
import re
from dataclasses import dataclass

SUPPORTED = ((2, 15), (2, 21))   # tested: 2.15.1 (Keras 2.15) and 2.21.0 (Keras 3.15, tf-keras 2.21)
LAST_WITH_ESTIMATOR = (2, 15)
_LEGACY_SWITCH = re.compile(r"""["']TF_USE_LEGACY_KERAS["']\s*\]\s*=\s*["'](1|true|True)["']"""
                            r"""|setdefault\(\s*["']TF_USE_LEGACY_KERAS["']\s*,\s*["'](1|true|True)["']""")

_TF_IMPORT = re.compile(r"^\s*(import\s+tensorflow\b|from\s+tensorflow\b)", re.M)


class Unsupported(Exception):
    """This interpreter cannot run the side: the verdict is INCOMPARABLE with this reason."""


@dataclass
class Keras:
    root: str        # the package behind `tf.keras`: "keras" (TF <= 2.15 and Keras 3) or "tf_keras"
    major: int       # 2 or 3
    version: str


def honour_legacy_switch(source):
    """A program that selects Keras 2 itself (`os.environ["TF_USE_LEGACY_KERAS"] = "1"` before importing
    TensorFlow, as the `tf-keras` target writes) must get it although the harness imports TensorFlow first.
    The target writes it under `if importlib.util.find_spec("tf_keras"):` (TF 2.15 has Keras 2 without it),
    and so does this."""
    switch = _LEGACY_SWITCH.search(source)
    if not switch or "TF_USE_LEGACY_KERAS" in os.environ:
        return False
    tf_import = _TF_IMPORT.search(source)
    if tf_import and tf_import.start() < switch.start():
        return False   # set after TensorFlow is imported, the switch does nothing: the program gets Keras 3
    if 'find_spec("tf_keras")' in source:
        import importlib.util

        if importlib.util.find_spec("tf_keras") is None:
            return False
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    return True


def import_tensorflow():
    """`tensorflow`, or Unsupported with the reason (absent, or a version the harness was not built for)."""
    try:
        import tensorflow as tf
    except ImportError as e:
        raise Unsupported(f"TensorFlow is not installed in this interpreter ({type(e).__name__}: {e})") from e
    numbers = tuple(int(p) for p in re.findall(r"\d+", tf.__version__)[:2])
    if not SUPPORTED[0] <= numbers <= SUPPORTED[1]:
        low, high = (".".join(map(str, v)) for v in SUPPORTED)
        raise Unsupported(f"TensorFlow {tf.__version__} is not supported by the harness (supported: {low} to {high})")
    return tf


def tf_version_tuple(tf):
    return tuple(int(p) for p in re.findall(r"\d+", tf.__version__)[:2])


def keras(tf):
    """The Keras behind `tf.keras` (imported lazily by TensorFlow: this is where it gets loaded)."""
    try:
        layer = tf.keras.layers.Layer
    except (ImportError, AttributeError) as e:
        hint = " (TF_USE_LEGACY_KERAS=1 needs the tf-keras package)" if os.environ.get("TF_USE_LEGACY_KERAS") else ""
        raise Unsupported(f"tf.keras cannot be loaded{hint}: {type(e).__name__}: {e}") from e
    module = layer.__module__
    root = module.split(".")[0]
    major = 2 if ".engine." in module else 3
    package = __import__(root)
    version = getattr(package, "__version__", "") or getattr(tf, "__version__", "")
    return Keras(root, major, version)


def check_estimator(tf, uses_estimator):
    if uses_estimator and tf_version_tuple(tf) > LAST_WITH_ESTIMATOR:
        raise Unsupported(f"the program uses tf.estimator, which TensorFlow {tf.__version__} no longer has "
                          f"(removed in 2.16): run this side under a TF 2.15 interpreter")
