"""Decide which processes a side needs for a topology, and what each is told in its spec.

The original runs in the TF1 form of the topology when it is an Estimator: `ps:W,P` becomes a real
chief + (W-1) workers + P parameter servers on 127.0.0.1 (in TF1 the chief trains; TF2's chief only
coordinates, so TF2 "W workers" is TF1 "chief + W-1 workers"), `multi-worker:N` a chief + N-1 workers,
all sharing one model directory named in TF_CONFIG. A TF2 program gets the topology from its child
(`cluster.py`), wrapped in the harness's strategy unless it builds its own; an original that is neither an
Estimator nor builds a strategy is the reference and trains as written, locally.
"""
import json
import os

from tf2migrate.harness.runner import Side, Task


def build_side(label, script, role, topology, facts, *, workdir, api, seed, max_steps, timeout,
               init_out=None, init_in=None, init_override=None, abort_path=None, home=None, on_progress=print):
    base = {"script": os.path.abspath(script), "home": home or os.path.dirname(os.path.abspath(script)), "role": role, "api": api, "seed": seed,
            "max_steps": max_steps, "init_out": init_out, "init_in": init_in,
            "init_override": init_override, "abort_path": abort_path,
            "wait_timeout": timeout}
    if role == "original" and not facts.uses_estimator and not facts.strategies:
        # the reference run: a program that builds no strategy of its own trains as written, locally
        topology = type(topology)("local")
    topo = {"kind": topology.kind, "replicas": topology.replicas, "workers": topology.workers, "ps": topology.ps}
    if role == "original" and facts.uses_estimator and topology.kind in ("ps", "multi-worker"):
        tasks = _estimator_cluster(label, base, topology, workdir)
    elif topology.kind == "multi-worker" and topology.replicas > 1:
        tasks = _multi_worker(label, base, topo, topology, facts, workdir)
    else:
        spec = dict(base, topology=topo, results=_path(workdir, label, "main", "results.json"),
                    workdir=_mkdir(workdir, label, "main"),
                    wrap_strategy=not facts.strategies and topology.kind != "local",
                    start_servers=topology.kind == "ps" and not facts.starts_servers)
        env = {}
        if topology.kind == "multi-worker":
            port = _ports(1)[0]
            spec["ports"] = [port]
            env["TF_CONFIG"] = json.dumps({"cluster": {"worker": [f"127.0.0.1:{port}"]},
                                           "task": {"type": "worker", "index": 0}})
        tasks = [Task("main", spec, env=env)]
    side = Side(label, tasks, timeout, workdir, on_progress)
    side.merge_trainers = role == "original" and facts.uses_estimator and topology.kind in ("ps", "multi-worker")
    return side


def _estimator_cluster(label, base, topology, workdir):
    trainers = topology.workers if topology.kind == "ps" else topology.replicas
    n_ps = topology.ps if topology.kind == "ps" else 0
    ports = _ports(trainers + n_ps)
    cluster = {"chief": [f"127.0.0.1:{ports[0]}"]}
    if trainers > 1:
        cluster["worker"] = [f"127.0.0.1:{p}" for p in ports[1:trainers]]
    if n_ps:
        cluster["ps"] = [f"127.0.0.1:{p}" for p in ports[trainers:]]
    model_dir = _mkdir(workdir, label, "model")
    tasks = []
    for job, addresses in cluster.items():
        for i, _ in enumerate(addresses):
            name = job if job == "chief" else f"{job}{i}"
            tf_config = json.dumps({"cluster": cluster, "task": {"type": job, "index": i}, "model_dir": model_dir})
            spec = dict(base, topology={"kind": "local"}, model_dir=model_dir,
                        results=_path(workdir, label, name, "results.json"), workdir=_mkdir(workdir, label, name))
            if job != "chief":
                spec["init_out"] = spec["init_override"] = None
                spec["wait_init"] = base["init_out"]
            if job == "ps":
                spec["serve"] = {"cluster": cluster, "job": "ps", "index": i}
            spec["ports"] = [int(a.rsplit(":", 1)[1]) for a in addresses][i:i + 1]
            tasks.append(Task(name, spec, trainer=job != "ps", env={"TF_CONFIG": tf_config}))
    return tasks


def _multi_worker(label, base, topo, topology, facts, workdir):
    ports = _ports(topology.replicas)
    cluster = {"worker": [f"127.0.0.1:{p}" for p in ports]}
    tasks = []
    for i in range(topology.replicas):
        name = f"worker{i}"
        spec = dict(base, topology=topo, results=_path(workdir, label, name, "results.json"),
                    workdir=_mkdir(workdir, label, name), wrap_strategy=not facts.strategies, ports=[ports[i]])
        if i:
            spec["init_out"] = None
        tf_config = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": i}})
        tasks.append(Task(name, spec, env={"TF_CONFIG": tf_config}))
    return tasks


def _ports(n):
    import portpicker

    return [portpicker.pick_unused_port() for _ in range(n)]


def _mkdir(workdir, label, name):
    path = os.path.join(workdir, f"{label}.{name}")
    os.makedirs(path, exist_ok=True)
    return path


def _path(workdir, label, name, suffix):
    return os.path.join(workdir, f"{label}.{name}.{suffix}")
