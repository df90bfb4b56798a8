"""`verify(original, migrated)`: the Python face of `tf2migrate verify`, returning a `VerifyResult`.

Both sides start at the same moment (the migrated child waits for the original's step-0 values only when
it creates its first variable), so a verify costs little more than the slower of the two programs.
"""
import os
import shutil
import sys

from tf2migrate.harness.compare import tolerance as tol_lib
from tf2migrate.harness.compare.align import load_user_values, save_values
from tf2migrate.harness.report.judge import judge
from tf2migrate.harness.report.result import (EXIT_DIVERGED, EXIT_EQUIVALENT, EXIT_PROGRAM_FAILED, EXIT_USAGE,
                                              RunFacts, VerifyResult)
from tf2migrate.harness.running import netns, sides as sides_lib, topology as topo_lib, unparsable, workdirs
from tf2migrate.harness.running.pair_runs import PairPlan, run_pair

__all__ = ["verify", "VerifyResult", "VerifyUsageError", "NetworkIsolationError", "EXIT_EQUIVALENT", "EXIT_DIVERGED",
           "EXIT_USAGE", "EXIT_PROGRAM_FAILED"]


class VerifyUsageError(ValueError):
    """Bad arguments (exit 2), as opposed to a program that failed (exit 3)."""


class NetworkIsolationError(VerifyUsageError):
    """The cluster cannot be kept off the network here and the user did not allow it on (exit 2)."""


_SOURCES = {"v1": "tf1", "v2": "tf2", "auto": "auto"}  # --original-api -> what the codemod takes it for


def verify(original, migrated=None, *, module=None, args=(), original_args=None, migrated_args=None, cwd=None,
           env=None, original_env=None, migrated_env=None, steps=None, timeout=600.0, cluster="local",
           original_api="auto", rtol=None, atol=None, mode="auto", repeats=3, seed=0, init_values=None,
           accept_fixes=(), allow_network=False, progress=print, keep_workdir=False, original_python=None,
           migrated_python=None, tolerance="auto", recordings=None):
    """Train both programs and compare them step by step; see `tf2migrate verify --help`.

    How the programs are run (`sides.py`): `module` ("trainer.task"): ORIGINAL and MIGRATED are package
    roots and each side runs `python -m module` from its root (without MIGRATED, a copy of the package
    rewritten by the codemod). `args`: both programs' command-line arguments; `original_args` /
    `migrated_args` replace them for one side. `env` (dict, or "KEY=VALUE" strings): set for every process of
    both sides, `original_env` / `migrated_env` on top for one side. `cwd`: the processes' working directory.

    `original_python` / `migrated_python`: run that side under another interpreter (e.g. the original in a
    TF 2.15 venv, the migrated program in a TF 2.21 one). `tolerance`: auto (wider defaults when the two
    sides ran with different TensorFlow or Keras), strict (1e-5 always) or cross-version; see `tolerance.py`.

    `accept_fixes`: rule codes whose fixes are intended changes of training; the original is compared with
    those fixes applied (see `codemod_sides.with_fixes`).

    `init_values`: optional step-0 values for the original (dict name -> array, or an .npz keyed by variable
    name), e.g. to reproduce a recorded run; the migrated program is then aligned to them as usual.

    `recordings`: a folder where the original's recording is kept and reused by later verifies of the same
    original run the same way (a test session's many mutants of one pair; `recordings.py`; exact mode only).

    `allow_network`: run the programs on this machine's network (their TF servers listen on every interface);
    without it, every process of the run is in a network namespace with only loopback, and where this machine
    cannot make one the run is refused (`NetworkIsolationError`, exit 2).
    """
    if original_api not in ("v1", "v2", "auto"):
        raise VerifyUsageError(f"--original-api must be v1, v2 or auto, not {original_api!r}")
    if mode not in ("exact", "statistical", "auto"):
        raise VerifyUsageError(f"--mode must be exact, statistical or auto, not {mode!r}")
    if tolerance not in tol_lib.CHOICES:
        raise VerifyUsageError(f"--tolerance must be one of {', '.join(tol_lib.CHOICES)}, not {tolerance!r}")
    unparsable.check(original, migrated)  # UnparsableProgram: one line, exit 3, nothing started
    pythons = {"original": _interpreter(original_python, "--original-python"),
               "migrated": _interpreter(migrated_python, "--migrated-python")}
    if cwd is not None and not os.path.isdir(cwd):
        raise VerifyUsageError(f"--cwd {cwd}: no such directory")
    cwd = os.path.abspath(cwd) if cwd is not None else None
    held = workdirs.make()   # also removes what a killed verify left behind
    workdir = held.path
    namespace = None
    try:
        try:
            sides = sides_lib.resolve(original, migrated, module=module, args=args, original_args=original_args,
                                      migrated_args=migrated_args, env=env, original_env=original_env,
                                      migrated_env=migrated_env, accept_fixes=accept_fixes, workdir=workdir,
                                      progress=progress, source=_SOURCES[original_api])
            topology = topo_lib.parse(cluster)
        except (OSError, SyntaxError, ValueError) as e:   # codemod_sides.FixError is a ValueError
            raise VerifyUsageError(str(e)) from e
        migrated, reference, mig = sides.migrated, sides.reference, sides.migrated_program
        facts_o, facts_m = sides.facts_o, sides.facts_m
        if topology == "auto":
            topology = topo_lib.auto_topology(facts_o, facts_m)
        if mode == "auto":
            mode = "exact" if topology.deterministic else "statistical"
        facts = RunFacts(os.path.abspath(original), os.path.abspath(migrated), str(topology), mode, rtol, atol,
                         tolerance, rewrite_diagnostics=sides.diagnostics, accepted_fixes=sides.accepted,
                         reference_path=os.path.abspath(reference.path) if accept_fixes else "",
                         module=module, original_args=list(reference.args), migrated_args=list(mig.args), cwd=cwd,
                         env_keys={"original": sorted(reference.env), "migrated": sorted(mig.env)})
        progress(f"verify {_shown(original, reference)} against {_shown(migrated, mig)} on {topology} ({mode})")
        override = None
        if init_values is not None:
            override = os.path.join(workdir, "override.npz")
            try:
                save_values(override, load_user_values(init_values))
            except (OSError, ValueError) as e:
                raise VerifyUsageError(f"cannot read the initial values: {e}") from e
        namespace, facts.network = _isolate(topology, allow_network)
        progress(f"network: {facts.network}")
        plan = PairPlan(reference, mig, facts_o, facts_m, topology, mode, original_api, pythons, seed, steps, timeout,
                        repeats, cwd, override, (rtol, atol, tolerance))
        return judge(VerifyResult(facts, run_pair(plan, workdir, namespace, recordings, progress)))
    finally:
        if namespace:
            namespace.close()
        held.close(keep=keep_workdir)


def _isolate(topology, allow_network):
    """The namespaces every process of the run shares, and the sentence the report gives about them. Every
    run is isolated, whatever its programs seem to do: a TF server can be started in ways no scan sees.
    With --allow-network the run still gets a PID namespace where it can (none of its processes outlives it)."""
    try:
        namespace = netns.open_namespace(network=not allow_network)
    except netns.Unavailable as e:
        if allow_network:
            return None, netns.ALLOWED
        raise NetworkIsolationError(
            f"cannot keep this {topology} run off the network on this machine: {e}. A TF server its programs "
            f"start would listen on every interface, unauthenticated, for the whole run; pass --allow-network "
            f"(allow_network=True) to run it anyway") from e
    return namespace, namespace.describe()


def _interpreter(path, option):
    """The interpreter a side runs under: None for this one; a usage error when it does not exist."""
    if path is None:
        return None
    found = shutil.which(os.path.expanduser(str(path)))
    if not found:
        raise VerifyUsageError(f"{option} {path}: no such executable")
    found = os.path.abspath(found)   # not realpath: a venv's python is a link to its base interpreter
    return None if found == os.path.abspath(sys.executable) else found


def _shown(path, program):
    """How the progress line names a side: its path, and `-m MODULE ARGS` when there are any."""
    extra = ([f"-m {program.module}"] if program.module else []) + list(program.args)
    return f"{path} ({' '.join(extra)})" if extra else str(path)
