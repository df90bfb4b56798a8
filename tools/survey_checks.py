"""The survey's static checks of a rewritten file: does it compile, which names does pyflakes call undefined.

pyflakes is optional (pip install pyflakes): without it `undefined_names` answers None, and the report says
that only compilation was checked.
"""
from __future__ import annotations

import ast

try:
    from pyflakes import checker, messages
except ImportError:  # pragma: no cover - depends on the environment
    checker = messages = None

HAVE_PYFLAKES = checker is not None


def compiles(source: str, filename: str) -> str | None:
    """None when the source compiles, else the error in one line."""
    try:
        compile(source, filename, "exec", dont_inherit=True)
    except SyntaxError as error:
        return f"{error.msg} (line {error.lineno})"
    except ValueError as error:
        return str(error)
    return None


def undefined_names(source: str, filename: str) -> dict[str, int]:
    """Each name pyflakes reports as undefined, with the first line it is used on ({} without pyflakes)."""
    if not HAVE_PYFLAKES or compiles(source, filename):
        return {}
    tree = ast.parse(source, filename=filename)
    found: dict[str, int] = {}
    for message in checker.Checker(tree, filename=filename).messages:
        if isinstance(message, messages.UndefinedName):
            found.setdefault(message.message_args[0], message.lineno)
    return found
