"""TF1 -> TF2 call upgrades that are logic, not data (TFM650-TFM699): tf_upgrade_v2's function transformers.

Each rule claims the TF symbols it upgrades (`Plugin.claims`): the generic table transformer leaves calls
to those alone, so a call is upgraded by one rule, never twice.
"""
