"""A package neighbour where the Estimator converter has nothing to do takes the splice path, and rewrites as the
converter's whole read of it did (rules/estimator/package/idle_neighbours.py).

Every package case of the fixtures and pairs is rewritten both ways: as now, and with the converter reading every
file that has neighbours (before idle_neighbours.py): code and diagnostics must be the same, and enough files
must be idle for the comparison to mean something. bench/splice_agrees.py does the same on tensor2tensor 1.14.0
(18 of its 20 files with neighbours are idle).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tf2migrate.engine.api import rewrite_package, rewrite_text
from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.package import PackageView, scan
from tf2migrate.rules import table_only
from tf2migrate.rules.estimator.package import idle_neighbours
from tests.conftest import ROOT

PACKAGES = sorted(p for p in (ROOT / "fixtures").glob("*/*.before") if p.is_dir()) + sorted(
    p / "original" for p in (ROOT / "fixtures" / "programs").glob("*") if (p / "original").is_dir())
IDLE = ROOT / "fixtures" / "estimator-package"


def _tree(folder: Path) -> dict:
    return {str(p): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.py"))}


def _may_act(text: str, view) -> bool:
    tree = ast.parse(text)
    return idle_neighbours.may_act(tree, ImportMap.from_ast(tree), text, view)


def _rewritten(files: dict) -> dict:
    return {path: (r.code, [str(d) for d in r.diagnostics]) for path, r in rewrite_package(files).items()}


def test_idle_neighbours_rewrite_as_the_converters_whole_read_of_them(monkeypatch):
    now, idle = {}, 0
    for folder in PACKAGES:
        files = _tree(folder)
        now[folder] = _rewritten(files)
        idle += sum(not _may_act(files[path], view) for path, view in scan(files).items())
    assert idle >= 2  # not vacuous: the two idle_neighbour cases' report.py
    read_whole = idle_neighbours.may_act
    monkeypatch.setattr(idle_neighbours, "may_act", lambda tree, imports, text, package:
                        package is not None or read_whole(tree, imports, text, package))
    for folder in PACKAGES:
        assert _rewritten(_tree(folder)) == now[folder], folder.name


@pytest.mark.parametrize("case", ["idle_neighbour", "idle_neighbour_blocked"])
def test_an_idle_neighbour_takes_the_splice_path(case):
    files = _tree(IDLE / f"{case}.before")
    path = str(IDLE / f"{case}.before" / "trainer" / "report.py")
    view = scan(files)[path]
    before = table_only.SPLICED["changed"]
    result = rewrite_text(files[path], path, package=view)
    assert table_only.SPLICED["changed"] == before + 1
    assert result.code == (IDLE / f"{case}.after" / "trainer" / "report.py").read_text(encoding="utf-8")


MODEL = """import tensorflow as tf


def model_fn(features, labels, mode):
    return tf.estimator.EstimatorSpec(mode, loss=tf.reduce_sum(features))


def build_estimator(config):
    return tf.estimator.Estimator(model_fn=model_fn, config=config)


def input_fn():
    return tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
"""


@pytest.mark.parametrize("text, neighbour, acts", [
    ("from trainer import model\nx = model.input_fn\n", MODEL, False),  # names no helper of model.py
    ("from trainer import model\nest = model.build_estimator(None)\n", MODEL, True),  # calls its helper
    ("from trainer.model import build_estimator as b\nest = b(None)\n", MODEL, True),
    ("def input_fn():\n    pass\n", "from trainer import report\nreport.input_fn()\n", True),  # read there
    ("def input_fn():\n    pass\n", "from trainer import other\nother.input_fn()\n", False),  # another module's
    ("import tensorflow as tf\nest = tf.keras.estimator.model_to_estimator(m)\n", MODEL, True),
    ("x = 1\n", "def broken(:\n", True),  # a neighbour `ast` cannot read
])
def test_may_act(text, neighbour, acts):
    view = PackageView("trainer.report", (("trainer.model", "trainer/model.py", neighbour),))
    assert _may_act(text, view) is acts
    assert _may_act(text, None) is False  # alone, none of these wakes the converter (rules/idle.py)
