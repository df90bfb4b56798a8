"""Every program pair outside the Estimator family (`est_*`, see test_estimator_rewrite.py) whose
`migrated.py` is the codemod's reviewed output: the rewrite of `original.py` equals it, compiles, and
a second rewrite changes nothing. A pair written by hand says so, and why, in `hand_written.txt`."""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text
from tests.conftest import ROOT
from tests.test_estimator_rewrite import _selection

FOLDERS = sorted(p for p in (ROOT / "fixtures" / "programs").iterdir()
                 if (p / "original.py").exists() and not p.name.startswith("est_"))


def _case(folder):
    why = folder / "hand_written.txt"
    marks = [pytest.mark.skip(reason=why.read_text().strip())] if why.exists() else []
    return pytest.param(folder, id=folder.name, marks=marks)


def test_the_custom_loop_pairs_are_rewrites():
    rewritten = [f.name for f in FOLDERS if not (f / "hand_written.txt").exists()]
    assert {"seed002_custom_loop", "seed002_custom_loop_ps", "seed004_seq2seq", "loss_scaling_only"} <= set(rewritten)


@pytest.mark.parametrize("folder", [_case(f) for f in FOLDERS])
def test_migrated_is_the_rewrite(folder):
    source = (folder / "original.py").read_text(encoding="utf-8")
    result = rewrite_text(source, str(folder / "original.py"), _selection(folder))   # rewrite.toml: e.g. the target
    assert result.code == (folder / "migrated.py").read_text(encoding="utf-8")
    compile(result.code, "migrated.py", "exec")
    assert rewrite_text(result.code, "migrated.py", _selection(folder)).code == result.code
