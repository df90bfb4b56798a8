"""Issue 19 points 1 and 9: every process of every verify run is kept off the network and inside the run.

Isolation is not decided by spotting a call named `Server` any more: a program that starts a TF server in a
way no scan sees (`Server.create_local_server()`, an alias of `tf.distribute.Server`, a tf.data service's
`DispatchServer()`, `tf.profiler.experimental.server.start(6019)`) ran on the caller's network with gRPC on
every interface, under `--cluster local`. The test runs verify inside a network
namespace of its own, so every socket listening there is verify's: none may be. A process a program starts
in a new session must not outlive verify; nor, after verify is SIGKILLed, its cluster, and its work
directory is removed by the next run.
"""
import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from harness_support import ROOT, SEED_DIR
from tf2migrate.harness import api
from tf2migrate.harness.running import netns, workdirs

PROGRAM = '''
import os, subprocess, sys, time
import numpy as np
import tensorflow as tf

{start}
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", {marker!r}], start_new_session=True)
open(os.path.join({probe!r}, "ready.%d" % port), "w").close()
deadline = time.time() + 120   # until the test has looked for the server's port
while not os.path.exists(os.path.join({probe!r}, "checked.%d" % port)) and time.time() < deadline:
    time.sleep(0.05)
rng = np.random.RandomState(0)
X = rng.normal(size=(32, 4)).astype("float32")
Y = (X @ rng.normal(size=(4, 1))).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
model.compile(tf.keras.optimizers.SGD(0.1), "mse")
model.fit(X, Y, batch_size=8, epochs=1, shuffle=False, verbose=0)
'''
PORT = '\nport = int(server.target.rsplit(":", 1)[1])'
LOCAL_SERVER = "server = tf.compat.v1.train.Server.create_local_server()" + PORT
ALIASED_SERVER = ('make = tf.distribute.Server\n'
                  'server = make(tf.train.ClusterSpec({"local": ["localhost:0"]}), job_name="local", task_index=0)'
                  + PORT)
DISPATCH_SERVER = "server = tf.data.experimental.service.DispatchServer()" + PORT  # a tf.data service
PROFILER_SERVER = "port = 6019\ntf.profiler.experimental.server.start(port)"   # the profiler's gRPC server

# Runs in a network namespace of its own: starts verify there, and for each server a program reports, looks
# whether its port listens in this namespace (verify's own namespace would hide it). Prints what it saw.
WATCHER = '''
import json, os, subprocess, sys, time
from tf2migrate.harness.running import netns

probe, marker, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
lib = netns.load_libc()
if os.geteuid() == 0:
    netns.check_errno(lib.unshare(netns.CLONE_NEWNET), "unshare")
else:
    netns.check_errno(lib.unshare(netns.CLONE_NEWUSER | netns.CLONE_NEWNET), "unshare")
    for name, text in (("setgroups", "deny"), ("uid_map", "%d %d 1" % (os.geteuid(), os.geteuid())),
                       ("gid_map", "%d %d 1" % (os.getegid(), os.getegid()))):
        with open("/proc/self/" + name, "w") as f:
            f.write(text)
netns._loopback_up()

def listening():
    ports = set()
    for table in ("tcp", "tcp6"):
        with open("/proc/self/net/" + table) as f:
            rows = [r.split() for r in f.read().splitlines()[1:]]
        ports.update(int(r[1].rsplit(":", 1)[1], 16) for r in rows if r[3] == "0A")
    return ports

verify = subprocess.Popen([sys.executable, "-m", "tf2migrate", "verify"] + argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
checked, outside = [], []
while verify.poll() is None:
    for name in os.listdir(probe):
        if name.startswith("ready.") and int(name[6:]) not in checked:
            port = int(name[6:])
            if port in listening():
                outside.append(port)
            checked.append(port)
            open(os.path.join(probe, "checked.%d" % port), "w").close()
    time.sleep(0.05)
output = verify.stdout.read()
left = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    if int(pid) == os.getpid():   # named in this process's arguments too
        continue
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            found = marker.encode() in f.read()
        with open("/proc/%s/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        continue
    if found and state != "Z":
        left.append(int(pid))
        os.kill(int(pid), 9)
print(json.dumps({"code": verify.returncode, "output": output, "checked": checked, "outside": outside,
                  "left": left}))
'''


@pytest.mark.slow
@pytest.mark.parametrize("servers", [(LOCAL_SERVER, ALIASED_SERVER), (DISPATCH_SERVER, PROFILER_SERVER)],
                         ids=["local-and-aliased", "data-service-and-profiler"])
def test_servers_no_scan_sees_run_isolated_and_a_new_session_dies_with_verify(tmp_path, servers):
    """The four ways of issue 19 point 1: Server.create_local_server(), an alias of tf.distribute.Server, a
    tf.data service's DispatchServer, the profiler's server; one on each side of a verify run."""
    probe, marker = tmp_path / "probe", f"tf2migrate-test-grandchild-{os.getpid()}"
    probe.mkdir()
    sides = []
    for name, start in zip(("original.py", "migrated.py"), servers):
        sides.append(tmp_path / name)
        sides[-1].write_text(PROGRAM.format(start=start, marker=marker, probe=str(probe)))
    watcher = subprocess.run([sys.executable, "-c", WATCHER, str(probe), marker, *map(str, sides),
                              "--cluster", "local", "--timeout", "240"],
                             capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=600)
    assert watcher.returncode == 0, watcher.stderr
    seen = json.loads(watcher.stdout.splitlines()[-1])
    assert len(seen["checked"]) == 2, seen   # both servers were up while the test looked
    assert seen["outside"] == [], f"servers listening on the caller's network: {seen}"
    assert "network: isolated: every process of the run" in seen["output"], seen["output"]
    assert seen["code"] == 0 and "EQUIVALENT" in seen["output"], seen["output"]
    assert seen["left"] == [], f"processes started in a new session outlived verify: {seen['left']}"


def test_a_local_run_is_refused_where_no_namespace_can_be_made(monkeypatch, tmp_path):
    """No program here starts a server that a scan sees: the run is refused all the same."""
    def unavailable(timeout=30.0, network=True):
        raise netns.Unavailable("unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET): Operation not permitted")

    monkeypatch.setattr(netns, "open_namespace", unavailable)
    pair = [os.path.join(SEED_DIR, n) for n in ("original.py", "migrated.py")]
    with pytest.raises(api.NetworkIsolationError, match="--allow-network"):
        api.verify(*pair, cluster="local", progress=lambda line: None)


def test_a_killed_runs_work_directory_is_removed_by_the_next_run_and_a_live_one_is_not(tmp_path):
    live = workdirs.make()
    try:
        stale = tmp_path / f"{workdirs.PREFIX}stale"
        stale.mkdir()
        (stale / workdirs.LOCK).write_text("")    # its owner is dead: nobody holds the lock
        (stale / "original.main.log").write_text("left by a SIGKILLed verify")
        kept = tmp_path / f"{workdirs.PREFIX}kept"
        kept.mkdir()                                # kept on purpose: no lock file
        busy = tmp_path / f"{workdirs.PREFIX}busy"
        os.rename(live.path, busy)                  # a running verify's directory, moved here to be swept
        live.path = str(busy)
        assert workdirs.sweep(str(tmp_path)) == [str(stale)]
        assert not stale.exists() and kept.exists() and busy.exists()
    finally:
        live.close()
    assert not busy.exists()


def _descendants(pid):
    try:
        return [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _alive(pids):
    alive = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                alive.append(pid)
        except psutil.NoSuchProcess:
            pass
    return alive


WAIT = '''
# added by test_containment: wait here, servers and all, until the test has killed verify
import os as _os, time as _time
open({ready!r} + "." + str(_os.getpid()), "w").close()
_time.sleep(600)
'''


@pytest.mark.slow
def test_sigkill_of_verify_during_a_ps_cluster_leaves_no_process_and_no_work_directory(tmp_path):
    temp, ready = tmp_path / "tmp", str(tmp_path / "ready")
    temp.mkdir()
    sides = []
    for name in ("original.py", "migrated.py"):
        sides.append(str(tmp_path / name))
        with open(os.path.join(SEED_DIR, name)) as f, open(sides[-1], "w") as out:
            out.write(f.read() + WAIT.format(ready=ready))
    env = dict(os.environ, PYTHONPATH=ROOT, TMPDIR=str(temp))
    verify = subprocess.Popen([sys.executable, "-m", "tf2migrate", "verify", *sides, "--cluster", "ps:1,1"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started, deadline = [], time.time() + 300
    try:
        # the original's chief and the migrated program reached the end of their training; ps0 serves
        while len([n for n in os.listdir(tmp_path) if n.startswith("ready.")]) < 2 and verify.poll() is None:
            assert time.time() < deadline, "the programs never reached the end of their training"
            time.sleep(0.1)
        started = _descendants(verify.pid)
        assert len(started) >= 4, started   # holder, init, chief, ps0, migrated (and their waiting parents)
        os.kill(verify.pid, signal.SIGKILL)
        verify.wait()
        deadline = time.time() + 60
        while _alive(started) and time.time() < deadline:
            time.sleep(0.1)
        assert _alive(started) == [], f"processes of the killed verify still alive: {_alive(started)}"
    finally:
        for pid in _alive(started):
            os.kill(pid, signal.SIGKILL)
        if verify.poll() is None:
            verify.kill()
    left = [n for n in os.listdir(temp) if n.startswith(workdirs.PREFIX)]
    assert len(left) == 1   # a SIGKILLed process cannot clean up: the next run does
    assert workdirs.sweep(str(temp)) == [str(temp / left[0])] and not os.listdir(temp)
