"""Writes that respect the file system: the new text replaces the old only where this user could have written
the file in place, and the file keeps its owner, group, mode and every hard link.

A file with one link whose owner and group the new file can take is replaced atomically (a temporary file in
the same folder, then `os.replace`): a crash never leaves half a file. A file with other names (hard links), or
one whose owner this user cannot give (a group-writable file of another user), is written in place once the new
text is complete and compiled, as black writes: the inode, its owner and its links stay. If the file changed on
disk since it was read, nothing is written (another tool got there first).
"""
from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import threading


class WriteProblem(Exception):
    pass


class WriteRefused(WriteProblem):
    """This user could not write the file in place (read-only, or another user's): it is left as it is."""


class NotRegular(OSError):
    """A FIFO, device or socket: never read (a FIFO blocks, /dev/zero never ends)."""


_KINDS = ((stat.S_ISFIFO, "FIFO"), (stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
          (stat.S_ISSOCK, "socket"), (stat.S_ISDIR, "directory"))


def open_regular(path: str, flags: int = os.O_RDONLY):
    """A binary file object of `path`, opened without blocking (a FIFO opens at once) nor following a symbolic
    link, after `fstat` says it is a regular file; raises NotRegular otherwise."""
    if stat.S_ISSOCK(os.lstat(path).st_mode):  # a socket cannot be opened at all
        raise NotRegular("socket")
    fd = os.open(path, flags | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0))
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(path)
        raise NotRegular(next((name for test, name in _KINDS if test(mode)), "special file"))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb" if flags == os.O_RDONLY else "r+b")


def write_atomic(path: str, data: bytes, expected_old: bytes) -> None:
    with _interrupts_held():
        _write(path, data, expected_old)


@contextlib.contextmanager
def _interrupts_held():
    """Ctrl-C (or a TERM) during a write arrives once it is done: an interrupt raised inside `mkstemp`, or between
    it and the `try` that removes the temporary file, left a `.tf2migrate-*.tmp` beside the user's file."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        if _DEFERRING:  # from now to where `signals_deferred` ends, a signal is kept, then raised there
            for signo in _SIGNALS - set(_SAVED):
                _SAVED[signo] = signal.signal(signo, _keep)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


_SIGNALS = {signal.SIGINT, signal.SIGTERM}
_DEFERRING: list = []  # open `signals_deferred` blocks
_HELD: list = []  # signals that arrived during or after a write inside one
_SAVED: dict = {}  # signal -> the handler `signals_deferred` puts back


def _keep(signo, frame) -> None:
    _HELD.append(signo)


@contextlib.contextmanager
def signals_deferred():
    """A Ctrl-C (or TERM) that comes during or after a write inside this block arrives where it ends: the caller
    counts the written file first (a file rewritten on disk was reported as not started). Before the write, it
    stops the file's rewrite at once, as anywhere else."""
    _DEFERRING.append(True)
    try:
        yield
    finally:
        _DEFERRING.pop()
        if not _DEFERRING:
            for signo, handler in _SAVED.items():
                signal.signal(signo, handler)
            _SAVED.clear()
            held, _HELD[:] = sorted(set(_HELD)), []
            for signo in held:
                signal.raise_signal(signo)


def _write(path: str, data: bytes, expected_old: bytes) -> None:
    if not os.access(path, os.W_OK):
        raise WriteRefused("this user may not write the file (read-only, or another user's)")
    try:
        with open_regular(path) as handle:
            if handle.read() != expected_old:
                raise WriteProblem("the file changed on disk while it was being rewritten; not written")
            st = os.fstat(handle.fileno())
    except FileNotFoundError:
        raise WriteProblem("the file vanished before it could be written")
    except NotRegular as exc:
        raise WriteProblem(f"the file became a {exc} while it was being rewritten")
    if st.st_nlink > 1 or not _replace(path, data, st):
        _in_place(path, data)


def _replace(path: str, data: bytes, st) -> bool:
    """Replace `path` by a new file with its owner, group and mode; False (nothing done) where the new file cannot
    have them (another user's file, a folder this user may not write)."""
    import tempfile  # only when a file is written: a warm run reads through `open_regular` alone

    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tf2migrate-", suffix=".tmp", dir=folder)
    except PermissionError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            made = os.fstat(handle.fileno())
            if (made.st_uid, made.st_gid) != (st.st_uid, st.st_gid):
                try:
                    os.fchown(handle.fileno(), st.st_uid, st.st_gid)
                except PermissionError:
                    os.unlink(tmp)
                    return False
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), stat.S_IMODE(st.st_mode))  # after chown, which clears set-id bits
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        return True
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _in_place(path: str, data: bytes) -> None:
    """Write over the file itself: its inode, owner, group, mode and links stay. The space is reserved first, so
    a full disk refuses the write before a byte of the old text is overwritten."""
    with open_regular(path, os.O_RDWR) as handle:
        try:
            os.posix_fallocate(handle.fileno(), 0, max(len(data), 1))
        except OSError as exc:
            if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):  # no reservation here: write
                raise WriteProblem(f"no room to write the file in place ({exc.strerror}); not written")
        except AttributeError:  # not on this system (macOS)
            pass
        handle.write(data)
        handle.truncate()
        handle.flush()
        os.fsync(handle.fileno())
