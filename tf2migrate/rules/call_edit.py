"""Argument edits for one call, in tf_upgrade_v2's fixed order: positional-to-keyword, keyword
renames, keyword removals, keyword additions, value wraps.

An edit that cannot be made safely returns a `Blocker`: the call is then left exactly as it was.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.rules.tables import CallSpec

@dataclass
class Blocker:
    node: cst.CSTNode
    code: Optional[str]  # None: the rule's own code
    message: str


_TIGHT = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


def arg_value(call: cst.Call, name: str, index: int = None):
    """The value passed as `name=`, else as positional argument `index`; None when there is neither."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg.value
    if index is not None and index < len(call.args):
        arg = call.args[index]
        if arg.keyword is None and not arg.star:
            return arg.value
    return None


def keyword_arg(name: str, value: cst.BaseExpression) -> cst.Arg:
    """`name=value`, spaced as PEP 8 wants a keyword argument."""
    return cst.Arg(value=value, keyword=cst.Name(name), equal=_TIGHT)


def _keyword(arg: cst.Arg, name: str) -> cst.Arg:
    return arg.with_changes(keyword=cst.Name(name), equal=_TIGHT)


def keep_prefix(spec: CallSpec) -> int:
    """How many leading positional arguments stay positional (the rest become keywords)."""
    if spec.keep is not None:
        return spec.keep
    if not spec.new_args:
        return len(spec.args)
    renamed = [spec.keywords.get(a, a) for a in spec.args]
    k = 0
    while k < min(len(renamed), len(spec.new_args)) and renamed[k] == spec.new_args[k]:
        k += 1
    return k


def remove_arg(args: list, index: int) -> list:
    """`args` without argument `index`, the comma style kept (the last argument's comma moves to the one before)."""
    if index == len(args) - 1 and index > 0:
        args[index - 1] = args[index - 1].with_changes(comma=args[index].comma)
    return args[:index] + args[index + 1:]


def append_arg(args, arg: cst.Arg) -> list:
    """`args` + `arg`, keeping the call's comma style (a trailing comma stays trailing)."""
    args = list(args)
    if not args:
        return [arg]
    last = args[-1]
    sep = args[-2].comma if len(args) > 1 else cst.MaybeSentinel.DEFAULT
    return args[:-1] + [last.with_changes(comma=sep), arg.with_changes(comma=last.comma)]


def edit_args(original: cst.Call, updated: cst.Call, spec: CallSpec, render) -> tuple:
    """New argument list for `updated`, or a Blocker naming the argument that prevents the fix."""
    args = list(updated.args)
    if any(a.star for a in original.args) and (spec.args or spec.drop):
        return None, Blocker(original, None, "called with *args/**kwargs: convert this call by hand")
    for a in original.args:
        if a.keyword is not None and a.keyword.value in spec.block:
            return None, Blocker(a, None, f"`{a.keyword.value}=`: {spec.block[a.keyword.value]}")
    positional = [i for i, a in enumerate(original.args) if a.keyword is None]
    if spec.args and len(positional) > len(spec.args):
        return None, Blocker(original, None, "more positional arguments than the TF1 signature takes")
    keep = keep_prefix(spec)
    for n, i in enumerate(positional):
        if n >= keep and spec.args:
            args[i] = _keyword(args[i], spec.args[n])
    for i, a in enumerate(args):
        if a.keyword is not None and a.keyword.value in spec.keywords:
            args[i] = a.with_changes(keyword=cst.Name(spec.keywords[a.keyword.value]))
    for name, (kept, otherwise) in spec.drop.items():
        for i, a in enumerate(args):
            if a.keyword is not None and a.keyword.value == name:
                if source(a.value).strip() != kept:
                    return None, Blocker(original.args[i], otherwise, f"`{name}={source(a.value)}`")
                args = remove_arg(args, i)
                break
    for name in spec.remove:
        index = next((i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == name), None)
        if index is not None:
            args = remove_arg(args, index)
    present = {a.keyword.value for a in args if a.keyword is not None}
    n_positional = sum(1 for a in args if a.keyword is None)
    for name, value in spec.add.items():
        index = spec.args.index(name) if name in spec.args else len(spec.args)
        if name not in present and (n_positional <= index or not spec.args):  # no signature: a new keyword
            text = value.format(tf=render()) if "{tf}" in value else value  # a TF name: through the file's alias
            args = append_arg(args, keyword_arg(name, cst.parse_expression(text)))
    names = [a.keyword.value for a in args if a.keyword is not None]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        return None, Blocker(original, None, f"`{twice[0]}` would be passed twice (an argument and its deprecated "
                                             "alias): convert this call by hand")
    for i, a in enumerate(args):
        if a.keyword is not None and a.keyword.value in spec.wrap:
            text = spec.wrap[a.keyword.value].format(tf=render(), value=source(a.value))
            args[i] = a.with_changes(value=cst.parse_expression(text))
    return args, None
