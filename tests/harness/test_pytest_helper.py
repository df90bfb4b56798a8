"""The helper users keep beside a migrated script."""
import pytest

from harness_support import SEED_INIT, SEED_LOSSES, remember
from harness_programs import seed_migrated_variant
from tf2migrate.harness.pytest_helper import assert_equivalent

pytestmark = pytest.mark.slow


def test_assert_equivalent_passes_and_returns_the_result(seed_pair):
    result = remember(assert_equivalent(*seed_pair, init_values=SEED_INIT))
    assert result.original.losses == SEED_LOSSES


def test_assert_equivalent_fails_with_the_table(seed_pair, tmp_path):
    wrong = seed_migrated_variant(tmp_path, "learning_rate=0.05", "learning_rate=0.06", "wrong.py")
    with pytest.raises(AssertionError, match="DIVERGED: first differs at step 2") as info:
        assert_equivalent(seed_pair[0], wrong)
    assert "<- first difference" in str(info.value)
