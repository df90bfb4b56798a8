"""Keep every process of a verify run inside one PID namespace, so none outlives the run.

A program may start processes of its own, even in a new session that no process group reaches. Inside a
PID namespace they cannot escape: when the namespace's init dies, the kernel SIGKILLs every process left in
it. The namespace holder (netns.py) forks that init (`start_init`); the init lives as long as the holder
(it reads a pipe only the holder holds, and has a parent-death signal), and the holder as long as verify.
A task joins the namespace with `setns`, which only places the task's future children there: so it forks
(`capture/join_namespace.run_inside`), the child runs the task, and the parent, which verify started
and ends, waits for it.
"""
import os
import signal

from tf2migrate.engine.parent_death import die_with_parent


def _reap(signum, frame):
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def start_init():
    """Fork PID 1 of the namespace `unshare(CLONE_NEWPID)` made for this process's children. Returns the
    pipe end that keeps it alive: close it (or die) and the init exits, taking the namespace with it."""
    keep, alive = os.pipe()
    if os.fork():
        os.close(keep)
        return alive
    os.close(alive)
    die_with_parent()
    signal.signal(signal.SIGCHLD, _reap)   # init adopts the namespace's orphans: reap them
    while os.read(keep, 1):
        pass
    os._exit(0)
