"""TFM345: a program's input functions in a module beside it (survey 03: premade_estimator.py + iris_data.py).

Given together, the input module returns the dataset from the functions the converted program uses as its input
functions, and the program notes it; where the module could not follow, the program blocks with that cause.
Given alone, the program keeps TFM331's warning. The reviewed pair is fixtures/programs/est_input_module (its
rewrite: tests/test_package_rewrite.py; its training: tests/harness/test_fixture_programs.py).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tf2migrate.engine.api import rewrite_package
from tf2migrate.engine.package import scan
from tests.conftest import ROOT
from tests.test_cli import invoke

PAIR = ROOT / "fixtures" / "programs" / "est_input_module"
TRAIN = (PAIR / "original" / "train.py").read_text(encoding="utf-8")
INPUTS = (PAIR / "original" / "inputs.py").read_text(encoding="utf-8")


def _rewrite(tmp_path, files: dict) -> dict:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    results = rewrite_package({str(tmp_path / rel): text for rel, text in files.items()})
    return {Path(p).relative_to(tmp_path).as_posix(): r for p, r in results.items()}


def _codes(result) -> list:
    return [(d.line, d.code) for d in result.diagnostics if d.code in ("TFM301", "TFM302", "TFM331", "TFM345")]


def test_the_pre_pass_links_a_flat_program_and_its_input_module(tmp_path):
    files = {tmp_path / "train.py": TRAIN, tmp_path / "inputs.py": INPUTS,
             tmp_path / "other.py": "import inputs\n# no Estimator here\n"}
    views = scan({str(p): t for p, t in files.items()})
    linked = {Path(p).name: [n for n, _, _ in v.modules] for p, v in views.items()}
    assert linked == {"train.py": ["inputs"], "inputs.py": ["train"]}


def test_given_together_the_input_functions_return_their_datasets(tmp_path):
    out = _rewrite(tmp_path, {"train.py": TRAIN, "inputs.py": INPUTS})
    assert _codes(out["train.py"]) == [(16, "TFM301"), (17, "TFM345"), (18, "TFM345")]
    assert _codes(out["inputs.py"]) == [(18, "TFM345"), (25, "TFM345")]
    code = out["inputs.py"].code
    assert code.count("    return dataset\n") == 2 and code.count("get_next()") == 1  # csv_input_fn is not train.py's


def test_given_alone_the_program_keeps_its_warning(tmp_path):
    out = _rewrite(tmp_path, {"train.py": TRAIN})
    assert _codes(out["train.py"]) == [(16, "TFM301"), (17, "TFM331"), (18, "TFM331")]


@pytest.mark.parametrize("inputs, why", [
    (INPUTS + "\n\ndef both(batch_size):\n    return train_input_fn(batch_size)\n", "also used by"),  # its module
    (INPUTS.replace("    return dataset.make_one_shot_iterator().get_next()\n\n\ndef eval",
                    "    features, labels = dataset.make_one_shot_iterator().get_next()\n"
                    "    return {'a': features['a']}, labels\n\n\ndef eval"), "not in a form the conversion rewrites"),
    (INPUTS.replace("def train_input_fn", "def train_input_fn(batch_size):\n"
                    "    return _train(batch_size)\n\n\ndef _train"), "returns what `_train` gives"),  # a helper's
])
def test_where_the_input_module_cannot_follow_the_program_blocks_with_the_cause(tmp_path, inputs, why):
    out = _rewrite(tmp_path, {"train.py": TRAIN, "inputs.py": inputs})
    assert (17, "TFM302") in _codes(out["train.py"]) and "TFM301" not in {c for _, c in _codes(out["train.py"])}
    assert why in next(d.message for d in out["train.py"].diagnostics if d.code == "TFM302")
    assert "    return dataset\n" not in out["inputs.py"].code
    assert "TFM345" not in {d.code for d in out["inputs.py"].diagnostics}


def test_a_skip_comment_on_the_input_function_blocks_the_program(tmp_path):
    inputs = INPUTS.replace("def train_input_fn(batch_size):", "def train_input_fn(batch_size):  # tf2migrate: skip[TFM345]")
    out = _rewrite(tmp_path, {"train.py": TRAIN, "inputs.py": inputs})
    assert "skip comment" in next(d.message for d in out["train.py"].diagnostics if d.code == "TFM302")
    assert "TFM345" not in {d.code for d in out["inputs.py"].diagnostics}


def test_two_programs_of_one_input_function_block_both(tmp_path):
    out = _rewrite(tmp_path, {"train.py": TRAIN, "train2.py": TRAIN, "inputs.py": INPUTS})
    for name in ("train.py", "train2.py"):
        assert "train2.py" in next(d.message for d in out[name].diagnostics if d.code == "TFM302") \
            or "train.py" in next(d.message for d in out[name].diagnostics if d.code == "TFM302")
    assert "TFM345" not in {d.code for d in out["inputs.py"].diagnostics}


def test_a_use_outside_input_fn_blocks_the_program(tmp_path):
    train = TRAIN.replace("    eval_result =", "    print(inputs.train_input_fn(2))\n    eval_result =")
    out = _rewrite(tmp_path, {"train.py": train, "inputs.py": INPUTS})
    assert "outside an input_fn" in next(d.message for d in out["train.py"].diagnostics if d.code == "TFM302")
    assert "TFM345" not in {d.code for d in out["inputs.py"].diagnostics}


def test_a_package_module_of_input_functions_follows_too(tmp_path):
    train = TRAIN.replace("import inputs\n", "from trainer import inputs\n")
    out = _rewrite(tmp_path, {"trainer/__init__.py": "", "trainer/task.py": train, "trainer/inputs.py": INPUTS})
    assert (16, "TFM301") in _codes(out["trainer/task.py"]) and (17, "TFM345") in _codes(out["trainer/task.py"])
    assert out["trainer/inputs.py"].code.count("    return dataset\n") == 2


def test_the_command_line_rewrites_the_folder_as_the_pair_says(tmp_path):
    shutil.copytree(PAIR / "original", tmp_path / "pair")
    result = invoke("rewrite", "--no-cache", str(tmp_path / "pair"))
    assert result.exit_code == 0, result.output
    for name in ("train.py", "inputs.py"):
        assert (tmp_path / "pair" / name).read_text() == (PAIR / "migrated" / name).read_text(), name
    assert invoke("check", "--no-cache", str(tmp_path / "pair")).exit_code == 0  # a second run changes nothing
