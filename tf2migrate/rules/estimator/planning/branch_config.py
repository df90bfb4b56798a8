"""Checkpoint settings that the two branches of an Estimator switch give differently, made one expression.

Google's TPU templates write `if args.use_tpu: ... tpu.RunConfig(save_checkpoints_steps=N) ... else:
RunConfig(model_dir=...)`: both branches train with the one `train()` call after the `if`, so the Keras
program has one `fit` with one ModelCheckpoint for both. Its `save_freq` keeps each branch's setting:
`N if args.use_tpu else "epoch"` (a RunConfig without save_checkpoints_steps saved by time, which
Keras does not do; TFM315 already says the callback is Keras' own). Nothing that trains differs.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source

KEYS = ("save_checkpoints_steps",)
KERAS_DEFAULT = {"save_checkpoints_steps": '"epoch"'}  # ModelCheckpoint(save_freq=...) when the branch sets none


def align(sw, progs) -> None:
    """Give both branches' programs (the `if` one first) the same conditional setting where they differ."""
    if len(progs) != 2:
        return
    for key in KEYS:
        values = [p.config.get(key) for p in progs]
        texts = [source(v) if v is not None else None for v in values]
        if texts[0] == texts[1]:
            continue
        body, orelse = (v if v is not None else cst.parse_expression(KERAS_DEFAULT[key]) for v in values)
        chosen = cst.IfExp(test=sw.original.test, body=body, orelse=orelse)
        for prog in progs:
            prog.config[key] = chosen
