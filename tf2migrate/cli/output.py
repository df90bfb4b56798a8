"""What a run prints: diagnostics on stderr, diffs on stdout, one summary line, the exit code."""
from __future__ import annotations

import json

import click

from tf2migrate.engine.diagnostics import Severity, printable
from tf2migrate.engine.process import Mode, Status

EXIT_OK, EXIT_PENDING, EXIT_USAGE, EXIT_FAILED = 0, 1, 2, 123
EXIT_INTERRUPTED = 130   # 128 + SIGINT, what a shell reports for a process Ctrl-C ended


def show(results, mode: Mode, verbose: int, quiet: bool) -> None:
    for r in results:
        if r.diff:
            click.echo(r.diff, nl=False)
        for d in r.diagnostics:
            pending = mode is not Mode.WRITE or not d.fixed
            if quiet and d.severity is not Severity.ERROR:
                continue
            if pending or verbose:
                click.echo(d.format(), err=True)
        if mode is Mode.CHECK and r.status is Status.CHANGED and not quiet:
            click.echo(f"would rewrite {printable(r.path)}", err=True)
        elif verbose and mode is Mode.WRITE and r.status is Status.CHANGED:
            click.echo(f"rewrote {printable(r.path)}", err=True)


def summary(results, mode: Mode) -> str:
    changed = sum(r.status is Status.CHANGED for r in results)
    failed = sum(r.status is Status.FAILED for r in results)
    unchanged = len(results) - changed - failed
    attention = sum(r.status is not Status.FAILED and r.needs_attention for r in results)
    verb = "rewritten" if mode is Mode.WRITE else "would be rewritten"
    return (f"tf2migrate: {_n(changed)} {verb}, {_n(unchanged)} unchanged, "
            f"{_n(attention)} needing attention, {_n(failed)} failed")


def interrupted(results, total: int, mode: Mode) -> str:
    """The summary after Ctrl-C. black prints "Aborted!" and then its usual exit code (0 for a run that did not
    finish); this run says what it did not do and exits EXIT_INTERRUPTED."""
    return f"Aborted! {summary(results, mode)}; {_n(total - len(results))} not started (interrupted)"


def _n(count: int) -> str:
    return f"{count} file" + ("" if count == 1 else "s")


def exit_code(results, mode: Mode) -> int:
    if any(r.status is Status.FAILED for r in results):
        return EXIT_FAILED
    if mode is not Mode.WRITE and any(r.status is Status.CHANGED for r in results):
        return EXIT_PENDING
    errors = any(d.severity is Severity.ERROR and not d.fixed for r in results for d in r.diagnostics)
    return EXIT_PENDING if errors else EXIT_OK


def report_problem(path: str, option: str = "--report", folder_word: str = "folder"):
    """Why the report cannot be written at `path`, or None: asked before the run, so that a bad path costs no
    work (and never leaves the files rewritten and the report missing). verify asks it for its reports too."""
    import os

    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        return f"{option} {path}: is a directory"
    if not os.path.isdir(folder):
        return f"{option} {path}: no such {folder_word} {folder}"
    if not os.access(folder, os.W_OK | os.X_OK) or os.path.exists(path) and not os.access(path, os.W_OK):
        return f"{option} {path}: not writable"
    return None


def write_report(path: str, results, mode: Mode) -> None:
    """Written whole or not at all (a temporary file beside it, then renamed): a full disk leaves no 0-byte
    report. Raises OSError."""
    import os
    import tempfile

    data = {
        "mode": mode.value,
        "summary": summary(results, mode),
        "files": [
            {"path": r.path, "status": r.status.value, "diagnostics": [d.to_json() for d in r.diagnostics]}
            for r in results
        ],
    }
    fd, tmp = tempfile.mkstemp(prefix=".tf2migrate-report-", suffix=".tmp", dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2)
            handle.write("\n")
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask
