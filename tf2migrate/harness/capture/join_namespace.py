"""A task's first act: join the run's network and PID namespaces (`running/netns.py` holds them).

Child side of `netns.py` and `pidns.py`: `setns` into the holder's user, network and PID namespaces, then
fork so that the task runs inside the PID namespace while this process only waits for it. Must run before
any thread starts (setns refuses a user namespace to a multithreaded process): `child.py` calls `enter`
before importing anything else. Standard library only.
"""
import ctypes
import os
import signal

from tf2migrate.engine.parent_death import die_with_parent

CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000


def load_libc():
    return ctypes.CDLL(None, use_errno=True)


def check_errno(result, what):
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def enter(holder_pid):
    """Join the holder's namespaces, then go on in a child forked into its PID namespace (`run_inside`:
    this process only waits for it)."""
    libc = load_libc()
    for kind, flag in (("user", CLONE_NEWUSER), ("net", CLONE_NEWNET), ("pid_for_children", CLONE_NEWPID)):
        target = f"/proc/{holder_pid}/ns/{kind}"
        if os.stat(target).st_ino == os.stat(f"/proc/self/ns/{kind}").st_ino:
            continue   # root: no user namespace; --allow-network: no network namespace
        fd = os.open(target, os.O_RDONLY)
        try:
            check_errno(libc.setns(fd, flag), f"setns({target})")
        finally:
            os.close(fd)
    run_inside()


def run_inside():
    """Called after `setns(CLONE_NEWPID)`: the child returns and runs the task inside the namespace; this
    process waits and exits as the child did (its code, or its signal)."""
    child = os.fork()
    if child == 0:
        die_with_parent()
        return
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):   # the task gets them too (one process group):
        signal.signal(sig, signal.SIG_IGN)                         # this process lives exactly as long as it
    while True:
        try:
            _, status = os.waitpid(child, 0)
            break
        except InterruptedError:
            continue
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status))
