"""TFM656: `tf.contrib.layers.l1_regularizer(s)` / `l2_regularizer(s)` -> `tf.keras.regularizers.l1(s)` /
`l2(0.5 * s)`."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.upgrade.common import called, positional, times, to_keywords

_SLIM = ("tf.contrib.layers.", "tf.contrib.slim.")
L1 = frozenset(p + "l1_regularizer" for p in _SLIM)
L2 = frozenset(p + "l2_regularizer" for p in _SLIM)


class Regularizers(Plugin):
    """`tf.contrib` is gone in TF2; Keras's regularizers do the same job. contrib's `l2_regularizer(scale)`
    computes `scale * tf.nn.l2_loss(w)` = `scale * sum(w ** 2) / 2`, Keras's `l2(l)` computes `l * sum(w ** 2)`,
    so the factor is halved: `l2(0.5 * scale)`. `l1` is the same formula. The `scope` argument (a name only)
    has no Keras counterpart and is dropped. The factor is passed positionally: Keras 2 calls it `l1`/`l2`
    (it still accepts `l`), Keras 3 only `l1`/`l2`, and the position works in both."""

    claims = L1 | L2
    infos = (
        RuleInfo(
            code="TFM656",
            name="contrib-regularizer",
            summary="tf.contrib.layers.l1_regularizer / l2_regularizer -> tf.keras.regularizers.l1 / l2",
            message="`tf.contrib.layers` regularizers are gone in TF2: Keras's (l2 halves the factor)",
            why=__doc__,
            before="import tensorflow as tf\nreg = tf.contrib.layers.l2_regularizer(scale=1e-4)\n",
            after="import tensorflow as tf\nreg = tf.keras.regularizers.l2(0.5 * (1e-4))\n",
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        _, canonical = called(self.ctx, original, self.claims)
        if canonical is None:
            return updated
        found = decide(canonical, updated.args)
        if found is None:
            unbound(self.ctx, original, canonical)
            return updated
        if not self.ctx.report(original, "TFM656"):
            return updated
        kind, arg = found
        return updated.with_changes(func=self.ctx.emit.attribute("tf.keras.regularizers." + kind), args=[arg])


def decide(canonical: str, args) -> tuple:
    """("l1" or "l2", the Keras call's one argument) from the call's (LibCST's `Arg`s), or None when they
    cannot be bound. Shared with the splice twin (rules/splice_upgrades.py), as is `unbound`."""
    given_positional = positional(cst.Call(func=cst.Name("f"), args=args))
    named = to_keywords(args, ("scale", "scope")) if given_positional is not None and len(given_positional) <= 2 else []
    given = {a.keyword.value: a for a in named}
    if not named or len(given) < len(named) or "scale" not in given or set(given) - {"scale", "scope"}:
        return None
    value = given["scale"].value
    kind = "l1" if canonical in L1 else "l2"
    return kind, cst.Arg(value if kind == "l1" else times("0.5", value))


def unbound(ctx, node, canonical: str) -> None:
    ctx.report(node, "TFM656", f"`{canonical}` is gone in TF2 and this call's arguments cannot "
               "be bound: use `tf.keras.regularizers` by hand", fixable=False)
