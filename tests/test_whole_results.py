"""evaluate's results read whole (planning/whole_results.py, TFM353): the golden case is
`fixtures/estimator-idioms/canned_results_read_whole`, `explain TFM353` the regressor's; these are the reads that
are not whole, and the programs that lose no key worth a warning."""
from __future__ import annotations

from tf2migrate.engine.api import rewrite_text
from tests.conftest import ROOT

SOURCE = (ROOT / "fixtures" / "estimator-idioms" / "canned_results_read_whole.before.py").read_text(encoding="utf-8")
LOOP = 'for key in sorted(results):\n    print("%s: %s" % (key, results[key]))\n'


def _codes(source: str) -> list:
    result = rewrite_text(source, "whole.py")
    assert "TFM302" not in {d.code for d in result.diagnostics}
    return [d.code for d in result.diagnostics]


def test_results_read_by_a_literal_key_are_not_read_whole():
    source = SOURCE.replace(LOOP, 'print(results["accuracy"], results.get("auc"))\n')
    assert "TFM353" not in _codes(source)


def test_results_given_to_a_format_string_are_read_by_its_fields():
    source = SOURCE.replace(LOOP, 'print("{accuracy:0.3f}".format(**results))\n')
    assert "TFM353" not in _codes(source)


def test_evaluate_printed_directly_is_read_whole():
    source = SOURCE.replace("results = classifier.evaluate(input_fn=input_fn)\n" + LOOP,
                            "print(classifier.evaluate(input_fn=input_fn))\n")
    result = rewrite_text(source, "whole.py")
    [note] = [d for d in result.diagnostics if d.code == "TFM353"]
    assert note.line == 14 and "not the canned head's accuracy_baseline, auc," in note.message
    assert 'BinaryAccuracy(threshold=0.0, name="accuracy")' in result.code


def test_a_name_assigned_something_else_too_is_not_taken_for_the_results():
    source = SOURCE.replace(LOOP, LOOP + "results = {}\nprint(results)\n")
    assert "TFM353" not in _codes(source)


def test_a_multi_class_head_loses_only_global_step_and_is_not_noted():
    source = SOURCE.replace("hidden_units=[4],", "hidden_units=[4], n_classes=3,")
    result = rewrite_text(source, "whole.py")
    assert "TFM353" not in {d.code for d in result.diagnostics}
    assert 'SparseCategoricalAccuracy(name="accuracy")' in result.code  # compiled: the loop prints it


def test_a_model_fn_program_printing_its_results_is_not_noted():
    source = (ROOT / "fixtures" / "estimator-loops" / "while_train_eval.before.py").read_text(encoding="utf-8")
    assert "print(estimator.evaluate(" in source
    assert "TFM353" not in _codes(source)
