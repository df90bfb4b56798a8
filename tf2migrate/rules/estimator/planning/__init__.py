"""What each TF1 concept becomes in Keras, one module per concept (optimizers, schedules, losses,
metrics, hooks and callbacks, exporters, TPU, strategy, canned estimators), the plan's types
(`plan_types.py`) and the notes a converted program reports.
"""
