"""Issue 9 point 7: a verify cluster is reachable from this machine only.

TF's gRPC servers bind every interface. While a cluster runs, every port its processes listen on is probed
on each non-loopback address of this machine: nothing may answer. The same probe run with
`allow_network=True` must reach the cluster, which shows the probe can fail.
"""
import glob
import os
import socket
import subprocess
import sys
import threading
import time

import psutil
import pytest

from harness_support import ROOT, SEED_DIR, listening_ports
from harness_programs import keras_mlp, tf1_mlp, write
from tf2migrate.harness import api
from tf2migrate.harness.running import netns
from tf2migrate.harness.report import report

WAIT_FOR_PROBE = '''
# added by test_network: stay up (servers and all) until the test has probed the cluster
import os as _os, time as _time
open({ready!r} + "." + str(_os.getpid()), "w").close()
while not _os.path.exists({go!r}):
    _time.sleep(0.05)
'''


def _waiting_copy(tmp_path, source, name):
    ready, go = os.path.join(str(tmp_path), "ready"), os.path.join(str(tmp_path), "go")
    with open(source) as f:
        text = f.read()
    return write(tmp_path, name, text + WAIT_FOR_PROBE.format(ready=ready, go=go)), ready, go


def _listening(pid):
    """(netns inode, ports) on which a process itself listens, read from its /proc/PID/net (which shows the
    process's own network namespace) and filtered by the sockets it holds."""
    held = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            held.add(target[len("socket:["):-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        with open(f"/proc/{pid}/net/{table}") as f:
            rows = [r.split() for r in f.read().splitlines()[1:]]
        ports.update(int(r[1].rsplit(":", 1)[1], 16) for r in rows if r[3] == "0A" and r[9] in held)
    return os.stat(f"/proc/{pid}/ns/net").st_ino, ports


def _outside_addresses():
    """Every address of this machine that is not loopback (IPv4 and IPv6, link-local with its interface)."""
    found = []
    for iface, addrs in psutil.net_if_addrs().items():
        for a in addrs:
            if a.family == socket.AF_INET and not a.address.startswith("127."):
                found.append((socket.AF_INET, (a.address, 0)))
            elif a.family == socket.AF_INET6 and a.address.split("%")[0] not in ("::1",):
                host = a.address.split("%")[0]
                scope = socket.if_nametoindex(iface) if host.lower().startswith("fe80") else 0
                found.append((socket.AF_INET6, (host, 0, 0, scope)))
    return found


def _reachable(family, address, port):
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        try:
            s.connect((address[0], port) + tuple(address[2:]))
            return True
        except OSError:
            return False


class Probe(threading.Thread):
    """Waits until every trainer of the run is up and idle, probes the run's listening ports from outside,
    then lets the programs finish."""

    def __init__(self, ready, go, trainers):
        super().__init__(daemon=True)
        self.ready, self.go, self.trainers = ready, go, trainers
        self.ports, self.reached, self.skipped, self.error = set(), [], set(), None

    def run(self):
        try:
            self._probe()
        except Exception as e:  # noqa: BLE001 - reported by the test
            self.error = repr(e)
        finally:
            open(self.go, "w").close()

    def _probe(self):
        deadline = time.time() + 240
        while len(glob.glob(self.ready + ".*")) < self.trainers:
            if time.time() > deadline:
                raise TimeoutError("the programs never reached the probe point")
            time.sleep(0.1)
        own_ns = os.stat("/proc/self/ns/net").st_ino
        own_ports = listening_ports()
        for proc in psutil.Process().children(recursive=True):
            try:
                ns, ports = _listening(proc.pid)
            except OSError:
                continue
            self.ports |= ports
            if ns != own_ns:  # another namespace: the same port number taken out here is someone else's
                self.skipped |= ports & own_ports
        for family, address in _outside_addresses():
            for port in sorted(self.ports - self.skipped):
                if _reachable(family, address, port):
                    self.reached.append(f"{address[0]}:{port}")


def _run_probed(verify, tmp_path, pair, cluster, trainers, **options):
    original, ready, go = _waiting_copy(tmp_path, pair[0], "original.py")
    migrated, _, _ = _waiting_copy(tmp_path, pair[1], "migrated.py")
    probe = Probe(ready, go, trainers)
    probe.start()
    # recordings=None: the probe waits for every trainer of both sides, so the original must really run
    result = verify(original, migrated, cluster=cluster, timeout=240, recordings=None, **options)
    probe.join(10)
    assert probe.error is None, probe.error
    return result, probe


@pytest.fixture
def outside():
    if not _outside_addresses():
        pytest.skip("this machine has no non-loopback address to probe from")


def _seed_pair(tmp_path):
    return [os.path.join(SEED_DIR, n) for n in ("original.py", "migrated.py")]


def _mlp_pair(tmp_path):
    return tf1_mlp(tmp_path, 4), keras_mlp(tmp_path, 4)


@pytest.mark.slow
@pytest.mark.parametrize("cluster,pair,trainers,servers", [
    # the Estimator original is a real TF1 cluster (chief + ps, two processes); the migrated side's chief,
    # worker and ps servers live in one process
    ("ps:1,1", _seed_pair, 2, 5),
    # a TF1 Session original is the reference and runs as written; the migrated side is two worker processes
    ("multi-worker:2", _mlp_pair, 3, 2)])
def test_no_port_of_a_running_cluster_is_reachable_from_outside(outside, verify, tmp_path, cluster, pair, trainers,
                                                                servers):
    result, probe = _run_probed(verify, tmp_path, pair(tmp_path), cluster, trainers)
    assert len(probe.ports - probe.skipped) >= servers, probe.ports   # the cluster was up while probed
    assert probe.reached == [], f"cluster ports reachable from the network: {probe.reached}"
    assert result.facts.network.startswith("isolated: ")
    assert f"network: {result.facts.network}" in report.summary_lines(result)
    assert report.to_dict(result)["network"] == result.facts.network
    assert result.verdict == "EQUIVALENT", result.reason   # the tasks of each side still reached each other


@pytest.mark.slow
def test_the_probe_reaches_a_cluster_run_with_allow_network(outside, verify, tmp_path):
    """The control: the same probe, isolation off. If this found nothing, the test above would prove nothing."""
    result, probe = _run_probed(verify, tmp_path, _seed_pair(tmp_path), "ps:1,1", 2, allow_network=True)
    assert result.verdict == "EQUIVALENT", result.reason
    assert probe.reached, f"no cluster port reachable from outside without isolation: {sorted(probe.ports)}"
    assert result.facts.network == netns.ALLOWED


def test_a_namespace_has_only_loopback_and_is_shared_by_every_process_entering_it():
    namespace = netns.open_namespace()
    try:
        code = ("import socket, sys\nfrom tf2migrate.harness.capture import join_namespace\n"
                "join_namespace.enter(int(sys.argv[1]))\n"
                "print(sorted(n for _, n in socket.if_nameindex()))\n"
                "s = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()\nprint(s.getsockname()[1], flush=True)\n"
                "sys.stdin.read()\n")
        env = dict(os.environ, PYTHONPATH=ROOT)
        server = subprocess.Popen([sys.executable, "-c", code, str(namespace.pid)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env)
        try:
            assert server.stdout.readline().strip() == "['lo']"
            port = int(server.stdout.readline())
            reach = (f"import socket, sys\nfrom tf2migrate.harness.capture import join_namespace\n"
                     f"join_namespace.enter(int(sys.argv[1]))\n"
                     f"socket.create_connection(('127.0.0.1', {port}), timeout=5).close()\n")
            assert subprocess.run([sys.executable, "-c", reach, str(namespace.pid)], env=env).returncode == 0
            assert not _reachable(socket.AF_INET, ("127.0.0.1", 0), port) or port in listening_ports()
        finally:
            server.communicate("")
    finally:
        namespace.close()


def test_without_a_namespace_a_cluster_is_refused_unless_network_is_allowed(monkeypatch):
    def unavailable(timeout=30.0, network=True):
        raise netns.Unavailable("unshare(CLONE_NEWUSER | CLONE_NEWNET): Operation not permitted")

    monkeypatch.setattr(netns, "open_namespace", unavailable)
    pair = [os.path.join(SEED_DIR, n) for n in ("original.py", "migrated.py")]
    with pytest.raises(api.NetworkIsolationError, match="--allow-network") as refused:
        api.verify(*pair, cluster="ps:1,1", progress=lambda line: None)
    assert "Operation not permitted" in str(refused.value)
    assert isinstance(refused.value, api.VerifyUsageError)   # exit 2 from the command line
    from click.testing import CliRunner
    from tf2migrate.cli.verify_cmd import verify as verify_command

    out = CliRunner().invoke(verify_command, [*pair, "--cluster", "multi-worker:2"])
    assert out.exit_code == 2 and "--allow-network" in out.output
