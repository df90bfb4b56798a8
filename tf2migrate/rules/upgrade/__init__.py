"""TF1 -> TF2 call upgrades that are logic, not data (TFM650-TFM699): tf_upgrade_v2's function transformers.

Each rule claims the TF symbols it upgrades (`Plugin.claims`): the generic table transformer leaves calls
to those alone, so a call is upgraded by one rule, never twice.
"""

# Codes whose fix would change what TF2 code computes (the call reads the same in TF1 and TF2): they run only
# where the call is known to be TF1 (`engine/tf_version.py`). tests/test_tf2_sources.py checks that none of
# them fires on TensorFlow's and Keras's own TF2 sources.
MEANING_CHANGING = frozenset({"TFM651", "TFM654", "TFM659", "TFM666"})
