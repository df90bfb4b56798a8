"""A program that does not parse cannot run, so `verify` stops before starting anything.

Without this, the codemod (LibCST) raised its parser's traceback for an ORIGINAL with a syntax error (often
Python 2 code) and the CLI exited 1, DIVERGED's code. Both files are read the way Python reads them (bytes,
with their encoding cookie), and the first problem is one line, `path:line:col: reason`, like the
`rewrite` diagnostics; the CLI exits 3 (INCOMPARABLE: a program cannot run).
"""
import os


class UnparsableProgram(ValueError):
    """ORIGINAL or MIGRATED is not valid Python 3: `str(e)` is `path:line:col: reason`."""


def check(*paths) -> None:
    """Raise UnparsableProgram for the first of `paths` (files; folders and None are skipped) that Python
    cannot compile."""
    for path in paths:
        if path is None or not os.path.isfile(path):
            continue
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue  # reported as before (a usage error) when the sides are resolved
        try:
            compile(data, path, "exec", dont_inherit=True)
        except SyntaxError as e:
            line, col = e.lineno or 1, e.offset or 1
            raise UnparsableProgram(f"{path}:{line}:{col}: syntax error: {e.msg} (the program cannot run: "
                                    "not verified)") from e
        except (UnicodeDecodeError, ValueError) as e:  # undecodable bytes, a NUL byte
            raise UnparsableProgram(f"{path}:1:1: cannot read as Python source: {e} (the program cannot run: "
                                    "not verified)") from e


def from_libcst(path, error) -> UnparsableProgram:
    """The same line for a file that `compile` accepts and LibCST's parser does not (rare)."""
    line, col = getattr(error, "raw_line", 1), getattr(error, "raw_column", 0) + 1
    first = str(error).strip().splitlines()[0] if str(error).strip() else "syntax error"
    return UnparsableProgram(f"{path}:{line}:{col}: the codemod cannot parse it: {first}")
