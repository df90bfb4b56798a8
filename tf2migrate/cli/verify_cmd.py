"""`tf2migrate verify ORIGINAL.py [MIGRATED.py] [-- ARGS...]`: train both programs and prove they train the same.

`-m trainer.task` runs both sides as `python -m trainer.task ARGS...` from their package roots (ORIGINAL and
MIGRATED are then directories); everything after `--` is passed to both programs.

Importing this module imports neither TensorFlow nor the harness: `rewrite` and `check` stay fast, and
only this command's body pulls the harness in.

Exit codes: 0 EQUIVALENT; 1 DIVERGED, or INCOMPARABLE because the variables differ or no training step
was seen (not equivalent, and not an error of the tool); 2 usage error, including a cluster that this
machine cannot keep off the network without `--allow-network`; 3 a program failed or timed out (the tail
of its output is printed).
"""
import importlib

import click

from tf2migrate.cli import output


EXIT_CODES = ("Exit codes: 0 EQUIVALENT; 1 DIVERGED, or INCOMPARABLE because the variables differ or no "
              "training step was seen; 2 usage error (also: a cluster that cannot be kept off the network without "
              "--allow-network; a --json, --junit or --plot path that cannot be written, checked before the run); "
              "3 a program failed or timed out.")


class _ProgramArgsCommand(click.Command):
    """Everything after the first `--` belongs to the programs: kept aside before click parses the rest, so
    that `verify ORIG -- --steps 3` cannot take `--steps` for MIGRATED."""

    def parse_args(self, ctx, args):
        if "--" in args:
            i = args.index("--")
            ctx.meta["program_args"] = tuple(args[i + 1:])
            args = args[:i]
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx):
        return super().collect_usage_pieces(ctx) + ["[-- PROGRAM_ARGS...]"]


@click.command("verify", cls=_ProgramArgsCommand, epilog=EXIT_CODES)
@click.argument("original", type=click.Path(exists=True))
@click.argument("migrated", required=False, type=click.Path(exists=True))
@click.option("-m", "--module", default=None, metavar="MODULE",
              help="Run both sides as `python -m MODULE` (e.g. trainer.task); ORIGINAL and MIGRATED are then the "
                   "package roots (without MIGRATED: a rewritten copy of ORIGINAL).")
@click.option("--original-arg", "original_args", multiple=True, metavar="ARG",
              help="An argument of the original program only (repeatable); replaces the arguments after `--`.")
@click.option("--migrated-arg", "migrated_args", multiple=True, metavar="ARG",
              help="An argument of the migrated program only (repeatable); replaces the arguments after `--`.")
@click.option("--cwd", type=click.Path(exists=True, file_okay=False), default=None,
              help="Working directory of both programs (default: the current one).")
@click.option("--env", "env", multiple=True, metavar="KEY=VALUE",
              help="Set an environment variable for both programs, every process of a cluster (repeatable).")
@click.option("--original-env", multiple=True, metavar="KEY=VALUE", help="Same, for the original only.")
@click.option("--migrated-env", multiple=True, metavar="KEY=VALUE", help="Same, for the migrated program only.")
@click.option("--steps", type=click.IntRange(min=1), default=None,
              help="Stop both programs cleanly after N training steps.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=600.0, show_default=True,
              help="Seconds each program run may take before it is stopped.")
@click.option("--cluster", default="local", show_default=True,
              help="local | mirrored:N | multi-worker:N | ps:W,P | auto")
@click.option("--original-api", type=click.Choice(["v1", "v2", "auto"]), default="auto", show_default=True,
              help="v1: run the original in TF1 legacy mode (tensorflow = tensorflow.compat.v1).")
@click.option("--original-python", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="Run the original under this interpreter (e.g. a TF 2.15 venv's bin/python).")
@click.option("--migrated-python", type=click.Path(dir_okay=False), default=None, metavar="PATH",
              help="Run the migrated program under this interpreter (e.g. a TF 2.21 venv's bin/python).")
@click.option("--tolerance", type=click.Choice(["auto", "strict", "cross-version"]), default="auto",
              show_default=True,
              help="Default rtol/atol: strict 1e-5; cross-version rtol 1e-4, atol 1e-5; auto: cross-version "
                   "when the two sides ran with different TensorFlow or Keras.")
@click.option("--rtol", type=float, default=None, help="Relative tolerance after step 10 [see --tolerance].")
@click.option("--atol", type=float, default=None, help="Absolute tolerance of the first 10 steps [see --tolerance].")
@click.option("--mode", type=click.Choice(["exact", "statistical", "auto"]), default="auto", show_default=True,
              help="auto: exact for deterministic topologies, statistical for asynchronous ones.")
@click.option("--repeats", type=click.IntRange(min=1), default=3, show_default=True,
              help="Statistical mode: runs of the original (different seeds) that measure its spread.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for both programs.")
@click.option("--init", "init_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Start the original from these step-0 values (.npz keyed by variable name).")
@click.option("--accept-fix", "accept_fixes", multiple=True, metavar="CODE",
              help="A rule whose fix is an intended change of training (e.g. TFM401): compare against the "
                   "original with that fix applied. Repeatable.")
@click.option("--allow-network", is_flag=True, default=False,
              help="Run the cluster on this machine's network: its TF servers listen on every interface. Without "
                   "it, a run that starts servers gets a network namespace with only loopback, or is refused "
                   "(exit 2) where Linux namespaces are unavailable.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None, help="Write the result as JSON.")
@click.option("--junit", "junit_path", type=click.Path(dir_okay=False), default=None, help="Write a JUnit XML report.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Write both loss curves and their relative difference to a PNG (needs matplotlib).")
def verify(original, migrated, module, original_args, migrated_args, cwd, env, original_env, migrated_env, steps,
           timeout, cluster, original_api, original_python, migrated_python, tolerance, rtol, atol, mode, repeats,
           seed, init_path, accept_fixes, allow_network, json_path, junit_path, plot_path):
    """Train ORIGINAL and MIGRATED on a local cluster and compare their losses step by step.

    Without MIGRATED, ORIGINAL is first rewritten with the codemod into a temporary file (with -m, the
    package into a temporary copy). Arguments after `--` are passed to both programs.
    """
    from tf2migrate.harness import api
    from tf2migrate.harness.report import report
    from tf2migrate.harness.running import unparsable

    args = click.get_current_context().meta.get("program_args", ())
    reports = {"--json": json_path, "--junit": junit_path, "--plot": plot_path}
    _check_reports(reports)   # before any run: a verdict must not end in a traceback and DIVERGED's code

    def progress(line):
        click.echo(line, err=True)

    try:
        result = api.verify(original, migrated, module=module, args=args, original_args=original_args or None,
                            migrated_args=migrated_args or None, cwd=cwd, env=env, original_env=original_env,
                            migrated_env=migrated_env, steps=steps, timeout=timeout, cluster=cluster,
                            original_api=original_api, rtol=rtol, atol=atol, mode=mode, repeats=repeats,
                            seed=seed, init_values=init_path, accept_fixes=accept_fixes,
                            allow_network=allow_network, progress=progress, original_python=original_python,
                            migrated_python=migrated_python, tolerance=tolerance)
    except api.VerifyUsageError as e:
        raise click.UsageError(str(e)) from e
    except unparsable.UnparsableProgram as e:  # a program that cannot run: INCOMPARABLE's exit code
        click.echo(str(e))
        raise SystemExit(api.EXIT_PROGRAM_FAILED) from None
    for d in result.facts.rewrite_diagnostics:
        click.echo(f"codemod: {d}", err=True)
    click.echo(report.table(result))
    for line in report.summary_lines(result):
        click.echo(line)
    try:
        if json_path:
            report.write_json(result, json_path)
        if junit_path:
            report.write_junit([result], junit_path)
        if plot_path:
            from tf2migrate.harness.report.plot import write_plot

            write_plot(result, plot_path)
    except OSError as e:   # an I/O failure is exit 2; 0/1/3 stay the verdicts'
        click.echo(f"tf2migrate verify: cannot write {e.filename or 'a report'}: {e.strerror or e}", err=True)
        raise SystemExit(api.EXIT_USAGE) from None
    raise SystemExit(result.exit_code)


def _check_reports(reports):
    """Each report path can be written (its folder exists and is writable) and `--plot` has matplotlib,
    or a usage error (exit 2) before anything runs."""
    for option, path in reports.items():
        problem = output.report_problem(path, option, "directory") if path is not None else None
        if problem is not None:   # also a path that is a folder: its write would fail after the run
            raise click.UsageError(problem)
    if reports.get("--plot"):
        try:
            importlib.import_module("matplotlib")  # the optional extra `tf2migrate[plot]`
        except ImportError as e:
            raise click.UsageError(f"--plot needs matplotlib (pip install 'tf2migrate[plot]'): {e}") from None


if __name__ == "__main__":
    verify()
