"""Trainer packages: an Estimator built by a helper of another module (model.py) and trained in task.py.

The package pairs of `fixtures/programs/` (`original/` and `migrated/` trees) are the reviewed rewrite of the
whole package, also through the library call `rewrite_package` (tests/program_pairs.py checks them through the
runner, as `verify DIR` rewrites them); the command line converts both modules together when given the package, says TFM322 when
given one of them, keeps the neighbour's content in the cache key, and gives the same output through the pool.
"""
from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import pytest

from tf2migrate.engine.api import Selection, rewrite_package
from tf2migrate.engine.package import PackageView, module_name, scan
from tests.conftest import ROOT
from tests.test_cli import invoke

PACKAGE_PAIRS = sorted(p for p in (ROOT / "fixtures" / "programs").glob("*")
                       if (p / "original").is_dir() and not (p / "hand_written.txt").exists())
TRAINER = ROOT / "fixtures" / "programs" / "est_trainer_package"


def _selection(folder) -> Selection:
    options = folder / "rewrite.toml"
    return Selection(**tomllib.loads(options.read_text(encoding="utf-8"))) if options.exists() else Selection()


def _tree(folder: Path) -> dict:
    return {str(p): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.py"))}


def test_there_is_a_package_pair():
    assert TRAINER in PACKAGE_PAIRS


@pytest.mark.parametrize("folder", PACKAGE_PAIRS, ids=lambda p: p.name)
def test_package_pair_is_the_rewrite(folder):
    original, migrated = folder / "original", folder / "migrated"
    files = _tree(original)
    results = rewrite_package(files, _selection(folder))
    assert sorted(Path(p).relative_to(original) for p in files) == sorted(p.relative_to(migrated)
                                                                          for p in migrated.rglob("*.py"))
    for path, result in results.items():
        rel = Path(path).relative_to(original)
        assert result.code == (migrated / rel).read_text(encoding="utf-8"), rel
        compile(result.code, str(rel), "exec")
    assert "TFM301" in {d.code for r in results.values() for d in r.diagnostics}
    again = rewrite_package({path: r.code for path, r in results.items()}, _selection(folder))
    assert all(again[path].code == r.code for path, r in results.items()), "second rewrite is not a no-op"


@pytest.fixture
def trainer(tmp_path):
    shutil.copytree(TRAINER / "original" / "trainer", tmp_path / "trainer")
    return tmp_path / "trainer"


def test_the_package_on_the_command_line_converts_both_modules(trainer):
    result = invoke("rewrite", "--no-cache", str(trainer))
    assert result.exit_code == 0, result.output
    for name in ("task.py", "model.py", "__init__.py"):
        assert (trainer / name).read_text() == (TRAINER / "migrated" / "trainer" / name).read_text()
    assert invoke("check", "--no-cache", str(trainer)).exit_code == 0  # idempotent


@pytest.mark.parametrize("alone, line", [("task.py", "task.py:34:17: TFM322"), ("model.py", "model.py:16:12: TFM322")])
def test_one_module_alone_is_reported_and_left_as_it_was(trainer, alone, line):
    before = {p.name: p.read_text() for p in trainer.glob("*.py")}
    result = invoke("rewrite", "--no-cache", str(trainer / alone))
    assert line in result.output
    assert "pass the whole package" in result.output
    assert {p.name: p.read_text() for p in trainer.glob("*.py")} == before


def test_an_edit_of_the_helpers_module_reaches_the_cached_result_of_its_program(trainer):
    assert invoke("check", str(trainer)).exit_code == 1  # both cached as pending
    model = trainer / "model.py"
    model.write_text(model.read_text().replace("    output = tf.layers.dense(hidden, 1)\n",
                                               "    output = tf.layers.dense(hidden, 1)\n"
                                               "    tf.add_to_collection('outputs', output)\n"))
    result = invoke("check", str(trainer))
    assert "0 files would be rewritten" in result.output  # nothing converts now, not even the unchanged task.py
    assert "task.py:34:17: TFM302" in result.output and "does not convert" in result.output


def test_an_edit_of_a_helpers_module_in_another_top_level_package_reaches_the_cached_result(trainer):
    """`trainer/task.py` trains what `helpers/model.py` builds: the cache key holds the whole root, not only
    `trainer/` (before, the cached task.py stayed converted while model.py no longer converted with it)."""
    helpers = trainer.parent / "helpers"
    helpers.mkdir()
    (helpers / "__init__.py").write_text("")
    (trainer / "model.py").rename(helpers / "model.py")
    task = trainer / "task.py"
    task.write_text(task.read_text().replace("from trainer import model\n", "from helpers import model\n"))
    assert "2 files would be rewritten" in invoke("check", str(trainer.parent)).output
    model = helpers / "model.py"
    model.write_text(model.read_text().replace("    output = tf.layers.dense(hidden, 1)\n",
                                               "    output = tf.layers.dense(hidden, 1)\n"
                                               "    tf.add_to_collection('outputs', output)\n"))
    result = invoke("check", str(trainer.parent))
    assert "0 files would be rewritten" in result.output and "task.py:34:17: TFM302" in result.output, result.output


def test_the_process_pool_gives_the_same_package_rewrite(trainer):
    from tf2migrate.engine.runner import EARLY_POOL

    for k in range(EARLY_POOL):  # enough files for the workers to pre-check them too (runner._Early)
        (trainer.parent / f"loop{k}.py").write_text("import tensorflow as tf\nx = tf.contrib.distribute.MirroredStrategy()\n")
    serial = invoke("rewrite", "--diff", "--no-cache", "-j", "1", str(trainer.parent))
    pooled = invoke("rewrite", "--diff", "--no-cache", "-j", "2", str(trainer.parent))
    assert serial.output == pooled.output
    assert "+def build_model(params):" in pooled.output and "model.build_model(" in pooled.output


def test_the_pre_pass_links_a_program_to_the_helpers_module_and_back(tmp_path):
    pkg = tmp_path / "trainer"
    (pkg / "sub").mkdir(parents=True)
    files = {
        pkg / "__init__.py": "",
        pkg / "sub" / "__init__.py": "",
        pkg / "model.py": "import tensorflow as tf\n\ndef build(c):\n    return tf.estimator.Estimator(fn, config=c)\n",
        pkg / "task.py": "import tensorflow as tf\nfrom . import model\nest = model.build(tf.estimator.RunConfig())\n",
        pkg / "sub" / "deep.py": "import tensorflow as tf\nfrom ..model import build\n# an estimator\n",
        pkg / "other.py": "import tensorflow as tf\nx = tf.estimator.RunConfig()\n",
        tmp_path / "loose.py": "import trainer.model\n# estimator\n",
    }
    for path, text in files.items():
        path.write_text(text)
    views = scan({str(p): t for p, t in files.items()})
    assert module_name(str(pkg / "sub" / "deep.py")) == "trainer.sub.deep"
    assert module_name(str(tmp_path / "loose.py")) is None
    linked = {Path(path).relative_to(tmp_path).as_posix(): [n for n, _, _ in v.modules] for path, v in views.items()}
    assert linked == {
        "trainer/model.py": ["trainer.sub.deep", "trainer.task"],  # the modules that import its helper
        "trainer/task.py": ["trainer.model", "trainer.sub.deep"],  # and the helper's other users
        "trainer/sub/deep.py": ["trainer.model", "trainer.task"],
    }
    assert views[str(pkg / "task.py")].fingerprint() != PackageView("trainer.task", (
        ("trainer.model", str(pkg / "model.py"), files[pkg / "model.py"] + "\n"),)).fingerprint()


def test_a_keras_model_from_another_module_is_no_estimator():
    from tf2migrate.engine.api import rewrite_text

    source = ("import tensorflow as tf\n\nfrom trainer import models\n\nconfig = tf.estimator.RunConfig()\n"
              "model = models.create()\nmodel.evaluate(dataset)\nmodel.predict(dataset)\n")
    assert "TFM322" not in {d.code for d in rewrite_text(source, "task.py").diagnostics}
    trained = source + "model.train(input_fn, steps=1)\n"
    assert "TFM322" in {d.code for d in rewrite_text(trained, "task.py").diagnostics}


def test_a_helper_whose_model_fn_is_not_in_its_module_is_reported_not_a_crash(tmp_path):
    pkg = tmp_path / "trainer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text("import tensorflow as tf\nfrom trainer.fns import model_fn\n\n\n"
                                  "def build_estimator(config):\n    return tf.estimator.Estimator(model_fn, config=config)\n")
    (pkg / "task.py").write_text("import tensorflow as tf\nfrom trainer import model\n\n"
                                 "estimator = model.build_estimator(None)\nestimator.train(lambda: None, steps=1)\n")
    result = invoke("check", "--no-cache", str(pkg))
    assert "TFM999" not in result.output and "model.py:6:12: TFM302" in result.output, result.output
    assert result.exit_code == 1


PACKAGE_CASES = sorted(p for p in (ROOT / "fixtures" / "estimator-package").glob("*.before")
                       if p.with_name(p.name[: -len(".before")] + ".after").is_dir())


@pytest.mark.parametrize("case", PACKAGE_CASES, ids=lambda p: p.name[: -len(".before")])
def test_the_command_line_rewrites_a_package_case_as_the_library_does(case, tmp_path):
    """The runner's pre-pass sends every module of the package to the converter: a task.py that trains a
    neighbour's helper (`model.get_estimator(...)`) names no TF word, and left alone it stayed TF1 while its
    helper's module converted (predict_dict: a program that could not run)."""
    shutil.copytree(case, tmp_path / "pkg")
    result = invoke("rewrite", "--no-cache", str(tmp_path / "pkg"))
    after = case.with_name(case.name[: -len(".before")] + ".after")
    for path in sorted((tmp_path / "pkg").rglob("*.py")):
        rel = path.relative_to(tmp_path / "pkg")
        want = after / rel if (after / rel).exists() else case / rel
        assert path.read_text(encoding="utf-8") == want.read_text(encoding="utf-8"), (rel, result.output)


def test_two_copies_of_a_package_in_one_run_each_read_only_their_own_modules(tmp_path):
    """Dotted names are unique within a root only: `a/trainer/model.py` and `b/trainer/model.py` are both
    `trainer.model`, and the one scanned last stood for both (found by bench/fuzz_inputs.py)."""
    files = {}
    for copy in ("a", "b"):
        shutil.copytree(TRAINER / "original" / "trainer", tmp_path / copy / "trainer")
        files.update(_tree(tmp_path / copy))
    views = scan(files)
    assert {Path(p).relative_to(tmp_path).parts[0] for p in views} == {"a", "b"}
    for path, view in views.items():
        root = Path(path).relative_to(tmp_path).parts[0]
        assert view.modules and {Path(p).relative_to(tmp_path).parts[0] for _, p, _ in view.modules} == {root}


def test_every_package_case_side_by_side_in_one_run_is_its_rewrite_and_a_second_run_changes_nothing(tmp_path):
    """The package cases of fixtures/estimator-package share dotted names (`classifier.model`, `trainer.task`):
    in one run each is rewritten as it is alone (tests/test_fixtures.py), and a second run changes nothing."""
    cases = sorted(p for p in (ROOT / "fixtures" / "estimator-package").glob("*.before") if p.is_dir())
    assert len(cases) > len(PACKAGE_CASES)  # and those that stay as they are (their findings say why)
    for case in cases:
        shutil.copytree(case, tmp_path / case.name)
    first = invoke("rewrite", "--no-cache", str(tmp_path))
    for case in cases:
        after = case.with_name(case.name[: -len(".before")] + ".after")
        for path in sorted((tmp_path / case.name).rglob("*.py")):
            rel = path.relative_to(tmp_path / case.name)
            want = after / rel if (after / rel).exists() else case / rel
            assert path.read_text(encoding="utf-8") == want.read_text(encoding="utf-8"), (case.name, rel, first.output)
    again = invoke("rewrite", "--no-cache", str(tmp_path))
    assert again.exit_code in (0, 1) and " 0 files rewritten," in again.output, again.output
