"""Valid code nested a few hundred levels deep (a 350-term `+` chain, a 190-deep list) is still rewritten.

Python's `ast` and LibCST's visitors recurse once or more per level of nesting, and the default recursion
limit (1,000 frames) stops them well before the 200 levels of brackets the interpreter itself accepts. A file
whose work raises RecursionError is done again in a thread with a large stack and a high recursion limit
(the limit is the process's: raised only while that thread runs, alone). Other files never pay for a thread.
Code nested deeper still gets one line at its deepest bracket (TFM908), never a traceback.
"""
from __future__ import annotations

import sys
import threading

STACK = 512 << 20  # bytes of the thread's stack: address space, used only as deep as the code goes
LIMIT = 100_000  # frames


class TooDeep(Exception):
    """Nested too deeply even with the raised limits."""


def retrying() -> bool:
    """Is this the retry, in the thread with room to recurse?"""
    return threading.current_thread().name == _THREAD


_THREAD = "tf2migrate-deep"


def retry_deep(fn, *args):
    """`fn(*args)`; on RecursionError, once more in a thread with room to recurse (raises TooDeep if that fails)."""
    try:
        return fn(*args)
    except RecursionError:
        pass
    done: list = []

    def run() -> None:
        try:
            done.append((True, fn(*args)))
        except RecursionError:
            done.append((False, None))
        except BaseException as exc:  # noqa: B902 - given back to the caller's thread
            done.append((False, exc))

    old_limit, old_stack = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(max(old_limit, LIMIT))
    try:
        threading.stack_size(STACK)
        thread = threading.Thread(target=run, name=_THREAD)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_stack)
        sys.setrecursionlimit(old_limit)
    ok, value = done[0] if done else (False, None)
    if ok:
        return value
    if isinstance(value, BaseException):
        raise value
    raise TooDeep()


def too_deep(path: str, text: str):
    """The one line for a file nested deeper than even `LIMIT` allows, at its deepest bracket."""
    from tf2migrate.engine.process import _fail

    line, col = deepest_bracket(text)
    return _fail(path, "TFM908", f"nested too deeply to process, even with a {LIMIT:,}-frame recursion limit: "
                                 "nothing written", line, col)


def deepest_bracket(text: str) -> tuple:
    """(line, col) of the first bracket opened at the deepest level, counted by the tokenizer (no recursion);
    (1, 1) when the tokens cannot be read."""
    import io
    import tokenize

    depth, best, place = 0, 0, (1, 1)
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
                if depth > best:
                    best, place = depth, (tok.start[0], tok.start[1] + 1)
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return place
