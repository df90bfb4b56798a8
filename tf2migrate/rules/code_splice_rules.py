"""The call upgrades of rules/code_splice.py, one function per rule, each the splice twin of its rule's
`leave_call` (rules/upgrade/): the same tests in the same order, the same findings, the same new text."""
from __future__ import annotations

import ast

from tf2migrate.engine.imports import ast_dotted
from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules.code_splice import Call, called, compat_v1
from tf2migrate.rules.splice_upgrades import (DEVICE_FUNCTION, IMAGE_RESIZE, KERAS_REGULARIZER, SOFTMAX_LABELS,
                                             VARIANCE_SCALING)
from tf2migrate.rules.upgrade.casts import CASTS, DTYPES
from tf2migrate.rules.upgrade.common import tf1_here
from tf2migrate.rules.upgrade.dropout import DROPOUT, TF1_ARGS as DROPOUT_ARGS
from tf2migrate.rules.upgrade.gone_arguments import GONE
from tf2migrate.rules.upgrade.iterators import METHODS
from tf2migrate.rules.upgrade.name_scope import NAME_SCOPE, TF1_ARGS as NAME_SCOPE_ARGS


def _literal_bool(expr):
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, bool) else None


def _is_none(expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _is_string(expr) -> bool:
    return isinstance(expr, ast.JoinedStr) or isinstance(expr, ast.Constant) and isinstance(expr.value, (str, bytes))


def dropout(p, node: ast.Call) -> None:
    """`Dropout.leave_call` (TFM651)."""
    literal, _ = called(p, node, DROPOUT)
    if literal is None:
        return
    c = Call(p, node)
    given = c.keyword("keep_prob")
    if given is not None:
        if c.keyword("rate") is not None or not p.ctx.report(node, "TFM651"):
            return
        c.rebuilt(given)
        p.text.replace(given.start, given.end, "rate=" + c.one_minus(given))
        return
    args = c.positional()
    if args is None or len(args) < 2 or c.keyword("rate") is not None:
        return
    if len(args) > len(DROPOUT_ARGS):
        p.ctx.report(node, "TFM651", "`tf.nn.dropout`: more positional arguments than TF1's `x, keep_prob, "
                     "noise_shape, seed, name`: the call cannot be bound, fix it by hand", fixable=False)
        return
    if not tf1_here(p.ctx, node, literal, "`tf.nn.dropout(x, keep_prob)` (the second argument is `rate` in TF2)"):
        return
    if not p.ctx.report(node, "TFM651"):
        return
    keep = args[1]
    rate = "rate=" + c.one_minus(keep)
    c.rebuilt(keep)
    c.to_keywords((None, None) + DROPOUT_ARGS[2:])
    p.text.replace(keep.start, keep.end, rate)


def casts(p, node: ast.Call) -> None:
    """`Casts.leave_call` (TFM652)."""
    _, canonical = called(p, node, CASTS)
    if canonical is None:
        return
    c = Call(p, node)
    args = c.positional()
    if args is None or len(args) > 2:
        p.ctx.report(node, "TFM652", f"`{canonical}` is gone in TF2 and this call's arguments cannot "
                     "be bound (*args, or too many): use `tf.cast(x, dtype)` by hand", fixable=False)
        return
    if not p.ctx.report(node, "TFM652"):
        return
    dtype = f"{p.alias()}.{DTYPES[canonical[3:]]}"
    func = p.like(node.func, "tf.cast")
    c.to_keywords((None, "name"))
    c.append("dtype", dtype)
    p.text.replace(*p.text.span(node.func), func)


def iterators(p, node: ast.Call) -> None:
    """`DatasetIterators.leave_call` (TFM657)."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in METHODS or node.args or node.keywords:
        return
    root = ast_dotted(func.value)
    head = root.split(".")[0] if root else None
    if head and p.ctx.imports.is_module_alias(head) and not p.shadowed(head, func.value):
        return
    if not p.ctx.report(node, "TFM657"):
        return
    function = compat_v1(p, "tf.data." + func.attr)
    receiver = _receiver(p, func)  # its own parentheses kept, as tf_upgrade_v2 keeps them
    p.text.replace(*p.text.span(node), f"{function}({receiver})")


def _receiver(p, func: ast.Attribute) -> str:
    """The text before `.method`, with the receiver's own parentheses; NotSure when anything but blanks and
    parentheses stands between the receiver and its dot (a comment, a line break)."""
    start, end = p.text.span(func)
    value_end = p.text.span(func.value)[1]
    dot = p.text.text.rindex(".", value_end, end)
    if p.text.text[value_end:dot].strip(" \t)"):
        raise NotSure("a comment or line break before an iterator method's dot")
    return p.text.render(start, dot).rstrip()


def name_scope(p, node: ast.Call) -> None:
    """`NameScope.leave_call` (TFM660)."""
    literal, canonical = called(p, node, NAME_SCOPE)
    if canonical is None or literal.startswith("tf.compat.v1."):
        return
    c = Call(p, node)
    args = c.positional()
    if args is None or len(args) > 3 or (len(c.args) == 1 and c.args[0].keyword is None):
        return
    given, i = {}, 0
    for a in c.args:
        given[a.keyword if a.keyword is not None else NAME_SCOPE_ARGS[i]] = a
        i += a.keyword is None
    if set(given) - set(NAME_SCOPE_ARGS):
        return
    name, default = given.get("name"), given.get("default_name")
    if default is not None and (name is None or _is_none(name.value)):
        name = default
    elif name is None or _is_none(name.value):
        p.ctx.report(node, "TFM660", "`name_scope` without a name: TF2 needs one", fixable=False)
        return
    elif default is not None and not _is_string(name.value):
        message = ("kept as `tf.compat.v1.name_scope`: `name` may be None at run time, when TF1 used "
                   "`default_name`; pass `name or default_name` to TF2's `tf.name_scope`")
        if not p.ctx.report(node, "TFM660", message):
            return
        p.text.replace(*p.text.span(node.func), compat_v1(p, canonical))
        return
    if not p.ctx.report(node, "TFM660"):
        return
    text = c.value_text(name)
    new = text if c.args[0].keyword is None and name is not default else "name=" + text
    p.text.replace(c.args[0].start, c.close_at, new)


def gone_arguments(p, node: ast.Call) -> None:
    """`GoneArguments.leave_call` (TFM658): its findings and its move to compat.v1; an argument to drop or
    rename is NotSure."""
    literal, canonical = called(p, node, frozenset(GONE))
    if canonical is None or literal.startswith("tf.compat.v1."):
        return
    c = Call(p, node)
    positional = c.positional()
    gone = GONE[canonical]
    if positional is None or len(positional) > len(gone.tf1_args):
        return
    keys, i, moved = [], 0, False
    for a in c.args:
        if a.keyword is None and i < len(gone.tf1_args) and gone.tf1_args[i] is not None:
            keys.append(gone.tf1_args[i])
            moved = True
        else:
            keys.append(a.keyword)
        i += a.keyword is None
    given = next((a for a, key in zip(c.args, keys) if key == gone.name), None)
    value = _literal_bool(given.value) if given is not None else gone.tf1_default
    keep_v1 = value is not gone.tf2_value
    if given is None and keep_v1:
        if canonical == "tf.while_loop":
            keep_v1 = False
        else:
            what = f"`{canonical}` without `{gone.name}=`"
            if tf1_here(p.ctx, node, literal, what):
                p.ctx.report(node, "TFM658", f"TF1 defaulted to `{gone.name}={gone.tf1_default}`, TF2 "
                             f"behaves as `{gone.name}={gone.tf2_value}`: to keep TF1's results call "
                             f"`tf.compat.v1.{canonical[3:]}`", fixable=False)
            return
    if keep_v1:
        message = f"kept as `tf.compat.v1.{canonical[3:]}`: TF2 behaves as `{gone.name}={gone.tf2_value}`"
        if p.ctx.report(node, "TFM658", message):
            p.text.replace(*p.text.span(node.func), compat_v1(p, canonical))
        return
    if given is None and not moved and not any(key in dict(gone.renames) for key in keys):
        return
    raise NotSure("an argument TF2 dropped, to drop or rename")


def _last(names) -> frozenset:
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


# the registry's order (Dropout, Casts, ImageResize, SoftmaxLabels, Initializers, Regularizers, DatasetIterators,
# NameScope, GoneArguments, DeviceFunction); by the called name's last word
BY_LAST_WORD = (
    (_last(DROPOUT), dropout),
    (_last(CASTS), casts),
    IMAGE_RESIZE,
    SOFTMAX_LABELS,
    VARIANCE_SCALING,
    KERAS_REGULARIZER,
    (frozenset(METHODS), iterators),
    (_last(NAME_SCOPE), name_scope),
    (_last(GONE), gone_arguments),
    DEVICE_FUNCTION,
)
