"""Estimator -> Keras + Strategy (TFM3xx): the structural migration, laid out in rooms by phase.

`plugin.py` is the entry point: it finds the program (program/; the readers of TF1 shapes are in
reading/) and converts it in three steps (`convert.py`): the plan (`program_plan.py`: the model's path,
the strategy, the Keras target, the writer; one module per TF1 concept in planning/, one room per model
path: idiomatic/, shim_path/, default_path/), the rendering of each statement and the splice of the new
body (writing/). package/ holds the helper's side of a program spread over modules; syntax/ the LibCST
helpers every phase uses. Either the whole program is converted or nothing is (`failures.py`); `codes.py`
and `examples.py` document TFM3xx. Imports go down this list: package, writing, program, the paths,
planning, reading, syntax (`python tools/layout_estimator.py --arrows` counts those that do not).
"""
