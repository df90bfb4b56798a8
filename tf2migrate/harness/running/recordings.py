"""A side's recording, kept to be reused: `verify(..., recordings=DIR)`.

What an original run records (losses, step-0 values, state, eval results) depends only on its program, its
arguments and environment, its interpreter, the harness and how it is run (cluster, seed, steps, API, given
initial values); never on the program it is compared with. So a test session that verifies one original
against many migrated programs (a pair's entries, every mutant of it) can run that original once. The key
hashes all of those inputs, file contents included; only a run that ended well is kept.
"""
import dataclasses
import glob
import hashlib
import json
import os
import shutil
import sys

_ENV_PREFIXES = ("TF_", "TF2MIGRATE", "PYTHON", "CUDA", "KERAS", "OMP_")
_FILES = ("own_initial", "final_state", "plain_state")   # SideResult fields that name an .npz (+ .names.json)


def key(program, *, python, topology, seed, steps, api, cwd, override):
    """The hex digest of everything the original's recording depends on."""
    h = hashlib.sha256()
    harness = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # every room of the harness
    home = [os.path.join(program.home, n) for n in sorted(os.listdir(program.home)) if n.endswith(".py")] \
        if os.path.isdir(program.home) else []
    ours = sorted(glob.glob(os.path.join(harness, "**", "*.py"), recursive=True))
    for path in ours + sorted(set(program.files()) | set(home)):
        h.update(path.encode() + b"\0")
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    env = {k: v for k, v in os.environ.items() if k.startswith(_ENV_PREFIXES)}
    facts = dict(module=program.module, args=list(program.args), env=program.env, python=python or sys.executable,
                 topology=str(topology), seed=seed, steps=steps, api=api, cwd=cwd, environ=env)
    h.update(json.dumps(facts, sort_keys=True, default=str).encode())
    if override:
        with open(override, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def load(folder, digest, init_path):
    """The SideResult kept under `digest`, its step-0 values copied to `init_path`; None when there is none."""
    from tf2migrate.harness.running.runner import SideResult

    where = os.path.join(folder, digest)
    try:
        with open(os.path.join(where, "result.json")) as f:
            fields = json.load(f)
    except (OSError, ValueError):
        return None
    for name in _FILES:
        if fields.get(name):
            fields[name] = os.path.join(where, fields[name])
    if os.path.exists(os.path.join(where, "init.npz")):
        _copy(os.path.join(where, "init.npz"), init_path)
    fields["notes"] = list(fields.get("notes", [])) + ["recorded once for this session, reused (recordings=)"]
    fields["pids"], fields["ports"] = [], []   # that run's processes are long gone: their PIDs may be reused
    return SideResult(**fields)


def store(folder, digest, result, init_path):
    """Keep a run that ended well (its files are copied: the run's own folder is removed after verify)."""
    if result.status != "ok" or not result.losses:
        return
    where = os.path.join(folder, digest)
    tmp = f"{where}.tmp{os.getpid()}"
    os.makedirs(tmp, exist_ok=True)
    fields = dataclasses.asdict(result)
    for name in _FILES:
        if fields.get(name):
            _copy(fields[name], os.path.join(tmp, f"{name}.npz"))
            fields[name] = f"{name}.npz"
    if os.path.exists(init_path):
        _copy(init_path, os.path.join(tmp, "init.npz"))
    with open(os.path.join(tmp, "result.json"), "w") as f:
        json.dump(fields, f)
    try:
        os.replace(tmp, where)
    except OSError:   # another run kept the same recording first
        shutil.rmtree(tmp, ignore_errors=True)


def _copy(npz, dest):
    shutil.copyfile(npz + ".names.json", dest + ".names.json")
    shutil.copyfile(npz, dest)
