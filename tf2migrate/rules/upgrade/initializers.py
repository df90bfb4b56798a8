"""TFM655: contrib's xavier / variance-scaling initializers and `uniform_unit_scaling_initializer`
-> `tf.compat.v1.keras.initializers.VarianceScaling(...)` with the same numbers."""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.call_edit import keyword_arg
from tf2migrate.rules.upgrade.common import called, literal_str, parens, positional, to_keywords

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
      `"truncated_normal"` (`("uniform" if uniform else "truncated_normal")`, written as tf_upgrade_v2 does);
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
            'mode="fan_avg", distribution=("uniform" if False else "truncated_normal"), seed=1)\n',
        ),
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        _, canonical = called(self.ctx, original, self.claims)
        if canonical is None:
            return updated
        if not binds(canonical, updated.args):
            unbound(self.ctx, original, canonical)
            return updated
        if not self.ctx.report(original, "TFM655"):
            return updated
        return updated.with_changes(func=self.ctx.emit.compat_v1(TARGET), args=new_args(canonical, updated.args))

    @staticmethod
    def _xavier(args: list, keywords: list) -> list:
        """tf_upgrade_v2's order: scale, mode, the positional arguments as keywords, then the call's keywords
        (`uniform` becomes `distribution` where it stands)."""
        out = [keyword_arg("scale", cst.Float("1.0")), keyword_arg("mode", cst.SimpleString('"fan_avg"'))]
        if args:
            out.append(keyword_arg("distribution", _distribution(args[0].value)))
        elif not any(a.keyword.value == "uniform" for a in keywords):
            out.append(keyword_arg("distribution", cst.SimpleString('"uniform"')))
        out += [keyword_arg(k, a.value) for k, a in zip(("seed", "dtype"), args[1:])]
        return out + [keyword_arg("distribution", _distribution(a.value)) if a.keyword.value == "uniform"
                      else keyword_arg(a.keyword.value, a.value) for a in keywords]

    @staticmethod
    def _variance(args: list, keywords: list) -> list:
        """TF2's class takes the same positions (scale, mode, distribution, seed, dtype): each argument stays
        where it is, `mode` lower-cased, `uniform` a distribution; contrib's `factor` default (2.0, Keras's
        is 1.0) is written out, its other defaults are Keras's (`fan_in`, `truncated_normal`)."""
        edits = {"factor": ("scale", None), "mode": ("mode", _lower), "uniform": ("distribution", _distribution)}
        out = [] if args or any(a.keyword.value == "factor" for a in keywords) else [
            keyword_arg("scale", cst.Float("2.0"))]
        for name, a in zip(TF1_ARGS["variance"], args):
            edit = edits.get(name, (None, None))[1]
            out.append(cst.Arg(edit(a.value) if edit else a.value))
        for a in keywords:
            new, edit = edits.get(a.keyword.value, (a.keyword.value, None))
            out.append(keyword_arg(new, edit(a.value) if edit else a.value))
        return out

    @staticmethod
    def _unit(given: dict) -> list:
        factor = given.get("factor")
        scale = None if factor is None else cst.BinaryOperation(
            left=parens(factor), operator=cst.Power(), right=cst.Integer("2"))
        return [("scale", scale), ("mode", cst.SimpleString('"fan_in"')),
                ("distribution", cst.SimpleString('"uniform"'))]


def _kind(canonical: str) -> str:
    return "xavier" if canonical in XAVIER else "variance" if canonical in VARIANCE else "unit"


def binds(canonical: str, args) -> bool:
    """Do the call's arguments (LibCST's `Arg`s) bind TF1's signature? Shared with the splice twin
    (rules/splice_upgrades.py), as are `unbound` and `new_args`."""
    names = TF1_ARGS[_kind(canonical)]
    given = positional(cst.Call(func=cst.Name("f"), args=args))
    return given is not None and len(given) <= len(names) and all(
        a.keyword is None or a.keyword.value in names for a in args)


def unbound(ctx, node, canonical: str) -> None:
    ctx.report(node, "TFM655", f"`{canonical}` is gone in TF2 and this call's arguments cannot "
               "be bound: use `tf.compat.v1.keras.initializers.VarianceScaling` by hand", fixable=False)


def new_args(canonical: str, args) -> list:
    """The VarianceScaling call's arguments, from the TF1 call's."""
    kind = _kind(canonical)
    if kind == "unit":
        given = {a.keyword.value: a.value for a in to_keywords(args, TF1_ARGS[kind])}
        out = [keyword_arg(k, v) for k, v in Initializers._unit(given) if v is not None]
        out += [keyword_arg(k, given[k]) for k in ("seed", "dtype") if k in given]
    else:
        out = getattr(Initializers, "_" + kind)(positional(cst.Call(func=cst.Name("f"), args=args)),
                                                [a for a in args if a.keyword is not None])
    return _spread_like(out, args)


def _lower(mode: cst.BaseExpression) -> cst.BaseExpression:
    """`"fan_in"` for a literal, else `(mode).lower()`: contrib's modes were upper case, Keras's are lower."""
    text = literal_str(mode)
    if text is not None:
        return cst.SimpleString(f'"{text.lower()}"')
    return cst.Call(func=cst.Attribute(value=parens(mode), attr=cst.Name("lower")))


def _distribution(uniform: cst.BaseExpression) -> cst.BaseExpression:
    """`("uniform" if uniform else "truncated_normal")`, as tf_upgrade_v2 writes it: the test bare where
    Python reads it as one (an `or`, a call, ...), in parentheses where it would not (`x if y else z`, a lambda)."""
    test = uniform.with_changes(lpar=[], rpar=[]) if uniform.lpar else uniform
    if isinstance(test, (cst.IfExp, cst.Lambda, cst.NamedExpr)):
        test = test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.IfExp(test=test, body=cst.SimpleString('"uniform"'), orelse=cst.SimpleString('"truncated_normal"'),
                     lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def _spread_like(args: list, old) -> list:
    """Comma-separated on one line, with the old call's trailing comma kept."""
    if old and args and old[-1].comma is not cst.MaybeSentinel.DEFAULT:
        args[-1] = args[-1].with_changes(comma=old[-1].comma)
    return args
