"""`TablePlugin.leave_call` from its reports on, for one call of the splice path: the argument edits of each
action (rules/arg_splice.py), then the rename, with the same findings in the same order."""
from __future__ import annotations

from tf2migrate.rules import arg_splice


class CallEdit:
    """`TablePlugin.leave_call` from its reports on, for one call: argument edits, then the rename."""

    def __init__(self, plugin, call, actions: list, literal, method: bool) -> None:
        self.p, self.call, self.actions, self.literal, self.method = plugin, call, actions, literal, method
        self._args = None

    @property
    def args(self) -> list:
        if self._args is None:
            self._args = arg_splice.call_args(self.p.text, self.call)
        return self._args

    def run(self) -> None:
        p, call, func = self.p, self.call, self.call.func
        for action in self.actions:
            if action.report:
                p._report(call, action, p.src(func))
                if action.on_call:
                    return
            for word, position, message, severity in action.warn:
                if arg_splice.arg_value(self.args, word, position if position >= 0 else None) is not None:
                    p.ctx.report(call, action.rule.info.code, message.replace("{name}", p.src(func)), severity=severity)
        state = None
        for action in self.actions:
            if action.call is not None:
                renamed = any(a.new is not None and a.rule is action.rule for a in self.actions)
                state = self._edit(action, renamed, state if state is not None else arg_splice.initial(self.args))
                if state is None:
                    return
        for action in self.actions:
            if action.new is not None:
                if not p.ctx.allowed(call, action.rule.info.code):
                    return
                renamed = p._renamed(func, action, self.literal, self.method)
                if renamed is None and (state is None or state == arg_splice.initial(self.args)):
                    return
                p._report(call, action, p.src(func), renamed[1] if renamed else p.now(func))
                if renamed is not None:
                    p.text.replace(*renamed[0])
                break
        if state is not None:
            arg_splice.splice(p.text, call, self.args, state)

    def _edit(self, action, renamed: bool, state: list):
        p = self.p
        new, blocker = arg_splice.edit_args(self.args, state, action.call, p.alias, p.text)
        if blocker is not None:
            code = blocker.code or action.rule.info.code
            p.ctx.report(blocker.node or self.call, code, _blocked(blocker, code, action, p.ctx.infos), fixable=False)
            return None
        if action.new is not None or renamed or new == state:
            return new
        return new if p._report(self.call, action, p.src(self.call.func)) else state


def _blocked(blocker, code: str, action, infos: dict) -> str:
    if code == action.rule.info.code:
        return f"{action.rule.info.message}; not fixed: {blocker.message}"
    info = infos.get(code)
    return f"{info.message if info else code} ({blocker.message})"
