"""Proofs that a method call is really on a `tf.distribute` object before a table rule touches it.

`reduce` is also `functools.reduce` and `Dataset.reduce`; these guards keep such calls untouched.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.facts import is_strategy
from tf2migrate.engine.imports import dotted


def _first_positional(call: cst.Call):
    return next((arg.value for arg in call.args if arg.keyword is None and not arg.star), None)


def reduce_op_first(call: cst.Call, ctx) -> bool:
    """`x.reduce(tf.distribute.ReduceOp.SUM, v)` or `x.reduce("mean", v)`: a strategy reduce."""
    if any(a.keyword is not None and a.keyword.value == "reduce_op" for a in call.args):
        return True
    first = _first_positional(call)
    name = dotted(first) if first is not None else None
    if name is not None and name.split(".")[-2:-1] == ["ReduceOp"]:
        return True
    if isinstance(first, cst.SimpleString):
        return first.evaluated_value.lower() in ("sum", "mean")
    return False


def strategy_receiver(call: cst.Call, ctx) -> bool:
    """`strategy.unwrap(v)` where `strategy` was built by a strategy constructor in this module."""
    func = call.func
    return isinstance(func, cst.Attribute) and ctx.facts.made_by_any(func.value, is_strategy)


CHECKS = {"reduce-op-first": reduce_op_first, "strategy-receiver": strategy_receiver}


def check(name: str, call: cst.Call, ctx) -> bool:
    return CHECKS[name](call, ctx)
