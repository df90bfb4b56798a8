"""Everyday Estimator idioms (survey G3): what converts, and blockers whose messages are true.

The converted forms are golden files in `fixtures/estimator-idioms/`; these are the cases that still block.
"""
from __future__ import annotations

from tf2migrate.engine.api import rewrite_text
from tests.conftest import ROOT

IDIOMS = ROOT / "fixtures" / "estimator-idioms"


def _blockers(result) -> list:
    return [(d.line, d.message) for d in result.diagnostics if d.code == "TFM302"]


def test_train_with_max_steps_in_both_branches_of_an_if_still_blocks():
    source = (IDIOMS / "max_steps_under_if.before.py").read_text(encoding="utf-8").replace(
        "  if do_eval:\n    estimator.evaluate(input_fn=input_fn)\n",
        "  else:\n    estimator.train(input_fn=input_fn, max_steps=20)\n")
    result = rewrite_text(source, "two.py")
    assert result.code == source
    assert any("trains more than once" in m for _, m in _blockers(result))


def test_train_with_max_steps_in_a_while_loop_under_an_if_blocks():
    source = (IDIOMS / "max_steps_under_if.before.py").read_text(encoding="utf-8").replace(
        "    estimator.train(", "    while True:\n      estimator.train(")
    result = rewrite_text(source, "loop.py")
    assert result.code == source
    assert any("trains more than once" in m for _, m in _blockers(result))


def test_model_fn_alias_used_elsewhere_blocks():
    source = (IDIOMS / "model_fn_alias.before.py").read_text(encoding="utf-8") + "print(model_function)\n"
    result = rewrite_text(source, "alias.py")
    assert result.code == source
    assert [line for line, m in _blockers(result) if "`model_function` is used" in m] == [15]


def test_model_fn_alias_assigned_twice_is_not_followed():
    source = (IDIOMS / "model_fn_alias.before.py").read_text(encoding="utf-8").replace(
        "model_function = model_fn\n", "model_function = model_fn\nmodel_function = model_fn\n")
    assert rewrite_text(source, "alias.py").code == source


def test_columns_helper_with_more_than_a_return_blocks_with_a_true_message():
    source = (IDIOMS / "columns_helper.before.py").read_text(encoding="utf-8").replace(
        "    return [tf1", "    print('columns')\n    return [tf1")
    result = rewrite_text(source, "cols.py")
    assert result.code == source
    assert any("a name assigned a call of a function of this file that only returns one" in m
               for _, m in _blockers(result))


def test_unread_forward_pass_does_not_claim_there_is_no_minimize():
    """r1 mnist's model_fn: a Keras model from a helper, then the mode branches, `train_op=optimizer.minimize(...)`."""
    source = (IDIOMS / "keras_model_in_branches.before.py").read_text(encoding="utf-8")
    messages = [m for _, m in _blockers(rewrite_text(source, "mnist.py"))]
    assert "train_op=optimizer.minimize(" in source
    assert not any(m.startswith("no `optimizer.minimize(loss)` found") for m in messages)
    assert any("training step (`optimizer.minimize(loss)`, inline or not) was not read" in m for m in messages)
