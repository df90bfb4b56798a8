"""The words and shapes a child writes and the parent reads, declared once for both sides.

A child records facts as JSON (`capture/recorder.py`); the parent's checks read them (`checks.py`,
`eval_match.py`, the verdict). What both must spell the same lives here, so neither side imports the other.
"""
BATCH_MEAN = "loss averaged over batches"   # eval result key: the mean of the batch losses (capture_eval.py)
LOSS = "loss"                               # the metric kind of a loss (metric_kinds.py)


def shuffle_op(buffer, seed, reshuffle):
    """A shuffle by what decides its order: `reshuffle_each_iteration=None` is TF's default, True."""
    return {"op": "shuffle", "buffer": buffer, "seed": seed, "reshuffle": True if reshuffle is None else reshuffle}
