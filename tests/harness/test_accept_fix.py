"""`verify --accept-fix CODE`: the reference is the original with only that rule's fix applied by the codemod.

These checks build the reference without running TensorFlow; the fixture pair `seed004_seq2seq` runs it for
real under `mirrored:2` (tests/harness/test_fixture_programs.py).
"""
import os

import pytest
from click.testing import CliRunner

from harness_support import ROOT
from tf2migrate.cli.verify_cmd import verify as verify_command
from tf2migrate.harness.running import codemod_sides

SEED004 = os.path.join(ROOT, "fixtures", "programs", "seed004_seq2seq")


def _read(path):
    with open(path) as f:
        return f.read()


def test_reference_has_the_accepted_fix_and_nothing_else(tmp_path):
    original = os.path.join(SEED004, "original.py")
    text = _read(original)
    path, _, applied = codemod_sides.with_fixes(original, text, ["TFM401"], str(tmp_path))
    reference = _read(path)
    assert applied == ["TFM401"]
    assert "tf.nn.compute_average_loss(loss_, global_batch_size=GLOBAL_BATCH_SZIE)" in reference
    assert "tf.reduce_mean(loss_)" not in reference
    assert "experimental_run_v2" in reference          # the other fixes of the migration are not applied
    assert reference.count("\n") == text.count("\n") and reference != _read(os.path.join(SEED004, "migrated.py"))
    assert _read(original) == text                      # the user's file is never touched


def test_a_fix_that_changes_nothing_is_reported_as_none(tmp_path):
    original = os.path.join(SEED004, "original.py")
    path, _, applied = codemod_sides.with_fixes(original, _read(original), ["TFM3"], str(tmp_path))
    assert applied == [] and _read(path) == _read(original)


def test_unknown_code_is_a_usage_error_before_anything_runs(tmp_path):
    original, migrated = os.path.join(SEED004, "original.py"), os.path.join(SEED004, "migrated.py")
    out = CliRunner().invoke(verify_command, [original, migrated, "--accept-fix", "TFM777"])
    assert out.exit_code == 2 and "no rule has the code TFM777" in out.output
    with pytest.raises(codemod_sides.FixError):
        codemod_sides.with_fixes(original, _read(original), ["TFM777"], str(tmp_path))
