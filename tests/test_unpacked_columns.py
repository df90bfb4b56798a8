"""Feature columns unpacked from a helper's tuple (planning/unpacked_columns.py): what converts is the golden case
`fixtures/estimator-idioms/columns_unpacked` and the pair `est_columns_unpacked`; these are the helpers whose lists
cannot be read, each left unchanged with a finding that says why."""
from __future__ import annotations

from tf2migrate.engine.api import rewrite_text
from tests.conftest import ROOT

SOURCE = (ROOT / "fixtures" / "estimator-idioms" / "columns_unpacked.before.py").read_text(encoding="utf-8")


def _blocked(source: str) -> list:
    result = rewrite_text(source, "cols.py")
    assert result.code == source
    return [m for m in (d.message for d in result.diagnostics if d.code == "TFM302")]


def test_the_golden_case_converts():
    result = rewrite_text(SOURCE, "cols.py")
    assert "TFM302" not in {d.code for d in result.diagnostics}
    assert "wide_columns, deep_columns = build_columns()" in result.code and "LinearClassifier" not in result.code


def test_a_dnn_given_the_list_of_categorical_columns_is_refused():
    source = SOURCE.replace("tf1.estimator.LinearClassifier(feature_columns=wide_columns)",
                            "tf1.estimator.DNNClassifier(hidden_units=[4], feature_columns=wide_columns)")
    assert any(m.startswith("only numeric_column, indicator_column and embedding_column") for m in _blocked(source))


def test_a_linear_model_given_an_indicator_column_is_refused():
    source = SOURCE.replace("feature_columns=wide_columns)", "feature_columns=deep_columns)")
    assert any(m.startswith("only numeric_column and categorical feature columns convert")
               for m in _blocked(source))


def test_a_list_appended_to_in_the_helper_is_not_read():
    source = SOURCE.replace("    return wide, deep\n", "    base.append(price)\n    return wide, deep\n")
    assert any("`base` is changed after it is built" in m for m in _blocked(source))


def test_a_column_the_helper_does_not_assign_is_not_read():
    source = SOURCE.replace("def build_columns():", "def build_columns(extra=None):").replace(
        "base = [price, style,", "base = [extra, price, style,")
    assert any("`extra` is not a feature column that `build_columns` assigns once" in m for m in _blocked(source))


def test_a_column_assigned_twice_in_the_helper_is_not_read():
    source = SOURCE.replace("    base = [", "    make = tf1.feature_column.numeric_column(\"make\")\n    base = [")
    assert any("`make` is not a feature column that `build_columns` assigns once" in m for m in _blocked(source))


def test_a_list_changed_after_it_is_unpacked_is_not_read():
    source = SOURCE.replace("classifier = tf1", "wide_columns += []\nclassifier = tf1")
    assert any("`wide_columns` is assigned or changed again after it is unpacked" in m for m in _blocked(source))


def test_a_helper_that_does_not_end_with_a_return_of_names_is_not_read():
    source = SOURCE.replace("    return wide, deep\n", "    return wide, deep + []\n")
    assert any("which does not end with `return a, b` of as many names" in m for m in _blocked(source))
