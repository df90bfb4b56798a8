"""Say in words what a divergence looks like, when its shape gives the cause away.

The commonest one in custom loops: under N replicas the two programs' first losses differ by exactly
a factor N. One side averages its loss over the per-replica batch (`tf.reduce_mean`), the other over
the global batch (`tf.nn.compute_average_loss`); the replicas' gradients are summed, so the first
side's steps are N times too large (rule TFM401). With one replica the two agree.
"""


def replicas_of(cluster: str) -> int:
    kind, _, count = cluster.partition(":")
    if kind in ("mirrored", "multi-worker") and count.isdigit():
        return int(count)
    return 1


def divergence_hint(original, migrated, first_step, cluster: str) -> str:
    replicas = replicas_of(cluster)
    if replicas < 2 or first_step != 1 or not original or not migrated or not migrated[0]:
        return ""
    ratio = original[0] / migrated[0]
    for factor, larger in ((replicas, "original"), (1 / replicas, "migrated")):
        if abs(ratio - factor) <= 1e-4 * factor:
            other = "migrated" if larger == "original" else "original"
            return (f"the first losses differ by exactly {replicas}x, the number of replicas: the {larger} "
                    f"program averages its loss over the per-replica batch (tf.reduce_mean), the {other} over "
                    f"the global batch (tf.nn.compute_average_loss), so the {larger} program's steps are "
                    f"{replicas} times too large (the loss-scaling bug that TFM401 fixes); with one replica "
                    f"they would agree, and `--accept-fix TFM401` compares against the original with that fix")
    return ""
