"""A model_fn of another module passed to the program's own Estimator: converted with the whole package,
and where it cannot be, the finding names where the model_fn comes from (not 'not defined in this file')."""
from __future__ import annotations

from pathlib import Path

from tf2migrate.engine.api import rewrite_package, rewrite_text
from tests.conftest import ROOT

CASES = ROOT / "fixtures" / "estimator-package"


def _messages(results) -> list:
    return [(Path(path).name, d.code, d.message) for path, r in results.items() for d in r.diagnostics
            if d.code == "TFM302"]


def _package(case: str) -> dict:
    return {str(p): p.read_text(encoding="utf-8") for p in sorted((CASES / f"{case}.before").rglob("*.py"))}


def test_the_program_calls_the_builder_its_module_now_has():
    files = _package("model_fn_imported_by_name")
    results = rewrite_package(files)
    task = next(r.code for path, r in results.items() if path.endswith("task.py"))
    model = next(r.code for path, r in results.items() if path.endswith("model.py"))
    assert "from trainer.model import build_model\n" in task and "model_fn" not in task
    assert "def build_model(params):" in model and "def model_fn" not in model
    assert _messages(results) == []


def test_given_alone_the_finding_says_to_pass_the_package():
    source = (CASES / "model_fn_imported_alone.before.py").read_text(encoding="utf-8")
    [(_, _, message)] = _messages({"task.py": rewrite_text(source, "task.py")})
    assert message.startswith("the model_fn comes from another module (`trainer.model`): pass the whole package")


def test_a_star_import_is_named():
    source = (CASES / "model_fn_star_import.before.py").read_text(encoding="utf-8")
    [(_, _, message)] = _messages({"train.py": rewrite_text(source, "train.py")})
    assert "comes from a star import (`from model_fn import *`)" in message


def test_a_builder_of_another_module_is_named():
    messages = _messages(rewrite_package(_package("model_fn_builder_elsewhere")))
    assert ("task.py", "TFM302", "the model_fn is the closure `model.generate_model_fn(...)` returns, a model_fn "
            "builder of another module: a builder converts only in the program's module (move it there) or by "
            "hand") in messages


def test_a_model_fn_its_module_also_uses_blocks_both():
    results = rewrite_package(_package("model_fn_used_twice"))
    codes = {Path(path).name: r.code for path, r in results.items()}
    assert "def model_fn(" in codes["model.py"] and "tf.estimator.Estimator(model_fn=model_fn" in codes["task.py"]
    assert ("task.py", "TFM302", "`model_fn` is also used in model.py: it goes with the conversion; convert by hand") \
        in _messages(results)
