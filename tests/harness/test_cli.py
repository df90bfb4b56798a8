"""`tf2migrate verify` as a user runs it: through click's CliRunner, and once as a real subprocess."""
import json
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from click.testing import CliRunner

from harness_support import PYTHON, ROOT, SEED_INIT, SEED_LOSSES
from tf2migrate.cli.verify_cmd import verify as verify_command


def _init_file(tmp_path):
    path = str(tmp_path / "init.npz")
    np.savez(path, **{k: np.asarray(v, dtype=np.float32) for k, v in SEED_INIT.items()})
    return path


@pytest.mark.slow
def test_seed_pair_with_json_junit_and_plot(seed_pair, tmp_path):
    files = {k: str(tmp_path / f"out.{k}") for k in ("json", "xml", "png")}
    out = CliRunner().invoke(verify_command, [*seed_pair, "--init", _init_file(tmp_path), "--json", files["json"],
                                              "--junit", files["xml"], "--plot", files["png"]])
    assert out.exit_code == 0, out.output
    assert "verdict: EQUIVALENT" in out.output
    assert "original: running" in out.output and "migrated: 3 steps" in out.output   # progress per side
    assert "0.09953763335943222" in out.output and "abs diff" in out.output           # the table
    assert "aligned: 2 of 2 migrated variables" in out.output
    data = json.load(open(files["json"]))
    assert data["verdict"] == "EQUIVALENT" and data["exit_code"] == 0
    assert data["original_run"]["losses"] == SEED_LOSSES == data["migrated_run"]["losses"]
    suite = ET.parse(files["xml"]).getroot()
    assert suite.get("tests") == "1" and suite.get("failures") == "0" and suite.get("errors") == "0"
    assert len(suite.findall("testcase")) == 1
    with open(files["png"], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_diverged_pair_writes_a_failing_junit_case(seed_pair, tmp_path):
    original, migrated = seed_pair
    wrong = tmp_path / "wrong.py"
    wrong.write_text(open(migrated).read().replace("initial_accumulator_value=0.1", "initial_accumulator_value=0.2"))
    xml = str(tmp_path / "out.xml")
    out = CliRunner().invoke(verify_command, [original, str(wrong), "--junit", xml, "--plot", str(tmp_path / "d.png")])
    assert out.exit_code == 1, out.output
    assert "verdict: DIVERGED" in out.output and "<- first difference" in out.output
    suite = ET.parse(xml).getroot()
    assert suite.get("failures") == "1" and suite.find("testcase/failure") is not None


def test_usage_errors_exit_2(seed_pair):
    runner = CliRunner()
    assert runner.invoke(verify_command, [*seed_pair, "--cluster", "gpu:2"]).exit_code == 2
    assert runner.invoke(verify_command, [*seed_pair, "--mode", "fast"]).exit_code == 2
    assert runner.invoke(verify_command, ["does_not_exist.py"]).exit_code == 2


@pytest.mark.parametrize("side", ["original", "migrated"])
def test_a_program_with_a_syntax_error_is_one_line_and_exit_3(seed_pair, tmp_path, side):
    """Python 2 code or a typo: no LibCST traceback and not exit 1 (DIVERGED's code); nothing is started."""
    bad = tmp_path / "bad.py"
    bad.write_text("import tensorflow as tf\nx = (\n", encoding="utf-8")
    args = [str(bad)] if side == "original" else [seed_pair[0], str(bad)]
    for command in (args, args + ["--cluster", "mirrored:2"]):
        out = CliRunner().invoke(verify_command, command)
        assert out.exit_code == 3, out.output
        assert out.output.strip().splitlines() == [f"{bad}:2:5: syntax error: '(' was never closed (the program "
                                                   "cannot run: not verified)"], out.output
        assert out.exception is None or isinstance(out.exception, SystemExit)


def test_a_file_only_libcst_refuses_is_one_line_too(tmp_path):
    from tf2migrate.harness.running import codemod_sides, unparsable

    with pytest.raises(unparsable.UnparsableProgram, match=r"^.*odd\.py:\d+:\d+: the codemod cannot parse it"):
        codemod_sides.rewrite_all(str(tmp_path / "odd.py"), "x = (\n")


@pytest.mark.slow
def test_real_subprocess(seed_pair, tmp_path):
    proc = subprocess.run([PYTHON, "-m", "tf2migrate.cli.verify_cmd", *seed_pair, "--cluster", "auto",
                           "--json", str(tmp_path / "r.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "verdict: EQUIVALENT" in proc.stdout
    assert "original: running" in proc.stderr
    data = json.load(open(tmp_path / "r.json"))
    assert data["cluster"] == "local"  # auto: neither program builds a strategy


@pytest.mark.slow
def test_original_alone_is_rewritten_by_the_codemod_then_verified(seed_pair, tmp_path, verify):
    result = verify(seed_pair[0], init_values=SEED_INIT)
    try:
        assert result.facts.migrated_path != seed_pair[1]
        with open(result.facts.migrated_path) as f:
            assert "tf.keras" in f.read()          # the codemod's output is what was verified
        assert result.verdict == "EQUIVALENT", result.reason
        assert result.migrated.losses == SEED_LOSSES
    finally:
        import os

        os.remove(result.facts.migrated_path)


def test_registered_as_a_tf2migrate_subcommand():
    from tf2migrate.cli.app import main

    out = CliRunner().invoke(main, ["verify", "--help"])
    assert out.exit_code == 0 and "--cluster" in out.output and "--original-api" in out.output
