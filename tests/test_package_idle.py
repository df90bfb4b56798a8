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
from tf2migrate.rules.idle import estimator_may_act
from tf2migrate.rules.estimator.package import idle_neighbours
from tests.conftest import ROOT
from tests.test_estimator_idle_splice import SHAPES as ESTIMATOR_IDLE
from tests.test_reduce import SOURCES

PACKAGES = sorted(p for p in (ROOT / "fixtures").glob("*/*.before") if p.is_dir()) + sorted(
    p / "original" for p in (ROOT / "fixtures" / "programs").glob("*") if (p / "original").is_dir())
IDLE = ROOT / "fixtures" / "estimator-package"


def _tree(folder: Path) -> dict:
    return {str(p): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.py"))}


def _may_act(text: str, view) -> bool:
    tree = ast.parse(text)
    return idle_neighbours.may_act(tree, ImportMap.from_ast(tree), text, view)


def _read_whole(tree, imports, text, package) -> bool:
    """When the converter read the whole module before any idle proof: every file with neighbours, and alone
    every file `rules/idle.estimator_may_act` wakes it in."""
    return package is not None or tree is None or estimator_may_act(tree, imports)


def _rewritten(files: dict) -> dict:
    return {path: (r.code, [str(d) for d in r.diagnostics]) for path, r in rewrite_package(files).items()}


def test_idle_neighbours_rewrite_as_the_converters_whole_read_of_them(monkeypatch):
    now, idle = {}, 0
    for folder in PACKAGES:
        files = _tree(folder)
        now[folder] = _rewritten(files)
        idle += sum(not _may_act(files[path], view) for path, view in scan(files).items())
    assert idle >= 2  # not vacuous: the two idle_neighbour cases' report.py
    monkeypatch.setattr(idle_neighbours, "may_act", _read_whole)
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
    ("def input_fn():\n    pass\n", '"""input_fn: see report.py."""\n', False),  # named, not imported
    ("def input_fn():\n    pass\n", "from .report import input_fn\ninput_fn()\n", True),  # relative import
    ("def input_fn():\n    pass\n", "from trainer.report import *\ninput_fn()\n", True),
    ("import tensorflow as tf\ndef f(m):\n    return tf.estimator.EstimatorSpec(m)\n", MODEL, False),  # builds none
])
def test_may_act(text, neighbour, acts):
    view = PackageView("trainer.report", (("trainer.model", "trainer/model.py", neighbour),))
    assert _may_act(text, view) is acts
    assert _may_act(text, None) is False  # alone, none of these wakes the converter (rules/idle.py)


@pytest.mark.parametrize("text", ["import tensorflow as tf\ne = tf.estimator.Estimator(f)\ne.train(g)\n",
                                  "import tensorflow as tf\nfrom trainer import model\ne = model.b()\ne.train(g)\n"])
def test_a_file_that_builds_or_trains_an_estimator_wakes_it(text):
    assert _may_act(text, None) is True
    assert _may_act(text, PackageView("trainer.report", (("trainer.model", "trainer/model.py", MODEL),))) is True


def test_an_idle_single_file_rewrites_as_the_converters_whole_read_of_it(monkeypatch):
    """Alone, a file that builds and trains no Estimator (a model_fn module, an `EstimatorSpec`) is idle on both
    paths: its rewrite is the one of the converter's whole read, on every fixture and program file where the
    converter read it before this proof."""
    idle = []
    cases = [(str(path), path.read_text(encoding="utf-8")) for path in SOURCES]
    for path, text in cases + [(f"{name}.py", text) for name, text in sorted(ESTIMATOR_IDLE.items())]:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        imports = ImportMap.from_ast(tree)
        if estimator_may_act(tree, imports) and not idle_neighbours.may_act(tree, imports, text, None):
            idle.append((path, text))
    assert len(idle) >= 5  # not vacuous: 2 fixtures, and the model_fn, serving and TPU spec shapes
    now = [rewrite_text(text, path, splice=False) for path, text in idle]
    monkeypatch.setattr(idle_neighbours, "may_act", _read_whole)
    for (path, text), mine in zip(idle, now):
        whole = rewrite_text(text, path, splice=False)
        assert mine.code == whole.code, path
        assert [str(d) for d in mine.diagnostics] == [str(d) for d in whole.diagnostics], path


def test_the_idle_proof_asks_the_converter_of_every_estimator_it_builds():
    """`_acts_alone` imports the converter only for a call whose last name may be an Estimator's: every class
    `analyze.is_estimator` accepts must pass that filter, and a spec or a config must not."""
    from tf2migrate.rules.estimator.planning import canned, keras_estimator, tpu

    built = {"tf.estimator.Estimator", *canned.CANNED, *tpu.ESTIMATORS, *keras_estimator.MODEL_TO_ESTIMATOR}
    assert all(idle_neighbours._BUILDERS.search(name.rsplit(".", 1)[-1]) for name in built)
    assert not any(idle_neighbours._BUILDERS.search(name) for name in ("EstimatorSpec", "RunConfig", "TPUConfig"))
    for name in sorted(built):
        text = f"import tensorflow as tf\nx = {name}(f)\n"
        tree = ast.parse(text)
        assert idle_neighbours._acts_alone(tree, ImportMap.from_ast(tree), "_"), name


@pytest.mark.parametrize("text, acts", [
    ("from trainer import model\ne = model.b()\ne.train(g)\n", True),  # an Estimator another module returns
    ("from trainer import model\ne = model.b()\ne.export_saved_model(d, s)\n", True),
    ("import tensorflow as tf\nfrom trainer import model\ne = model.b()\ntf.estimator.train_and_evaluate(e, t, v)\n",
     True),
    # tensorflow_estimator's test utilities train what a function given to them builds: nothing to report
    ("def check(fn, g):\n    est = fn(['x'])\n    est.train(input_fn=g, steps=1)\n", False),
    ("from tensorflow_estimator.python.estimator.canned import linear\ne = linear.make()\ne.train(g)\n", False),
    ("from trainer import model\nm = model.b()\nm.layers[0].train(g)\n", False),  # not trained on a plain name
])
def test_a_trained_estimator_wakes_it_only_where_report_foreign_reads_one(text, acts):
    """`.train(...)` wakes the converter only on an Estimator another module returns, as `report_foreign` reads
    it (both ask `trained_imported`): a wider test sent tensorflow_estimator's `linear_testing_utils_v1.py` to
    LibCST for nothing (0.07 -> 0.40 s)."""
    view = PackageView("trainer.report", (("trainer.other", "trainer/other.py", "x = 1\n"),))
    assert _may_act(text, view) is acts
    tree = ast.parse(text)
    assert bool(idle_neighbours.trained_imported(tree, ImportMap.from_ast(tree), "trainer.report")[0]) is acts
