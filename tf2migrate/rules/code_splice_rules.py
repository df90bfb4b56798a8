"""The call upgrades of rules/code_splice.py, one function per rule, each the splice twin of its rule's
`leave_call` (rules/upgrade/): the same tests in the same order, the same findings, the same new text."""
from __future__ import annotations

import ast

from tf2migrate.engine.imports import ast_dotted
from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules.code_splice import Call, called, compat_v1
from tf2migrate.rules.splice_upgrades import (DEVICE_FUNCTION, IMAGE_RESIZE, KERAS_REGULARIZER, SOFTMAX_LABELS,
                                             VARIANCE_SCALING)
from tf2migrate.rules.upgrade.casts import CASTS, DTYPES, decide as decide_cast
from tf2migrate.rules.upgrade.dropout import DROPOUT, TF1_ARGS as DROPOUT_ARGS, decide as decide_dropout
from tf2migrate.rules.upgrade.gone_arguments import GONE, decide as decide_gone
from tf2migrate.rules.upgrade.iterators import METHODS, decide as decide_iterator
from tf2migrate.rules.upgrade.name_scope import NAME_SCOPE, TF1_ARGS as NAME_SCOPE_ARGS, decide as decide_name_scope


def _literal_bool(expr):
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, bool) else None


def dropout(p, node: ast.Call) -> None:
    """`Dropout.leave_call` (TFM651): the rule's `decide`, its edits as text."""
    literal, _ = called(p, node, DROPOUT)
    if literal is None:
        return
    c = Call(p, node)
    given, args = c.keyword("keep_prob"), c.positional()
    how = decide_dropout(p.ctx, node, literal, given is not None, c.keyword("rate") is not None, args)
    if how == "keep_prob":
        c.rebuilt(given)
        p.text.replace(given.start, given.end, "rate=" + c.one_minus(given))
    elif how == "positional":
        keep = args[1]
        rate = "rate=" + c.one_minus(keep)
        c.rebuilt(keep)
        c.to_keywords((None, None) + DROPOUT_ARGS[2:])
        p.text.replace(keep.start, keep.end, rate)


def casts(p, node: ast.Call) -> None:
    """`Casts.leave_call` (TFM652): the rule's `decide`, its edit as text."""
    _, canonical = called(p, node, CASTS)
    if canonical is None:
        return
    c = Call(p, node)
    if not decide_cast(p.ctx, node, canonical, c.positional()):
        return
    dtype = f"{p.alias()}.{DTYPES[canonical[3:]]}"
    func = p.like(node.func, "tf.cast")
    c.to_keywords((None, "name"))
    c.append("dtype", dtype)
    p.text.replace(*p.text.span(node.func), func)


def iterators(p, node: ast.Call) -> None:
    """`DatasetIterators.leave_call` (TFM657): the rule's `decide`, its edit as text."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in METHODS or node.args or node.keywords:
        return
    if not decide_iterator(p.ctx, node, ast_dotted(func.value), lambda head: p.shadowed(head, func.value)):
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
    """`NameScope.leave_call` (TFM660): the rule's `decide`, its edit as text."""
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
    chosen = decide_name_scope(p.ctx, node, {key: _kind(a.value) for key, a in given.items()})
    if chosen == "compat_v1":
        p.text.replace(*p.text.span(node.func), compat_v1(p, canonical))
    elif chosen is not None:
        text = c.value_text(given[chosen])
        new = text if c.args[0].keyword is None and chosen == "name" else "name=" + text
        p.text.replace(c.args[0].start, c.close_at, new)


def _kind(expr) -> str:
    """`name_scope._kind`, from `ast`."""
    if isinstance(expr, ast.Constant) and expr.value is None:
        return "none"
    string = isinstance(expr, ast.JoinedStr) or isinstance(expr, ast.Constant) and isinstance(expr.value, (str, bytes))
    return "string" if string else "other"


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
    keep = decide_gone(p.ctx, node, literal, canonical, given is not None,
                       _literal_bool(given.value) if given is not None else None)
    if keep is None:
        return
    if keep == "compat_v1":
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
