"""TFM655: contrib's xavier / variance-scaling initializers and `uniform_unit_scaling_initializer`
-> `tf.compat.v1.keras.initializers.VarianceScaling(...)` with the same numbers."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import keyword_arg
from tf2migrate.rules.upgrade.common import called, choose, literal_str, parens, positional, to_keywords

_SLIM = ("tf.contrib.layers.", "tf.contrib.slim.")
XAVIER = frozenset(p + n for p in _SLIM for n in ("xavier_initializer", "xavier_initializer_conv2d"))
VARIANCE = frozenset(p + "variance_scaling_initializer" for p in _SLIM)
UNIT = frozenset({"tf.uniform_unit_scaling_initializer", "tf.initializers.uniform_unit_scaling"})
TF1_ARGS = {"xavier": ("uniform", "seed", "dtype"), "variance": ("factor", "mode", "uniform", "seed", "dtype"),
            "unit": ("factor", "seed", "dtype")}
TARGET = "tf.keras.initializers.VarianceScaling"


class Initializers(Plugin):
    """`tf.contrib` is gone in TF2, and so is `uniform_unit_scaling_initializer`; all of them are a
    variance-scaling initializer, which TF2 keeps as `tf.compat.v1.keras.initializers.VarianceScaling`
    (the TF1-style class: it still takes `dtype` and works with `get_variable`).

    - `xavier_initializer(uniform=True)` is `scale=1.0, mode="fan_avg"`, `"uniform"` or
      `"truncated_normal"`;
    - contrib's `variance_scaling_initializer(factor=2.0, mode="FAN_IN", uniform=False)` keeps its own
      defaults (`scale=2.0`) and lower-cases `mode`;
    - `uniform_unit_scaling_initializer(factor)` draws from +-sqrt(3 / fan_in) * factor, which is
      `scale=factor ** 2, mode="fan_in", distribution="uniform"` (tf_upgrade_v2 writes `scale=factor`, which
      is the same only for factor 1: `factor=1.43` would shrink the weights by 16 %).

    Contrib's truncated-normal stddev was sqrt(1.3 * scale / n), Keras's is sqrt(scale / n) / 0.8796: they
    differ by 0.3 %, the documented difference between the two."""

    claims = XAVIER | VARIANCE | UNIT
    infos = (
        RuleInfo(
            code="TFM655",
            name="variance-scaling-initializer",
            summary="contrib xavier/variance_scaling and uniform_unit_scaling initializers -> VarianceScaling",
            message="this initializer is gone in TF2: the same VarianceScaling initializer",
            why=__doc__,
            before="import tensorflow as tf\ninit = tf.contrib.layers.xavier_initializer(uniform=False, seed=1)\n",
            after="import tensorflow as tf\ninit = tf.compat.v1.keras.initializers.VarianceScaling(scale=1.0, "
            'mode="fan_avg", distribution="truncated_normal", seed=1)\n',
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        _, canonical = called(self.ctx, original, self.claims)
        if canonical is None:
            return updated
        kind = "xavier" if canonical in XAVIER else "variance" if canonical in VARIANCE else "unit"
        names = TF1_ARGS[kind]
        args = positional(updated)
        if args is None or len(args) > len(names) or any(
                a.keyword is not None and a.keyword.value not in names for a in updated.args):
            self.ctx.report(original, "TFM655", f"`{canonical}` is gone in TF2 and this call's arguments cannot "
                            "be bound: use `tf.compat.v1.keras.initializers.VarianceScaling` by hand", fixable=False)
            return updated
        if not self.ctx.report(original, "TFM655"):
            return updated
        given = {a.keyword.value: a.value for a in to_keywords(updated.args, names)}
        new = getattr(self, "_" + kind)(given)
        out = [keyword_arg(k, v) for k, v in new if v is not None]
        out += [keyword_arg(k, given[k]) for k in ("seed", "dtype") if k in given]
        return updated.with_changes(func=self.ctx.emit.compat_v1(TARGET), args=_spread_like(out, updated.args))

    @staticmethod
    def _xavier(given: dict) -> list:
        uniform = given.get("uniform", cst.Name("True"))
        return [("scale", cst.Float("1.0")), ("mode", cst.SimpleString('"fan_avg"')),
                ("distribution", choose(uniform, "uniform", "truncated_normal"))]

    @staticmethod
    def _variance(given: dict) -> list:
        mode = given.get("mode", cst.SimpleString('"FAN_IN"'))
        text = literal_str(mode)
        mode = cst.SimpleString(f'"{text.lower()}"') if text is not None else cst.Call(
            func=cst.Attribute(value=parens(mode), attr=cst.Name("lower")))
        uniform = given.get("uniform", cst.Name("False"))
        return [("scale", given.get("factor", cst.Float("2.0"))), ("mode", mode),
                ("distribution", choose(uniform, "uniform", "truncated_normal"))]

    @staticmethod
    def _unit(given: dict) -> list:
        factor = given.get("factor")
        scale = None if factor is None else cst.BinaryOperation(
            left=parens(factor), operator=cst.Power(), right=cst.Integer("2"))
        return [("scale", scale), ("mode", cst.SimpleString('"fan_in"')),
                ("distribution", cst.SimpleString('"uniform"'))]


def _spread_like(args: list, old) -> list:
    """Comma-separated on one line, with the old call's trailing comma kept."""
    if old and args and old[-1].comma is not cst.MaybeSentinel.DEFAULT:
        args[-1] = args[-1].with_changes(comma=old[-1].comma)
    return args
