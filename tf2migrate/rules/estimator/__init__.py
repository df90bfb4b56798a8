"""Estimator -> Keras + Strategy (TFM3xx): the structural migration.

`plugin.py` is the entry point; `analyze.py` and `model_fn.py` read the TF1 program into a plan (or a
list of blocking lines), the other modules turn one part of the plan into TF2 source, and `emit.py`
assembles the Keras program. Either the whole program is converted or nothing is.
"""
