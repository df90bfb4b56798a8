"""Keep a verify run off the network.

TF's gRPC servers bind every interface (0.0.0.0 and ::), with no authentication, and run any graph they
are sent, and a program can start one in ways no reading of its source sees (an alias of `Server`,
`create_local_server`, a tf.data service, the profiler's server). So every process of every run shares one
Linux network namespace of its own, in which only loopback is up: the cluster reaches itself on 127.0.0.1
and nothing else reaches it. A holder process creates the namespace (inside a user namespace when not root,
so no privilege is needed) and brings `lo` up; each child of the run enters it first thing, while it is
still single-threaded (`capture/join_namespace.py`). Where that is impossible, `verify` refuses unless the user passes
`--allow-network`. The same holder makes the run's PID namespace (pidns.py), also with `--allow-network`.

`python -m tf2migrate.harness.running.netns` is the holder: it prints `ready <how>` or `error <reason>`, then waits
to be ended with its process group like every other child (processes.py).
"""
import errno
import fcntl
import os
import select
import signal
import socket
import struct
import subprocess
import sys

from tf2migrate.engine.parent_death import die_with_parent
from tf2migrate.harness.capture.join_namespace import (CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWUSER, check_errno,
                                                       load_libc)
from tf2migrate.harness.running import pidns, processes

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
NO_NETWORK = "--no-network"   # the holder's argument under --allow-network: a PID namespace only
ISOLATED = "isolated: every process of the run ran in a network namespace of its own with only loopback up ({how})"
ALLOWED = ("not isolated (--allow-network): the programs ran on this machine's network, where a TF server "
           "listens on every interface")


class Unavailable(Exception):
    """This machine cannot give the run a namespace of its own (not Linux, or namespaces refused)."""


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _unshare(network):
    """New PID and (`network`) network namespaces: directly when root with CAP_SYS_ADMIN, else inside a new
    user namespace that maps this process's own uid and gid (the programs keep seeing who they are)."""
    libc = load_libc()
    uid, gid = os.geteuid(), os.getegid()
    flags, names = (CLONE_NEWPID | CLONE_NEWNET, "CLONE_NEWPID | CLONE_NEWNET") if network else \
        (CLONE_NEWPID, "CLONE_NEWPID")
    if uid == 0 and libc.unshare(flags) == 0:
        return f"unshare({names}) as root"
    check_errno(libc.unshare(CLONE_NEWUSER | flags), f"unshare(CLONE_NEWUSER | {names})")
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


class Namespace:
    """One run's namespaces, alive as long as its holder: its end ends every process inside."""

    def __init__(self, proc, how, network=True):
        self.proc, self.how, self.network = proc, how, network

    @property
    def pid(self):
        return self.proc.pid

    def describe(self):
        return ISOLATED.format(how=self.how) if self.network else ALLOWED

    def close(self):
        processes.end(self.proc, grace=0.5)


def open_namespace(timeout=30.0, network=True):
    """Start the holder and wait for its answer; raise Unavailable with the reason when it has none.
    `network=False` (--allow-network): a PID namespace only, the programs on this machine's network."""
    if not sys.platform.startswith("linux"):
        raise Unavailable(f"network namespaces need Linux (this is {sys.platform})")
    proc = processes.spawn([sys.executable, "-m", "tf2migrate.harness.running.netns"]
                           + ([] if network else [NO_NETWORK]), env=dict(os.environ), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    line = proc.stdout.readline().decode(errors="replace").strip() if ready else ""
    if line.startswith("ready "):
        return Namespace(proc, line[len("ready "):], network)
    processes.end(proc, grace=0.5)
    raise Unavailable(line[len("error "):] if line.startswith("error ") else
                      f"the namespace holder gave no answer ({line or 'nothing'})")


def main(argv):
    die_with_parent(os.getppid())   # even a SIGKILLed verify leaves no holder behind, nor any process of the run
    network = NO_NETWORK not in argv
    try:
        how = _unshare(network)
        if network:
            _loopback_up()
        pidns.start_init()  # its pipe end is never closed: the init lives until this process ends
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
    sys.exit(main(sys.argv[1:]))
