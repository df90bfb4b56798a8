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

from tf2migrate.harness.running.runner import Side, Task


def build_side(label, program, role, topology, facts, *, workdir, api, seed, max_steps, timeout,
               init_out=None, init_in=None, init_override=None, abort_path=None, abort_marker=None,
               netns=None, on_progress=print, python=None, cwd=None, nudge_gradients=False, tf1_adam=False):
    """`program`: a `program.Program` (script or module, its arguments and environment);
    `abort_path`: the original's failure marker this side waits on; `abort_marker`: the one it writes;
    `netns`: the PID of the holder of the network namespace every task of the run enters (netns.py);
    `python`: the interpreter of this side's processes (None: this one); `cwd`: their working directory;
    `nudge_gradients`: every gradient slightly off (the drift twin of `sensitivity.py`);
    `tf1_adam`: the original trains with TF1's AdamOptimizer, whose rounding Keras' Adam takes (adam_rounding.py)."""
    base = {"script": os.path.abspath(program.path), "module": program.module, "argv": list(program.args),
            "home": program.home, "sources": program.files(), "role": role, "api": api, "seed": seed,
            "max_steps": max_steps, "init_out": init_out, "init_in": init_in,
            "init_override": init_override, "abort_path": abort_path, "nudge_gradients": nudge_gradients,
            "tf1_adam_rounding": role == "migrated" and tf1_adam,
            "wait_timeout": timeout, "netns": netns, "uses_estimator": role == "original" and facts.uses_estimator,
            # parameter servers run steps on remote workers: dropout masks cannot be shared there
            "share_masks": topology.kind != "ps"}
    if role == "original" and not facts.uses_estimator and not facts.strategies:
        # the reference run: a program that builds no strategy of its own trains as written, locally
        topology = type(topology)("local")
    topo = {"kind": topology.kind, "replicas": topology.replicas, "workers": topology.workers, "ps": topology.ps}
    estimator_cluster = role == "original" and facts.uses_estimator and topology.kind in ("ps", "multi-worker")
    if estimator_cluster:
        # TF1's Estimator.train() alone starts no servers (train_and_evaluate does): its tasks would wait for
        # each other until the timeout, so the child says so at once (capture.py) unless the program starts its own
        tasks = _estimator_cluster(label, dict(base, servers_from_train_and_evaluate=not facts.starts_servers,
                                               cluster_name=str(topology)), topology, workdir)
    elif topology.kind == "multi-worker":
        tasks = _multi_worker(label, base, topo, topology, facts, workdir)
    else:
        spec = dict(base, topology=topo, results=_path(workdir, label, "main", "results.json"),
                    workdir=_mkdir(workdir, label, "main"),
                    wrap_strategy=not facts.strategies and topology.kind != "local",
                    start_servers=topology.kind == "ps" and not facts.starts_servers)
        tasks = [Task("main", spec)]
    side = Side(label, tasks, timeout, workdir, on_progress, python=python, env=program.env, cwd=cwd)
    side.merge_trainers = estimator_cluster  # TF1 clusters: every trainer's steps count, in time order
    side.init_path, side.abort_marker = init_out, abort_marker
    return side


def _estimator_cluster(label, base, topology, workdir):
    trainers = topology.workers if topology.kind == "ps" else topology.replicas
    n_ps = topology.ps if topology.kind == "ps" else 0
    ports = _ports(trainers + n_ps)
    by_job = {job: group for job, group in
              (("chief", ports[:1]), ("worker", ports[1:trainers]), ("ps", ports[trainers:])) if group}
    cluster = {job: [f"127.0.0.1:{p}" for p in group] for job, group in by_job.items()}
    model_dir = _mkdir(workdir, label, "model")
    tasks = []
    for job, group in by_job.items():
        for i, port in enumerate(group):
            name = job if job == "chief" else f"{job}{i}"
            tf_config = json.dumps({"cluster": cluster, "task": {"type": job, "index": i}, "model_dir": model_dir})
            spec = dict(base, topology={"kind": "local"}, model_dir=model_dir,
                        results=_path(workdir, label, name, "results.json"), workdir=_mkdir(workdir, label, name))
            if job != "chief":
                spec["init_out"] = spec["init_override"] = None
                spec["wait_init"] = base["init_out"]
            if job == "ps":
                spec["serve"] = {"cluster": cluster, "job": "ps", "index": i}
            spec["ports"] = [port]
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
