"""Run the planned processes of one or more sides at the same time and collect what each observed.

A side is one program run: usually one process, or one process per task for a TF1 Estimator cluster
(chief, workers, and parameter servers that never exit on their own). A side ends when all its trainer
tasks have exited; its servers are then ended by PID, and the whole side is ended at its timeout.
"""
import json
import os
import sys
import time
from dataclasses import dataclass, field

from tf2migrate.harness.compare.observations import Observed
from tf2migrate.harness.running import processes

_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))   # tf2migrate/


@dataclass
class Task:
    name: str                 # "chief", "worker1", "ps0", "main"
    spec: dict
    trainer: bool = True      # its exit ends the side; False for servers
    env: dict = field(default_factory=dict)
    proc: object = None
    log: str = ""


@dataclass
class SideResult(Observed):
    """One side's run as the parent saw it: what its child observed (a TF1 cluster's trainers merged), and
    what only the parent knows."""
    label: str = ""
    seconds: float = 0.0
    stderr_tail: str = ""
    pids: list = field(default_factory=list)
    python: str = ""


class Side:
    def __init__(self, label, tasks, timeout, workdir, on_progress=print, python=None, env=None, cwd=None):
        self.label, self.tasks, self.timeout, self.workdir = label, tasks, timeout, workdir
        self.python = python  # another interpreter (e.g. a TF 2.21 venv); None: this one
        self.env = dict(env or {})  # the user's --env for this side: every task gets it
        self.cwd = cwd  # every task's working directory (None: this process's)
        self.on_progress = on_progress
        self.result = None
        self.merge_trainers = False  # TF1 clusters: every trainer's steps count, in time order
        self.abort_marker = None  # written when this side ends without step-0 values for the other side
        self.init_path = None

    def start(self):
        self.started = time.time()
        for t in self.tasks:
            t.log = os.path.join(self.workdir, f"{self.label}.{t.name}.log")
            spec_path = os.path.join(self.workdir, f"{self.label}.{t.name}.spec.json")
            with open(spec_path, "w") as f:
                json.dump(t.spec, f)
            env = child_env(self.workdir, self.python, findable=self.cwd is not None)
            env.update(self.env)
            if "PYTHONPATH" in self.env:   # the user's own path: the child must still find tf2migrate
                env["PYTHONPATH"] = os.pathsep.join([self.env["PYTHONPATH"], package_dir(self.workdir)])
            env.update(t.env)   # the harness's own per task (TF_CONFIG) last
            with open(t.log, "wb") as log:
                t.proc = processes.spawn([self.python or sys.executable, "-m", "tf2migrate.harness.capture.child",
                                          spec_path], env=env, stdout=log, stderr=log, cwd=self.cwd)
        pids = ", ".join(f"{t.name} {t.proc.pid}" for t in self.tasks)
        self.on_progress(f"  {self.label}: running ({pids})")

    def poll(self):
        """Advance; return True once the side is finished (result set)."""
        if self.result is not None:
            return True
        trainers = [t for t in self.tasks if t.trainer]
        codes = [t.proc.poll() for t in trainers]
        failed = [t for t, c in zip(trainers, codes) if c not in (None, 0)]
        timed_out = time.time() - self.started > self.timeout
        if not failed and not timed_out and any(c is None for c in codes):
            return False
        self.stop()
        status = "timeout" if timed_out and not failed else ("failed" if failed else "ok")
        self.result = self._collect(status, failed[0] if failed else None)
        for special in ("unsupported", "incomparable"):
            if any(o.get("status") == special for o in self._outputs() if o):
                self.result.status = special
        took = f"{self.result.seconds:.1f} s"
        what = {"ok": f"{len(self.result.losses)} steps", "timeout": f"stopped at --timeout {self.timeout:g} s",
                "failed": "FAILED", "unsupported": "cannot run here",
                "incomparable": "cannot run as this cluster"}[self.result.status]
        self.on_progress(f"  {self.label}: {what} in {took}")
        if self.abort_marker and not os.path.exists(self.init_path or ""):
            # the side waiting for step-0 values must not wait for values that will never come
            with open(self.abort_marker, "w") as f:
                f.write("failed" if status != "ok" else "none")
        return True

    def stop(self):
        for t in self.tasks:
            if t.proc is not None:
                processes.end(t.proc)

    def _outputs(self):
        outs = []
        for t in self.tasks:
            if t.trainer:
                try:
                    with open(t.spec["results"]) as f:
                        outs.append(json.load(f))
                except (OSError, ValueError):
                    outs.append(None)
        return outs

    def _collect(self, status, failed_task):
        trainers = [t for t in self.tasks if t.trainer]
        outs = self._outputs()
        # A TF1 cluster trains on every trainer task: the steps of all of them, in the order they ran.
        merged = outs if self.merge_trainers else outs[:1]
        steps = sorted((tm, loss) for o in merged if o for tm, loss in zip(o.get("times", []), o.get("losses", [])))
        cap = trainers[0].spec.get("max_steps")
        if cap:  # asynchronous trainers overshoot a global-step cap by up to one step each
            steps = steps[:cap]
        tail_task = failed_task or trainers[0]
        error = ((outs[0] or {}).get("error") or "") if failed_task is None else \
            _error_of(failed_task, outs[trainers.index(failed_task)])
        main = Observed.from_json(outs[0] or {})
        observed = {**main.to_json(), "api": main.api or "", "error": error, "own_initial": main.own_initial or "",
                    "final_state": main.final_state or "", "plain_state": main.plain_state or ""}
        return SideResult(**{
            **observed, "label": self.label, "status": status,
            "losses": [loss for _, loss in steps], "times": [tm for tm, _ in steps],
            "versions": main.versions or next((o["versions"] for o in outs if o and o.get("versions")), {}),
            "python": self.python or sys.executable, "seconds": time.time() - self.started,
            "stderr_tail": tail(tail_task.log), "pids": [t.proc.pid for t in self.tasks],
            "ports": sorted({p for o in outs if o for p in o.get("ports", [])} | set(self.ports()))})

    def ports(self):
        return [p for t in self.tasks for p in t.spec.get("ports", [])]


def _error_of(task, out):
    if out and out.get("error"):
        return out["error"]
    return f"{task.name} exited with code {task.proc.returncode}"


def run_sides(sides, poll_interval=0.05):
    """Start every side now and wait for all of them (each bounded by its own timeout)."""
    for s in sides:
        s.start()
    try:
        while not all([s.poll() for s in sides]):
            time.sleep(poll_interval)
    finally:
        for s in sides:
            s.stop()
    return [s.result for s in sides]


def child_env(workdir, python=None, findable=False):
    """`findable`: the child starts in another folder (`--cwd`), where a tf2migrate found through the current
    folder would be lost: this package stays importable through a folder that holds only it, last on the path."""
    env = dict(os.environ)
    env.pop("TF_CONFIG", None)
    if python:   # another interpreter: it finds tf2migrate (stdlib-only until TF) and nothing else of ours
        env["PYTHONPATH"] = package_dir(workdir)
        for name in ("VIRTUAL_ENV", "PYTHONHOME"):
            env.pop(name, None)
    elif findable:
        env["PYTHONPATH"] = os.pathsep.join([p for p in [env.get("PYTHONPATH")] if p] + [package_dir(workdir)])
    env.update(PYTHONHASHSEED="0", TF_CPP_MIN_LOG_LEVEL=env.get("TF_CPP_MIN_LOG_LEVEL", "2"),
               CUDA_VISIBLE_DEVICES="-1", PYTHONUNBUFFERED="1", TMPDIR=workdir)
    return env


def package_dir(workdir):
    """A folder holding only a link to this tf2migrate package: another interpreter's PYTHONPATH. The
    package's own parent may be a site-packages whose numpy or TensorFlow must not shadow that interpreter's."""
    folder = os.path.join(workdir, "pythonpath")
    link = os.path.join(folder, "tf2migrate")
    if not os.path.exists(link):
        os.makedirs(folder, exist_ok=True)
        os.symlink(_PACKAGE, link)
    return folder


def tail(path, lines=25, window=1 << 20):
    """The last `lines` lines of a program's log, read from its last `window` bytes only: a program may print
    gigabytes, and its output is streamed to the log file, never held here."""
    try:
        with open(path, "rb") as f:
            start = max(0, f.seek(0, os.SEEK_END) - window)
            f.seek(start)
            text = f.read().decode(errors="replace").splitlines()
    except OSError:
        return ""
    if start:
        text = text[1:]   # the first line read may be cut
    text = [ln for ln in text if not ln.startswith(("W0000", "I0000"))]
    return "\n".join(text[-lines:])
