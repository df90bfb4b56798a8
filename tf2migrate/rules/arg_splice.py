"""`call_edit.edit_args` on a call's text: the same argument edits, made as splices at `ast` positions.

The arguments are read in source order (positional, `*a`, `k=v`, `**kw` as LibCST lists them); an edit is
kept as the argument's new keyword, a removal or an added `k=v`, and written out as the few text edits LibCST's
code generation would make: `k=` before a value, a keyword's new name, an argument cut with its comma (the last
one's comma moves to the one before), an added argument after the last with the separator the call uses.
Anything else (parentheses or comments between arguments, two removals, a removal and an addition, a trailing
comma where one is added, a wrapped value) is `NotSure`: the file goes to LibCST.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Optional

from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules.call_edit import keep_prefix

_GAP = re.compile(r"[ \t\f]*,[ \t\f\r\n]*\Z")
_BLANK = re.compile(r"[ \t\f\r\n]*\Z")
_EQUAL = re.compile(r"[ \t\f]*=[ \t\f]*")


@dataclass
class Arg:
    node: ast.AST  # the value (positional, starred) or the ast.keyword
    start: int
    end: int
    keyword: Optional[str]
    star: str
    value_start: int  # where the value's text starts (after `k=`)

    @property
    def value(self):
        return self.node.value if isinstance(self.node, (ast.keyword, ast.Starred)) else self.node


@dataclass
class Blocker:
    node: ast.AST
    code: Optional[str]
    message: str


def call_args(text, call: ast.Call) -> list:
    """The call's arguments in source order."""
    out = []
    for node in call.args:
        start, end = text.span(node)
        out.append(Arg(node, start, end, None, "*" if isinstance(node, ast.Starred) else "", start))
    for node in call.keywords:
        start, end = text.span(node)
        value_start = start
        if node.arg is not None:
            eq = _EQUAL.match(text.text, start + len(node.arg))
            value_start = eq.end() if eq and eq.group().strip() == "=" else -1
        out.append(Arg(node, start, end, node.arg, "**" if node.arg is None else "", value_start))
    out.sort(key=lambda a: a.start)
    return out


def arg_value(args: list, name: str, index: int = None):
    for a in args:
        if a.keyword == name:
            return a.value
    if index is not None and index < len(args) and args[index].keyword is None and not args[index].star:
        return args[index].value
    return None


def edit_args(args: list, state: list, spec, render, text) -> tuple:
    """(new state, None) or (None, Blocker). `state`: [original index or None, keyword, added value text] per
    argument, as a former action left them."""
    if any(a.star for a in args) and (spec.args or spec.drop):
        return None, Blocker(None, None, "called with *args/**kwargs: convert this call by hand")
    for a in args:
        if a.keyword is not None and a.keyword in spec.block:
            return None, Blocker(a.node, None, f"`{a.keyword}=`: {spec.block[a.keyword]}")
    state = [list(s) for s in state]
    if any(s[0] != i for i, s in enumerate(state[:len(args)])) or len(state) != len(args) and spec.args:
        raise NotSure("arguments moved by an earlier edit")
    positional = [i for i, a in enumerate(args) if a.keyword is None]
    if spec.args and len(positional) > len(spec.args):
        return None, Blocker(None, None, "more positional arguments than the TF1 signature takes")
    keep = keep_prefix(spec)
    for n, i in enumerate(positional):
        if n >= keep and spec.args:
            if not spec.args[n]:
                raise NotSure("no keyword for this position")
            state[i][1] = spec.args[n]
    for s in state:
        if s[1] is not None and s[1] in spec.keywords:
            s[1] = spec.keywords[s[1]]
    for name, (kept, otherwise) in spec.drop.items():
        for i, s in enumerate(state):
            if s[1] == name:
                value = _value_text(args, s, text)
                if value.strip() != kept:
                    return None, Blocker(args[s[0]].node if s[0] is not None else None, otherwise, f"`{name}={value}`")
                del state[i]
                break
    for name in spec.remove:
        index = next((i for i, s in enumerate(state) if s[1] == name), None)
        if index is not None:
            del state[index]
    present = {s[1] for s in state if s[1] is not None}
    n_positional = sum(1 for s in state if s[1] is None)
    for name, value in spec.add.items():
        index = spec.args.index(name) if name in spec.args else len(spec.args)
        if name not in present and (n_positional <= index or not spec.args):
            state.append([None, name, value.format(tf=render()) if "{tf}" in value else value])
    names = [s[1] for s in state if s[1] is not None]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        return None, Blocker(None, None, f"`{twice[0]}` would be passed twice (an argument and its deprecated "
                                         "alias): convert this call by hand")
    if any(s[1] in spec.wrap for s in state):
        raise NotSure("a wrapped value")
    return state, None


def _value_text(args: list, s: list, text) -> str:
    if s[0] is None:
        return s[2]
    a = args[s[0]]
    if a.value_start < 0:
        raise NotSure("a keyword's value not found")
    return text.render(a.value_start, a.end)


def initial(args: list) -> list:
    return [[i, a.keyword, None] for i, a in enumerate(args)]


def splice(text, call: ast.Call, args: list, state: list) -> None:
    """Write `state` (edit_args's) into `text` as LibCST would print the call's new arguments."""
    if state == initial(args):
        return
    open_at, close_at = _parens(text, call, args)
    kept = {s[0]: s for s in state if s[0] is not None}
    removed = [i for i in range(len(args)) if i not in kept]
    added = [s for s in state if s[0] is None]
    if len(removed) > 1 or removed and added:
        raise NotSure("several argument edits of one kind")
    for i, s in kept.items():
        a = args[i]
        if s[1] != a.keyword:
            if a.keyword is None:
                text.replace(a.start, a.start, f"{s[1]}=")
            else:
                text.replace(a.start, a.start + len(a.keyword), s[1])
    if removed:
        i = removed[0]
        if i < len(args) - 1:
            text.replace(args[i].start, args[i + 1].start, "")
        elif not _BLANK.match(text.text, args[i].end, close_at):
            raise NotSure("a trailing comma")
        else:
            text.replace(args[i - 1].end if i else args[i].start, close_at, "")
    if added:
        _append(text, args, added, open_at, close_at)


def _append(text, args: list, added: list, open_at: int, close_at: int) -> None:
    """`call_edit.append_arg`, as LibCST prints it: the new comma right after the last value, then the blanks
    that stood before `)` (`f(g()\n    )` -> `f(g(), \n    k=v)`)."""
    blanks = text.text[args[-1].end:close_at] if args else ""
    if blanks.strip() or not args and open_at + 1 != close_at:
        raise NotSure("something between the last argument and `)`")
    sep = text.text[args[-2].end:args[-1].start] if len(args) > 1 else ", "
    pieces = [f"{s[1]}={s[2]}" for s in added]
    if not args:
        text.replace(close_at, close_at, ", ".join(pieces))
    elif not blanks:
        text.replace(close_at, close_at, "".join(sep + piece for piece in pieces))
    else:
        text.replace(args[-1].end, close_at, sep + blanks + sep.join(pieces))


def _parens(text, call: ast.Call, args: list) -> tuple:
    """Offsets of the call's `(` and `)`; NotSure unless only blanks and one comma stand between arguments."""
    _, func_end = text.span(call.func)
    _, call_end = text.span(call)
    open_at = func_end + len(text.text[func_end:call_end]) - len(text.text[func_end:call_end].lstrip(" \t"))
    close_at = call_end - 1
    if text.text[open_at:open_at + 1] != "(" or text.text[close_at] != ")":
        raise NotSure("the call's parentheses are not where expected")
    at = open_at + 1
    for n, a in enumerate(args):
        if a.start < at or not (_BLANK if n == 0 else _GAP).match(text.text, at, a.start):
            raise NotSure("parentheses or comments between arguments")
        at = a.end
    if at > close_at or not re.match(r"[ \t\f\r\n]*,?[ \t\f\r\n]*\Z", text.text[at:close_at]):
        raise NotSure("parentheses or comments after the arguments")
    return open_at, close_at
