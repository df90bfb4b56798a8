"""`tf2migrate rewrite PATH...` (in place, `--diff`, `--check`) and `tf2migrate check` (= `rewrite --check`)."""
from __future__ import annotations

import os
import sys

import click

from tf2migrate.cli import config, output
from tf2migrate.engine.diagnostics import printable
from tf2migrate.engine.selection import Selection, parse_codes
from tf2migrate.engine.files import DEFAULT_EXCLUDES, first_missing, gather
from tf2migrate.engine.process import Mode
from tf2migrate.engine.tf_version import SOURCES


STRATEGIES = ("auto", "parameter-server", "multi-worker", "mirrored", "none")
TARGETS = ("keras3", "tf-keras")


def _options(fn):
    for decorator in reversed([
        click.argument("paths", nargs=-1, type=click.Path(), required=True),
        click.option("-j", "--jobs", type=click.IntRange(min=1), help="Worker processes (default: cores)."),
        click.option("--select", multiple=True, help="Codes or prefixes to run, e.g. TFM1,TFM204."),
        click.option("--ignore", multiple=True, help="Codes or prefixes to skip."),
        click.option("--exclude", multiple=True, help="Glob of files or folders to skip (repeatable)."),
        click.option("--force-exclude", is_flag=True, default=None,
                     help="Apply excludes to files named on the command line too (for pre-commit)."),
        click.option("--report", "report_file", type=click.Path(dir_okay=False), help="Write a JSON report."),
        click.option("--no-cache", is_flag=True, help="Ignore and do not update the cache."),
        click.option("--config", "config_file", type=click.Path(dir_okay=False, exists=True),
                     help="pyproject.toml to read [tool.tf2migrate] from."),
        click.option("--strategy", type=click.Choice(STRATEGIES), default=None,
                     help="Strategy for converted Estimators (default: auto, from what the code builds)."),
        click.option("--source", type=click.Choice(SOURCES), default=None,
                     help="What the files are written for: tf1, tf2, or auto (decided per file, from its imports "
                     "and names); upgrades that change meaning on TF2 code run only on TF1 code."),
        click.option("--target", type=click.Choice(TARGETS), default=None,
                     help="Keras of the output: keras3 (TF 2.16+ and 2.15; default) or tf-keras (Keras 2, "
                          "the tf-keras package on TF 2.16+)."),
        click.option("-q", "--quiet", is_flag=True, help="Print only errors."),
        click.option("-v", "--verbose", count=True, help="Also print the fixes applied."),
    ]):
        fn = decorator(fn)
    return fn


def execute(paths, mode: Mode, jobs, select, ignore, exclude, force_exclude, report_file, no_cache, config_file, strategy,
            source, target, quiet, verbose):
    from tf2migrate.engine import cache
    from tf2migrate.engine.cache import Cache, rules_fingerprint
    from tf2migrate.engine.runner import RunOptions, run
    from tf2migrate.engine.workers import Interrupted
    from tf2migrate.rules import tables_dir
    from tf2migrate.rules.rule_set import RULES

    missing = first_missing(paths)
    if missing:
        raise click.BadParameter(f"path does not exist: {printable(missing)}", param_hint="PATHS")
    problem = output.report_problem(report_file) if report_file else None
    if problem:
        raise click.UsageError(printable(problem))
    try:
        settings, _ = config.load(paths, config_file)
    except config.ConfigError as exc:
        raise click.UsageError(str(exc))
    selection = Selection(
        select=parse_codes(select) or parse_codes(settings.get("select")) or ("ALL",),
        ignore=parse_codes(ignore) or parse_codes(settings.get("ignore")),
        strategy=strategy or settings.get("strategy", "auto"),
        source=source or settings.get("source", "auto"),
        target=target or settings.get("target", "keras3"),
    )
    if selection.strategy not in STRATEGIES:
        raise click.UsageError(f"[tool.tf2migrate] strategy = {selection.strategy!r}: expected one of "
                               f"{', '.join(STRATEGIES)}")
    if selection.source not in SOURCES:
        raise click.UsageError(f"[tool.tf2migrate] source = {selection.source!r}: expected one of {', '.join(SOURCES)}")
    if selection.target not in TARGETS:
        raise click.UsageError(f"[tool.tf2migrate] target must be one of {', '.join(TARGETS)}, "
                               f"not {selection.target!r}")
    excludes = tuple(exclude) or tuple(settings.get("exclude", ()))
    extra = tuple(settings.get("extend-exclude", ()))
    use_cache = not no_cache and settings.get("cache", True)
    cache.disable(not use_cache)  # the rule tables' parsed data too: nothing read or written
    options = RunOptions(
        mode=mode,
        selection=selection,
        jobs=jobs or int(settings.get("jobs", os.cpu_count() or 1)),
        cache=Cache(rules_fingerprint(selection, tables_dir())) if use_cache else None,
        rules=RULES,  # the engine runs the rule set it is handed
    )
    force = force_exclude if force_exclude is not None else bool(settings.get("force-exclude", False))
    candidates = list(gather(paths, DEFAULT_EXCLUDES + excludes, extra, force))
    try:
        results = run(candidates, options)
    except Interrupted as stop:   # Ctrl-C: what was done, and exit 130 (see output.interrupted)
        output.show(stop.results, mode, verbose, quiet)
        click.echo(output.interrupted(stop.results, len(candidates), mode), err=True)
        sys.exit(output.EXIT_INTERRUPTED)
    output.show(results, mode, verbose, quiet)
    code = output.exit_code(results, mode)
    if report_file:
        try:
            output.write_report(report_file, results, mode)
        except OSError as exc:
            click.echo(printable(f"tf2migrate: --report {report_file}: not written: {exc.strerror or exc}"), err=True)
            code = output.EXIT_USAGE
    if not quiet or any(r.status.value == "failed" for r in results):
        click.echo(output.summary(results, mode), err=True)
    sys.exit(code)


@click.command()
@click.option("--diff", is_flag=True, help="Print a unified diff; write nothing.")
@click.option("--check", "check_only", is_flag=True, help="Write nothing; list the files that would change.")
@_options
def rewrite(diff, check_only, **kw):
    """Rewrite TF1 distributed-training code to TF2 in place.

    Exit status: 0 nothing left to do; 1 changes pending (--check/--diff) or errors remain;
    2 usage error; 123 a file could not be read or parsed (the others are still processed);
    130 interrupted (Ctrl-C): queued files were not started, the summary says what was done.
    """
    mode = Mode.DIFF if diff else Mode.CHECK if check_only else Mode.WRITE
    execute(mode=mode, **kw)


@click.command()
@_options
def check(**kw):
    """Like `rewrite --check`: write nothing, exit 1 if any file would change."""
    execute(mode=Mode.CHECK, **kw)
