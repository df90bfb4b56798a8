"""What the TF1 -> TF2 call upgrades (TFM65x, tf_upgrade_v2's "function transformers") share.

- `called`: the call's (literal, canonical) names when it calls one of a rule's TF symbols;
- `tf1_here`: the gate of the upgrades that would change the meaning of TF2 code: True only where the
  call is known to mean the TF1 API (see `engine/tf_version.py`); where nobody can tell, TFM650 says so;
- small builders: `1 - (x)`, `"uniform" if (x) else "gaussian"`, literal booleans, keyword lookups.
"""
from __future__ import annotations

import functools
from typing import Optional

import libcst as cst

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import RuleInfo
from tf2migrate.rules.call_edit import keyword_arg

UNKNOWN_SOURCE = RuleInfo(
    code="TFM650",
    name="tf1-or-tf2-unknown",
    summary="an upgrade that changes meaning on TF2 code, in a file not known to be TF1 (left as is)",
    message="not upgraded: cannot tell whether this file is TF1 or TF2 code",
    fix="report only",
    severity=Severity.WARNING,
    why="""Some TF1 calls are spelled exactly like TF2 calls that mean something else: the second argument
of `tf.nn.dropout(x, 0.5)` is `keep_prob` in TF1 and `rate` in TF2. Upgrading such a call in code that is
already TF2 would silently change the program, so these upgrades run only on files known to be TF1: a
file that imports `tensorflow.compat.v1` alone, or uses TF1-only names (`tf.Session`, `tf.placeholder`,
`tf.contrib`, ...). A file with no such evidence (or evidence both ways) is not guessed at: the call is
reported and left. Say what the code is written for with `source = "tf1"` (or "tf2") in
`[tool.tf2migrate]` or `--source tf1`, or write the call unambiguously (`keep_prob=` or `rate=`).""",
    before="import tensorflow as tf\ny = tf.nn.dropout(x, 0.5)\n",
)

_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer, cst.Float, cst.Imaginary,
          cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.List, cst.Tuple, cst.Dict,
          cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def called(ctx, call: cst.Call, names: frozenset) -> tuple:
    """(literal, canonical) when `call` calls one of `names` (canonical TF names), else (None, None). The
    last word is compared first: most calls are not TF calls at all, and every upgrade asks about each."""
    func = call.func
    last = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else None
    if last not in _last_words(names):
        return None, None
    literal, canonical = ctx.resolve(func)
    return (literal, canonical) if canonical in names else (None, None)


@functools.lru_cache(maxsize=None)
def _last_words(names: frozenset) -> frozenset:
    return frozenset(name.rsplit(".", 1)[-1] for name in names)


def tf1_here(ctx, node: cst.CSTNode, literal: Optional[str], what: str) -> bool:
    """May a meaning-changing upgrade run on this call? Reports TFM650 when nobody can tell."""
    answer = ctx.tf1_semantics(literal)
    if answer is None:
        reason = ctx.tf_version.reason
        ctx.report(node, "TFM650", f"{what} is not upgraded: cannot tell whether this file is TF1 or TF2 code "
                   f"({reason}); set `source = \"tf1\"` or `\"tf2\"` in [tool.tf2migrate] (or --source)")
    return bool(answer)


def parens(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`expr`, parenthesized unless it is an atom (a name, a call, a literal, ...) or already is."""
    if isinstance(expr, _ATOMS) or expr.lpar:
        return expr
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def one_minus(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`1 - (expr)` (TF1's keep_prob as TF2's rate), parenthesized as tf_upgrade_v2 writes it."""
    right = expr if expr.lpar else expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.BinaryOperation(left=cst.Integer("1"), operator=_spaced(cst.Subtract), right=right)


def times(factor: str, expr: cst.BaseExpression) -> cst.BaseExpression:
    """`factor * (expr)`, parenthesized as tf_upgrade_v2 writes it (`0.5 * (scale)`)."""
    right = expr if expr.lpar else expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.BinaryOperation(left=cst.parse_expression(factor), operator=_spaced(cst.Multiply), right=right)


def choose(expr: cst.BaseExpression, if_true: str, if_false: str) -> cst.BaseExpression:
    """`"a"` or `"b"` when `expr` is a literal boolean, else `("a" if (expr) else "b")`."""
    known = literal_bool(expr)
    if known is not None:
        return cst.SimpleString(f'"{if_true if known else if_false}"')
    test = parens(expr) if not isinstance(expr, cst.IfExp) else expr.with_changes(
        lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    return cst.IfExp(test=test, body=cst.SimpleString(f'"{if_true}"'), orelse=cst.SimpleString(f'"{if_false}"'),
                     lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


def literal_bool(expr: Optional[cst.BaseExpression]) -> Optional[bool]:
    if isinstance(expr, cst.Name) and expr.value in ("True", "False"):
        return expr.value == "True"
    return None


def literal_str(expr: Optional[cst.BaseExpression]) -> Optional[str]:
    if isinstance(expr, cst.SimpleString):
        value = expr.evaluated_value
        return value if isinstance(value, str) else None
    return None


def keyword(call: cst.Call, name: str) -> Optional[cst.Arg]:
    return next((a for a in call.args if a.keyword is not None and a.keyword.value == name), None)


def positional(call: cst.Call) -> list:
    """The positional arguments, or None when the call spreads `*args`/`**kwargs` (its binding is unknown)."""
    if any(a.star for a in call.args):
        return None
    return [a for a in call.args if a.keyword is None]


def tf1_call_by_keyword(ctx, original: cst.Call, updated: cst.Call, names: frozenset, tf1_args) -> tuple:
    """(literal, canonical, args): a call to one of `names` not written through compat.v1, with its
    positional arguments named after `tf1_args` (a dict of canonical name -> argument names, or one tuple
    for every name); None when the call is not one, spreads `*args`, or passes more than TF1 took."""
    literal, canonical = called(ctx, original, names)
    if canonical is None or literal.startswith("tf.compat.v1.") or positional(updated) is None:
        return None
    params = tf1_args[canonical] if isinstance(tf1_args, dict) else tf1_args
    if len(positional(updated)) > len(params):
        return None
    return literal, canonical, to_keywords(updated.args, params)


def to_keywords(args, names) -> list:
    """`args` with positional argument i turned into `names[i]=` (for i past the ones kept positional)."""
    out, i = [], 0
    for arg in args:
        if arg.keyword is None and i < len(names) and names[i] is not None:
            out.append(keyword_arg(names[i], arg.value).with_changes(comma=arg.comma))
        else:
            out.append(arg)
        i += arg.keyword is None
    return out


def _spaced(op):
    return op(whitespace_before=cst.SimpleWhitespace(" "), whitespace_after=cst.SimpleWhitespace(" "))
