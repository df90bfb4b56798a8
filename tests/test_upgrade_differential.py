"""The differential test against the real tf_upgrade_v2 (TensorFlow 2.15.1, installed with the test extras).

One small TF1 program per entry of every table tf_upgrade_v2 has, generated from TensorFlow's installed data
at test time (bench/upgrade_compare.py): both tools run once over the whole tree, and at least 98 % of the
entries must come out the same after normalising formatting and the documented deliberate differences
(rules/differences/tf_upgrade_v2.toml). The agreement is printed (`pytest -s`).
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

_spec = importlib.util.spec_from_file_location("upgrade_compare", ROOT / "bench" / "upgrade_compare.py")
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    pytest.importorskip("tensorflow.tools.compatibility.tf_upgrade_v2")
    work = tmp_path_factory.mktemp("differential")
    files, (verdicts, disagreements) = compare.run_entries(work, source="tf1")
    return work, files, verdicts, disagreements


def test_at_least_98_percent_of_the_entries_agree(run):
    _, files, verdicts, disagreements = run
    strict, documented = compare.agreement(verdicts)
    print(f"\n{compare.summary(verdicts)}\n{len(files)} entries: {strict:.1%} agree, "
          f"{documented:.1%} with the documented differences")
    for category, name, why in disagreements:
        print(f"  differ: {category} {name}: {why}")
    assert len(files) > 1500  # every table, not a sample
    assert documented >= 0.98


def test_agreement_per_table_family(run):
    """No table may hide behind the others: each family agrees on its own."""
    _, _, verdicts, _ = run
    for category in {c for c, _ in verdicts}:
        assert compare.agreement(verdicts, {category})[1] >= 0.95, category


def test_tf2migrate_never_failed_and_a_second_run_changes_nothing(run):
    work, files, _, _ = run
    report = work / "tf2migrate_report.json"
    data = json.loads(report.read_text())
    failed = [f["path"] for f in data["files"] if f["status"] == "failed"]
    assert failed == []
    again = subprocess.run([sys.executable, "-m", "tf2migrate", "check", "--no-cache", "--source", "tf1",
                            str(work / "tf2migrate")], capture_output=True, text=True, cwd=str(ROOT))
    assert "would rewrite" not in again.stderr, again.stderr[-2000:]
    for name in files:
        compile((work / "tf2migrate" / name).read_text(), name, "exec")


def test_every_report_only_entry_is_reported(run):
    """Where tf_upgrade_v2 cannot convert (its WARNING/ERROR lines), tf2migrate says so too, or the entry
    is a documented difference: nothing is silently left behind."""
    _, _, _, disagreements = run
    silent = [(c, n) for c, n, why in disagreements if "does not" in why]
    assert silent == []
