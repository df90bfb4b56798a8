"""Atomic writes: a temporary file in the same folder, the original's mode bits, then `os.replace`.

If the file changed on disk since it was read, nothing is written (another tool got there first).
"""
from __future__ import annotations

import os
import stat
import tempfile


class WriteProblem(Exception):
    pass


def write_atomic(path: str, data: bytes, expected_old: bytes) -> None:
    try:
        with open(path, "rb") as handle:
            if handle.read() != expected_old:
                raise WriteProblem("the file changed on disk while it was being rewritten; not written")
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        raise WriteProblem("the file vanished before it could be written")
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tf2migrate-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
