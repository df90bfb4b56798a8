"""Issue 19 point 11: verify's reports are checked before the work. `--json /nodir/x.json` and `--plot` without
matplotlib printed EQUIVALENT after the whole run, then a traceback and exit 1 (DIVERGED's code). Now they are
usage errors (exit 2) before any program starts: no "verify ... against ..." progress line is printed."""
import sys

import pytest
from click.testing import CliRunner

from tf2migrate.cli.verify_cmd import verify as verify_command


def _invoke(seed_pair, *options):
    return CliRunner().invoke(verify_command, [*seed_pair, *options])


@pytest.mark.parametrize("option", ["--json", "--junit", "--plot"])
def test_a_report_in_a_missing_folder_is_refused_before_the_run(seed_pair, tmp_path, option):
    path = str(tmp_path / "nodir" / "report.out")
    out = _invoke(seed_pair, option, path)
    assert out.exit_code == 2, out.output
    assert f"{option} {path}: no such directory" in out.output
    assert " against " not in out.output and "Traceback" not in out.output   # nothing ran
    assert isinstance(out.exception, SystemExit)


@pytest.mark.parametrize("option", ["--json", "--junit", "--plot"])
def test_a_report_path_that_is_a_folder_is_refused_before_the_run(seed_pair, tmp_path, option):
    out = _invoke(seed_pair, option, str(tmp_path))   # its write after the run would fail: IsADirectoryError
    assert out.exit_code == 2, out.output
    assert "is a directory" in out.output and " against " not in out.output


def test_plot_without_matplotlib_is_refused_before_the_run(seed_pair, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)   # what Python does for a package that is not there
    out = _invoke(seed_pair, "--plot", str(tmp_path / "losses.png"))
    assert out.exit_code == 2, out.output
    assert "--plot needs matplotlib" in out.output and "tf2migrate[plot]" in out.output
    assert " against " not in out.output and not (tmp_path / "losses.png").exists()


def test_a_report_that_cannot_be_written_over_is_refused(seed_pair, tmp_path):
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        import os

        if os.access(folder, os.W_OK):
            pytest.skip("this user may write any folder (root): a read-only folder cannot be made")
        out = _invoke(seed_pair, "--json", str(folder / "x.json"))
        assert out.exit_code == 2 and "not writable" in out.output, out.output
    finally:
        folder.chmod(0o700)


@pytest.mark.slow
def test_a_report_that_fails_after_the_run_is_one_line_and_exit_2(seed_pair, tmp_path, monkeypatch):
    """A disk that fills during the run: the verdict is printed, then one line and the usage/I/O code 2, never
    a traceback and DIVERGED's 1."""
    from tf2migrate.harness.report import report

    def full(*args, **kw):
        raise OSError(28, "No space left on device", str(tmp_path / "x.json"))

    monkeypatch.setattr(report, "write_json", full)
    out = _invoke(seed_pair, "--json", str(tmp_path / "x.json"))
    assert out.exit_code == 2, out.output
    assert "verdict: EQUIVALENT" in out.output and "Traceback" not in out.output
    assert f"tf2migrate verify: cannot write {tmp_path / 'x.json'}: No space left on device" in out.output
