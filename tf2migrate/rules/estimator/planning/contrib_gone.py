"""Why a model_fn's `tf.contrib` call blocks, naming the replacement when TF2 has none in core or Keras.

`tf.contrib` is gone since TF 2.0. Most of it moved to core (and the upgrade rules rename it); what did not must be
replaced before the Estimator converts. For the metric-learning losses Google's TPU templates use
(`triplet_semihard_loss`), TF2 has no core or Keras loss: their port is TensorFlow Addons' (same arguments,
ported from contrib), a package that is end-of-life and stops at TF 2.15. The finding says so instead of pointing
at the migration guide, which names no replacement.
"""
from __future__ import annotations

GENERIC = "`tf.contrib` is gone in TF2: replace it (see the TF2 migration guide) before converting"
ADDONS_ONLY = {  # contrib name -> its TensorFlow Addons port (same arguments and defaults)
    "tf.contrib.losses.metric_learning.triplet_semihard_loss": "tfa.losses.triplet_semihard_loss",
    "tf.contrib.losses.metric_learning.lifted_struct_loss": "tfa.losses.lifted_struct_loss",
}


def why(canonical: str) -> str:
    """The finding's reason for the `tf.contrib` name `canonical`."""
    port = ADDONS_ONLY.get(canonical)
    if port is None:
        return GENERIC
    return (f"`{canonical}` is gone in TF2 and has no TF2 core or Keras equivalent: its port is TensorFlow Addons' "
            f"`{port}` (same arguments; Addons is end-of-life, up to TF 2.15), or a copy of it in the program; "
            "replace it, then convert")
