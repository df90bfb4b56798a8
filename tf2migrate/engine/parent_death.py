"""A child process that dies with its parent, even a parent killed with SIGKILL (which runs no cleanup)."""
import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(parent=None, sig=signal.SIGKILL):
    """Ask Linux to send `sig` to this process when its parent dies; `parent`: the PID it must have, checked
    after the request (a parent already gone: exit now). Elsewhere nothing: the caller watches its parent."""
    if not sys.platform.startswith("linux"):
        return
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig)
    if parent is not None and os.getppid() != parent:
        os._exit(1)
