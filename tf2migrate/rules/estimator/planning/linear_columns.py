"""A canned linear estimator's categorical columns -> indicator columns read by `DenseFeatures`.

TF1's linear model keeps one weight per category of a categorical column (vocabulary list or file, hash
buckets, identity, bucketized, crossed) and adds the weights of an example's ids (`sparse_combiner="sum"`, the
default); an id outside the vocabulary (-1) adds nothing. `indicator_column(column)` is the column's multi-hot
(count) vector, with zeros for an id outside the vocabulary, so `DenseFeatures` + `Dense(1, zeros)` computes
the same sum with the same weights (one kernel row per category), as TF's guide to migrating feature columns
does with `CategoryEncoding` after a lookup layer. The program's own list gets each categorical element wrapped
where it is written (`linear_regression_categorical.py`'s `feature_columns = [..., body_style_column, ...]`); a
list built at run time or returned by a helper is still reported.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.syntax import templates

CATEGORICAL = {f"tf.feature_column.{name}" for name in (
    "categorical_column_with_vocabulary_list", "categorical_column_with_vocabulary_file",
    "categorical_column_with_hash_bucket", "categorical_column_with_identity", "bucketized_column",
    "crossed_column")}
INDICATOR = "tf.feature_column.indicator_column"


def categorical(node, ctx, values) -> bool:
    """A categorical column call, or a name assigned one (`body_style_column = ...vocabulary_list(...)`)."""
    if isinstance(node, cst.Name):
        node = values.get(node.value)
    return isinstance(node, cst.Call) and ctx.resolve(node.func)[1] in CATEGORICAL


def wrapped(columns, positions, tf):
    """The list (or tuple) `columns` with its elements at `positions` written `indicator_column(element)`;
    `tf(canonical)` spells a TF2 name through the file's alias."""
    if not positions or not isinstance(columns, (cst.List, cst.Tuple)):
        return columns
    elements = [el.with_changes(value=templates.call(tf(INDICATOR), [el.value])) if i in positions else el
                for i, el in enumerate(columns.elements)]
    return columns.with_changes(elements=elements)
