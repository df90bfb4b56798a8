"""Both programs of one verify, run side by side, and the runs that may follow them.

Once more on new ports when another process took a server's port before it bound it; the original again,
slightly off, when the losses part late in exact mode (its own float drift, sensitivity.py); the original's
repeats in statistical mode. A recorded original (recordings.py) is reused: then only the migrated one runs.
"""
import os
from dataclasses import dataclass

from tf2migrate.harness.compare import compare, sensitivity, tolerance as tol_lib
from tf2migrate.harness.compare.observations import PairObserved
from tf2migrate.harness.running import recordings as recordings_lib
from tf2migrate.harness.running.plan import build_side
from tf2migrate.harness.running.runner import run_sides


@dataclass
class PairPlan:
    """How both sides run: resolved by `api.verify` from its arguments."""
    reference: object             # program.Program the original side runs
    migrated: object              # program.Program of the migrated side
    facts_o: object
    facts_m: object
    topology: object
    mode: str                     # exact | statistical
    original_api: str
    pythons: dict                 # side -> its interpreter (None: this one)
    seed: int
    steps: object
    timeout: float
    repeats: int
    cwd: object
    override: object              # .npz of the original's step-0 values given by the user, or None
    tolerances: tuple             # (rtol, atol, tolerance) as given, for the drift question


def run_pair(plan: PairPlan, workdir, namespace, recordings, progress) -> PairObserved:
    runs = PairObserved()
    digest = None
    if recordings and plan.mode == "exact":
        digest = recordings_lib.key(plan.reference, python=plan.pythons["original"], topology=plan.topology,
                                    seed=plan.seed, steps=plan.steps, api=plan.original_api, cwd=plan.cwd,
                                    override=plan.override)
    for attempt in (1, 2):
        # ports are picked free, but another process may take one before a server binds it: run again once
        run_dir = os.path.join(workdir, f"run{attempt}")
        os.makedirs(run_dir)
        init, abort = os.path.join(run_dir, "init.npz"), os.path.join(run_dir, "original.failed")
        common = dict(workdir=run_dir, seed=plan.seed, max_steps=plan.steps, timeout=plan.timeout,
                      on_progress=progress, netns=namespace.pid if namespace else None, cwd=plan.cwd)
        kept = recordings_lib.load(recordings, digest, init) if digest else None
        side_m = build_side("migrated", plan.migrated, "migrated", plan.topology, plan.facts_m, api="v2", init_in=init,
                            tf1_adam=plan.facts_o.tf1_adam, abort_path=abort, python=plan.pythons["migrated"], **common)
        if kept is not None:   # recorded once for the session: only the migrated program runs
            runs.original, (runs.migrated,) = kept, run_sides([side_m])
        else:
            side_o = build_side("original", plan.reference, "original", plan.topology, plan.facts_o,
                                api=plan.original_api, init_out=init, init_override=plan.override, abort_marker=abort,
                                python=plan.pythons["original"], **common)
            runs.original, runs.migrated = run_sides([side_o, side_m])
            if digest:
                recordings_lib.store(recordings, digest, runs.original, init)
        if attempt == 2 or not any(_port_taken(s) for s in (runs.original, runs.migrated)):
            break
        progress("a port picked for the cluster was taken by another process before its server started: "
                 "running both programs again on new ports")
        runs.retried_ports = True
    runs.original_runs = [runs.original]
    if plan.mode == "exact" and _ran(runs) and _drift_may_explain(runs, plan.tolerances):
        perturbed = os.path.join(run_dir, "init.ulp.npz")
        if sensitivity.perturb(init, perturbed):
            progress("the losses part late: running the original again slightly off (step-0 values and every "
                     "gradient), to measure its own float drift")
            runs.twin, = run_sides([build_side("original~ulp", plan.reference, "original", plan.topology, plan.facts_o,
                                               api=plan.original_api, init_override=perturbed,
                                               python=plan.pythons["original"], nudge_gradients=True, **common)])
    if plan.mode == "statistical" and plan.repeats > 1 and _ran(runs):
        more = [build_side(f"original#{r}", plan.reference, "original", plan.topology, plan.facts_o,
                           api=plan.original_api, init_override=plan.override, python=plan.pythons["original"],
                           **dict(common, seed=plan.seed + r))
                for r in range(1, plan.repeats)]
        runs.original_runs += run_sides(more)
    return runs


_PORT_TAKEN = ("Could not start gRPC server", "Address already in use", "Failed to add port")


def _drift_may_explain(runs, tolerances):
    """The strict comparison fails late: a twin run of the original tells drift from a mistake."""
    rtol, atol, _ = tol_lib.choose(*tolerances, runs.original, runs.migrated)
    strict = compare.exact(runs.original.losses, runs.migrated.losses, rtol, atol)
    return sensitivity.wants_twin(strict, runs.original.losses, runs.migrated.losses)


def _port_taken(side) -> bool:
    text = f"{side.error}\n{side.stderr_tail}"
    return side.status == "failed" and any(marker in text for marker in _PORT_TAKEN)


def _ran(runs):
    return runs.original.status == "ok" and runs.migrated.status == "ok"
