"""Every program pair outside the Estimator family (`est_*`, see test_estimator_rewrite.py) whose
`migrated.py` is the codemod's reviewed output: the rewrite of `original.py` equals it, compiles, and
a second rewrite changes nothing (a package pair: every file of `migrated/` against the rewrite of the
`original/` tree, tests/program_pairs.py). A pair written by hand says so, and why, in `hand_written.txt`."""
from __future__ import annotations

import pytest

from tests.conftest import ROOT
from tests.program_pairs import expected, is_pair, rewrite_again, rewrite_pair
from tests.test_estimator_rewrite import _selection

FOLDERS = sorted(p for p in (ROOT / "fixtures" / "programs").iterdir() if is_pair(p) and not p.name.startswith("est_"))


def _case(folder):
    why = folder / "hand_written.txt"
    marks = [pytest.mark.skip(reason=why.read_text().strip())] if why.exists() else []
    return pytest.param(folder, id=folder.name, marks=marks)


def test_the_custom_loop_pairs_are_rewrites():
    rewritten = [f.name for f in FOLDERS if not (f / "hand_written.txt").exists()]
    assert {"seed002_custom_loop", "seed002_custom_loop_ps", "seed004_seq2seq", "loss_scaling_only"} <= set(rewritten)


@pytest.mark.parametrize("folder", [_case(f) for f in FOLDERS])
def test_migrated_is_the_rewrite(folder):
    tree, _ = rewrite_pair(folder, _selection(folder))   # rewrite.toml: e.g. the target
    assert tree == expected(folder, tree)
    for name, code in tree.items():
        compile(code, name, "exec")
    assert rewrite_again(folder, tree, _selection(folder)) == tree


def test_a_package_pair_is_compared_file_by_file(tmp_path):
    """The package layout (original/ and migrated/ trees): every file's rewrite is compared, so a migrated tree
    that misses one file's rewrite does not pass."""
    from tests.conftest import TF1_SAMPLE
    from tf2migrate.engine.api import Selection

    (tmp_path / "original" / "trainer").mkdir(parents=True)
    (tmp_path / "original" / "trainer" / "__init__.py").write_text("")
    (tmp_path / "original" / "trainer" / "task.py").write_text(TF1_SAMPLE)
    tree, codes = rewrite_pair(tmp_path, Selection())
    assert set(tree) == {"trainer/__init__.py", "trainer/task.py"} and "strategy.run(" in tree["trainer/task.py"]
    for rel, code in tree.items():
        (tmp_path / "migrated" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "migrated" / rel).write_text(code)
    assert expected(tmp_path, tree) == tree and rewrite_again(tmp_path, tree, Selection()) == tree
    (tmp_path / "migrated" / "trainer" / "task.py").write_text(TF1_SAMPLE)
    assert expected(tmp_path, tree) != tree
