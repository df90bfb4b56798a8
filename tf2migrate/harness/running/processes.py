"""Every child process the harness starts, and the guarantee that none outlives it.

Each child gets its own process group (`start_new_session`), so killing the group also ends anything
the user's script spawned. Groups are ended when a run finishes, fails or times out, at interpreter exit
(`atexit`) and on SIGINT/SIGTERM; servers that `join()` forever are ended the same way, by PID.
"""
import atexit
import os
import signal
import subprocess
import threading
import time

_live = {}  # pid -> Popen
_lock = threading.Lock()
_handlers_installed = False


def spawn(args, env, stdout, stderr, cwd=None):
    _install_handlers()
    proc = subprocess.Popen(args, env=env, stdout=stdout, stderr=stderr, cwd=cwd,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    with _lock:
        _live[proc.pid] = proc
    return proc


def end(proc, grace=2.0):
    """SIGTERM the process group, then SIGKILL whatever is still there after `grace` seconds."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    _reap_group(proc.pid)
    with _lock:
        _live.pop(proc.pid, None)


def _reap_group(pgid):
    """Grandchildren left in the group after the leader died: SIGKILL them too."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return
    time.sleep(0.05)


def end_all():
    with _lock:
        procs = list(_live.values())
    for proc in procs:
        end(proc, grace=0.5)


def live_pids():
    with _lock:
        return [p.pid for p in _live.values() if p.poll() is None]


def _install_handlers():
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    atexit.register(end_all)
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)

        def handler(signum, frame, previous=previous):
            end_all()
            if callable(previous):
                previous(signum, frame)
            elif signum == signal.SIGINT:
                raise KeyboardInterrupt
            else:
                raise SystemExit(128 + signum)

        signal.signal(sig, handler)
