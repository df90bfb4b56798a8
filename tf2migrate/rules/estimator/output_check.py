"""Is the converted module a program that can run? Checked statically before it is written (issue 17, point 6).

A conversion that removes the Estimator, its specs and its model_fn must leave no use of them: a use it did
not rewrite is a NameError at run time, with nothing said at rewrite time. pyflakes (it reads the `ast`, it
imports nothing) lists the names the output uses and never defines; those the input already used without
defining (a name from `exec`, a star import, a typo of the user's) do not count. A problem found here is the
reason of TFM325: the engine writes the file without the conversion (`Plugin.check_output`).
"""
from __future__ import annotations

import ast
from typing import Optional


def problem(before: str, after: str, path: str) -> Optional[str]:
    """Why `after`, the conversion of `before`, cannot run; None when nothing is found."""
    uses = _undefined(after, path)
    new = {name: line for name, line in uses.items() if name not in _undefined(before, path)}
    if new:
        lines = after.splitlines()
        name, line = min(new.items(), key=lambda item: item[1])
        listed = ", ".join(f"`{n}`" for n in sorted(new))
        return (f"its output would use {listed}, which it no longer defines (NameError), first in "
                f"`{lines[line - 1].strip()}`")
    return None


def _undefined(code: str, path: str) -> dict:
    """{name: first line} of the names `code` uses without defining them."""
    from pyflakes import checker, messages

    found: dict = {}
    for message in checker.Checker(ast.parse(code), filename=path).messages:
        if isinstance(message, (messages.UndefinedName, messages.UndefinedLocal)):
            found.setdefault(message.message_args[0], message.lineno)
    return found
