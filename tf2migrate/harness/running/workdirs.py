"""verify's work directories, and the ones a killed verify left behind.

A run holds an exclusive `flock` on `owner.lock` in its directory for as long as it lives; the kernel drops
the lock when the process dies, however it dies. A SIGKILLed verify cannot remove its directory, so each
run first removes this user's `tf2migrate-verify-*` directories whose lock nobody holds (`sweep`).
"""
import fcntl
import os
import shutil
import stat
import tempfile

PREFIX = "tf2migrate-verify-"
LOCK = "owner.lock"


class Workdir:
    def __init__(self, path, fd):
        self.path, self.fd = path, fd

    def close(self, keep=False):
        """Remove the directory, or (`keep`) leave it without its lock so that no sweep takes it."""
        if keep:
            os.unlink(os.path.join(self.path, LOCK))
        else:
            shutil.rmtree(self.path, ignore_errors=True)
        os.close(self.fd)


def make():
    sweep()
    path = tempfile.mkdtemp(prefix=PREFIX)
    pending = os.path.join(path, LOCK + ".new")   # locked before it has the name a sweep looks for
    fd = os.open(pending, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(pending, os.path.join(path, LOCK))
    return Workdir(path, fd)


def sweep(folder=None):
    """Remove the work directories in `folder` (the temporary one) that this user owns and no live verify
    holds; return their paths. A directory without a lock (kept with keep_workdir=True, or an older
    tf2migrate's) stays."""
    folder = folder or tempfile.gettempdir()
    removed = []
    try:
        names = [n for n in os.listdir(folder) if n.startswith(PREFIX)]
    except OSError:
        return removed
    for name in names:
        path = os.path.join(folder, name)
        try:
            st = os.lstat(path)
            if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid():
                continue
            fd = os.open(os.path.join(path, LOCK), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:   # held: its verify is running
            os.close(fd)
            continue
        shutil.rmtree(path, ignore_errors=True)
        os.close(fd)
        removed.append(path)
    return removed
