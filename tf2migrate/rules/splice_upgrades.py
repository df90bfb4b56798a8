"""More call upgrades on the splice path (rules/code_splice.py): each twin reads the call from `ast` and asks
its rule's own decision function (shared with the rule's `leave_call`, so the two cannot drift), then writes the
rule's edit as text splices. What the text cannot promise as LibCST prints it is `NotSure`.
"""
from __future__ import annotations

import ast

import libcst as cst

from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules.code_splice import Call, called, compat_v1
from tf2migrate.rules.upgrade.device_function import DEVICE, is_function
from tf2migrate.rules.upgrade import initializers, regularizers, softmax_labels as softmax
from tf2migrate.rules.upgrade.image_resize import METHODS, RESIZES, TF1_ARGS as RESIZE_ARGS, _binds, kept_v1


def _literal_bool(expr):
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, bool) else None


def image_resize(p, node: ast.Call) -> None:
    """`ImageResize.leave_call` (TFM653); a call that loses an argument to `tf.image.resize` is NotSure."""
    literal, canonical = called(p, node, RESIZES)
    if canonical is None:
        return
    name = canonical.rsplit(".", 1)[1]
    c = Call(p, node)
    args = c.positional()
    bound = RESIZE_ARGS[:len(args)] + tuple(a.keyword for a in c.args if a.keyword) if args is not None else ()
    if args is None or len(args) > len(RESIZE_ARGS) or not _binds(bound):
        what = "*args" if args is None else "not TF1's `images, size, align_corners, name, half_pixel_centers`"
        p.ctx.report(node, "TFM653", f"`tf.image.{name}`: arguments that cannot be bound ({what}): "
                     "convert to `tf.image.resize` by hand", fixable=False)
        return
    given, i = {}, 0
    for a in c.args:
        key = a.keyword if a.keyword is not None else RESIZE_ARGS[i] if i >= 2 else None
        if key is not None:
            given[key] = _literal_bool(a.value)
        i += a.keyword is None
    problem = kept_v1(name, given)
    if problem:
        if literal.startswith("tf.compat.v1."):
            return
        if p.ctx.report(node, "TFM653", f"kept as `tf.compat.v1.image.{name}` (same numbers): {problem}",
                        fixable=True):
            p.text.replace(*p.text.span(node.func), compat_v1(p, canonical))
        return
    if set(given) - {"images", "size", "name"}:
        raise NotSure("an argument tf.image.resize drops")
    if not p.ctx.report(node, "TFM653"):
        return
    method = f"{p.alias()}.image.ResizeMethod.{METHODS[name]}"
    func = p.like(node.func, "tf.image.resize")
    c.to_keywords((None, None) + RESIZE_ARGS[2:])
    c.append("method", method)
    p.text.replace(*p.text.span(node.func), func)


def device_function(p, node: ast.Call) -> None:
    """`DeviceFunction.leave_call` (TFM665)."""
    literal, canonical = called(p, node, DEVICE)
    if canonical is None or literal.startswith("tf.compat.v1.") or len(node.args) + len(node.keywords) != 1:
        return
    value = node.args[0] if node.args else node.keywords[0].value
    value = value.value if isinstance(value, ast.Starred) else value
    if isinstance(value, ast.Lambda):
        kind, name = "lambda", None
    elif isinstance(value, ast.Call):
        kind, name = "call", p.resolve(value.func)[1]
    elif isinstance(value, ast.Name):
        kind, name = "name", value.id
    else:
        return
    if not is_function(p.ctx, kind, name) or not p.ctx.report(node, "TFM665"):
        return
    p.text.replace(*p.text.span(node.func), compat_v1(p, canonical))


def variance_scaling(p, node: ast.Call) -> None:
    """`Initializers.leave_call` (TFM655): its own `binds` and `new_args` on the call's arguments as LibCST
    reads them (`_cst_args`)."""
    _, canonical = called(p, node, INITIALIZERS)
    if canonical is None:
        return
    c = Call(p, node)
    args = _cst_args(c)
    if not initializers.binds(canonical, args):
        initializers.unbound(p.ctx, node, canonical)
        return
    if not p.ctx.report(node, "TFM655"):
        return
    _write_args(c, initializers.new_args(canonical, args))
    p.text.replace(*p.text.span(node.func), compat_v1(p, initializers.TARGET))


def keras_regularizer(p, node: ast.Call) -> None:
    """`Regularizers.leave_call` (TFM656): the rule's `decide` on the arguments as LibCST reads them."""
    _, canonical = called(p, node, REGULARIZERS)
    if canonical is None:
        return
    c = Call(p, node)
    found = regularizers.decide(canonical, _cst_args(c))
    if found is None:
        regularizers.unbound(p.ctx, node, canonical)
        return
    if not p.ctx.report(node, "TFM656"):
        return
    kind, arg = found
    _write_args(c, [arg])
    p.text.replace(*p.text.span(node.func), f"{p.alias()}.keras.regularizers.{kind}")


def softmax_labels(p, node: ast.Call) -> None:
    """`SoftmaxLabels.leave_call` (TFM654, TFM650): the rule's `decide`, its edits as text."""
    literal, canonical = called(p, node, softmax.SOFTMAX)
    if canonical is None:
        return
    c = Call(p, node)
    labels, dim = c.keyword("labels"), c.keyword("dim")
    stopped = labels is not None and isinstance(labels.value, ast.Call) \
        and p.resolve(labels.value.func)[1] == "tf.stop_gradient"
    positional = any(a.keyword is None and not a.star for a in c.args)
    wrap = softmax.decide(p.ctx, node, literal, positional, labels is not None and not stopped, dim is not None)
    if wrap is None:
        return
    if wrap:
        p.text.replace(labels.value_start, labels.end, f"{p.alias()}.stop_gradient({c.value_text(labels)})")
    if dim is not None:
        p.text.replace(dim.start, dim.start + len("dim"), "axis")


def _cst_args(c) -> list:
    """The call's arguments as LibCST's `Arg`s, each value parsed from its text (with the edits made in it);
    a spread's value is left out (no rule reads it). NotSure for a value with a comment or a line continuation."""
    out = []
    for a in c.args:
        if a.star:
            out.append(cst.Arg(cst.Name("_"), star=a.star))
            continue
        text = c.value_text(a)
        if "#" in text or "\\" in text:
            raise NotSure("a comment or line continuation in an argument a rule rebuilds")
        out.append(cst.Arg(cst.parse_expression(text), keyword=cst.Name(a.keyword) if a.keyword else None))
    return out


def _write_args(c, args: list) -> None:
    """Replace the call's arguments by `args` (all rebuilt, as the rule's), printed as LibCST prints them;
    NotSure where LibCST would keep blanks or a comma of the old ones."""
    close_at = c.close_at
    open_at = c._parens[0]
    if c.args[0].start != open_at + 1 or c.args[-1].end != close_at if c.args else open_at + 1 != close_at:
        raise NotSure("blanks or a comma around the arguments a rule rebuilds")
    code = cst.Module([]).code_for_node(cst.Call(func=cst.Name("f"), args=args))
    c.text.replace(open_at + 1, close_at, code[2:-1])


def _last(names) -> frozenset:
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


IMAGE_RESIZE = (_last(RESIZES), image_resize)
DEVICE_FUNCTION = (_last(DEVICE), device_function)
INITIALIZERS = initializers.Initializers.claims
VARIANCE_SCALING = (_last(INITIALIZERS), variance_scaling)
SOFTMAX_LABELS = (_last(softmax.SOFTMAX), softmax_labels)
REGULARIZERS = regularizers.Regularizers.claims
KERAS_REGULARIZER = (_last(REGULARIZERS), keras_regularizer)
