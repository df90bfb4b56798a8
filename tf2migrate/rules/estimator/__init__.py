"""Estimator -> Keras + Strategy (TFM3xx): the structural migration.

`plugin.py` is the entry point: it finds the program (`analyze.py`, `scope.py`, `switch.py`, the package
modules) and converts it in three steps (`convert.py`): the plan (`conversion.py`: the model's path, the
strategy kind, the Keras target, the writer), the rendering of each statement (`program_render.py`, with
`emit.py` and `runs.py` for the model builder and the runs, `templates.py` for generated code) and the
splice of the new body (`splice.py`). `plans.py` declares what every path's plan holds: the idiomatic
path (`model_fn.py`), the canned estimators (`canned.py`) and the general Model subclass (`general.py`).
Either the whole program is converted or nothing is.
"""
