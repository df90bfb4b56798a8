"""Keep a verify run's cluster off the network.

TF's gRPC servers bind every interface (0.0.0.0 and ::), with no authentication, and run any graph they
are sent. So every process of a run that starts servers shares one Linux network namespace of its own, in
which only loopback is up: the cluster reaches itself on 127.0.0.1 and nothing else reaches it. A holder
process creates the namespace (inside a user namespace when not root, so no privilege is needed) and
brings `lo` up; each child of the run enters it first thing, while it is still single-threaded (`enter`).
Where that is impossible, `verify` refuses unless the user passes `--allow-network`.

`python -m tf2migrate.harness.netns` is the holder: it prints `ready <how>` or `error <reason>`, then waits
to be ended with its process group like every other child (processes.py).
"""
import ctypes
import errno
import fcntl
import os
import select
import signal
import socket
import struct
import subprocess
import sys

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
ISOLATED = "isolated: the cluster ran in a network namespace of its own with only loopback up ({how})"
ALLOWED = "not isolated (--allow-network): the cluster's servers listened on every interface of this machine"
NOT_NEEDED = "not isolated: no process of this run starts a server"


class Unavailable(Exception):
    """This machine cannot give the run a namespace of its own (not Linux, or namespaces refused)."""


def _libc():
    libc = ctypes.CDLL(None, use_errno=True)
    return libc


def _check(result, what):
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _unshare():
    """A new network namespace: directly when root with CAP_SYS_ADMIN, else inside a new user namespace
    that maps this process's own uid and gid (the programs keep seeing who they are)."""
    libc = _libc()
    uid, gid = os.geteuid(), os.getegid()
    if uid == 0 and libc.unshare(CLONE_NEWNET) == 0:
        return "unshare(CLONE_NEWNET) as root"
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNET), "unshare(CLONE_NEWUSER | CLONE_NEWNET)")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    return "unprivileged user namespace"


def _loopback_up():
    """`ip link set lo up`, without needing the `ip` binary."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH22x", b"lo", 0)
        flags = struct.unpack("16sH22x", fcntl.ioctl(s, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH22x", b"lo", flags | IFF_UP))


def enter(holder_pid):
    """Join the holder's namespaces. Must run before any thread starts (setns refuses a user namespace to a
    multithreaded process): `child.py` calls it before importing anything else."""
    libc = _libc()
    for kind, flag in (("user", CLONE_NEWUSER), ("net", CLONE_NEWNET)):
        target = f"/proc/{holder_pid}/ns/{kind}"
        if os.stat(target).st_ino == os.stat(f"/proc/self/ns/{kind}").st_ino:
            continue   # root without a user namespace: only the network one differs
        fd = os.open(target, os.O_RDONLY)
        try:
            _check(libc.setns(fd, flag), f"setns({target})")
        finally:
            os.close(fd)


class Namespace:
    """One run's namespace, alive as long as its holder (and any process inside it)."""

    def __init__(self, proc, how):
        self.proc, self.how = proc, how

    @property
    def pid(self):
        return self.proc.pid

    def describe(self):
        return ISOLATED.format(how=self.how)

    def close(self):
        from tf2migrate.harness import processes

        processes.end(self.proc, grace=0.5)


def open_namespace(timeout=30.0):
    """Start the holder and wait for its answer; raise Unavailable with the reason when it has none."""
    if not sys.platform.startswith("linux"):
        raise Unavailable(f"network namespaces need Linux (this is {sys.platform})")
    from tf2migrate.harness import processes

    proc = processes.spawn([sys.executable, "-m", "tf2migrate.harness.netns"], env=dict(os.environ),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    line = proc.stdout.readline().decode(errors="replace").strip() if ready else ""
    if line.startswith("ready "):
        return Namespace(proc, line[len("ready "):])
    processes.end(proc, grace=0.5)
    raise Unavailable(line[len("error "):] if line.startswith("error ") else
                      f"the namespace holder gave no answer ({line or 'nothing'})")


def main():
    try:
        how = _unshare()
        _loopback_up()
    except OSError as e:
        reason = e.strerror or str(e)
        if e.errno in (errno.EPERM, errno.EACCES, errno.EINVAL, errno.ENOSPC):
            reason += " (unprivileged user namespaces may be disabled here)"
        print(f"error {reason}", flush=True)
        return 1
    print(f"ready {how}", flush=True)
    while True:
        signal.pause()


if __name__ == "__main__":
    sys.exit(main())
