"""What a converted Estimator program leaves beside it and TF2 spells exactly (TFM340, TFM341): rewritten only
where the rewrite gives the same values, else left with its TFM352 finding."""
from __future__ import annotations

import ast

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.imports import ImportMap
from tf2migrate.rules.unconverted.leftovers import mnist_loads

PROGRAM = """\
import numpy as np
import tensorflow as tf

{load}
{read}
columns = [tf.feature_column.numeric_column("x", shape=[784])]
estimator = tf.estimator.LinearClassifier(feature_columns=columns, n_classes=10)
train_input_fn = tf.estimator.inputs.numpy_input_fn(
    x={{"x": images}}, y=labels.astype(np.int32), batch_size=10, num_epochs=None, shuffle=True)
estimator.train(input_fn=train_input_fn, steps=10)
"""
ARRAYS = "images, labels = mnist.train.images, mnist.validation.labels"


def _loads(load: str, read: str) -> int:
    tree = ast.parse(PROGRAM.format(load=load, read=read))
    return len(mnist_loads(tree, ImportMap.from_ast(tree)))


@pytest.mark.parametrize("load,read,count", [
    ('mnist = tf.contrib.learn.datasets.load_dataset("mnist")', ARRAYS, 1),
    ('mnist = tf.contrib.learn.datasets.load_dataset("mnist")', "images, labels = mnist.train.next_batch(100)", 0),
    ('mnist = tf.contrib.learn.datasets.load_dataset("mnist")', ARRAYS + "\nprint(mnist)", 0),
    ('mnist = tf.contrib.learn.datasets.load_dataset("iris")', ARRAYS, 0),
    ('mnist = tf.contrib.learn.datasets.load_dataset("mnist", size="small")', ARRAYS, 0),
    ('mnist = tf.contrib.learn.datasets.DATASETS["mnist"]("/tmp/data")', ARRAYS, 1),  # load_mnist(train_dir)
    ('mnist = tf.contrib.learn.datasets.DATASETS["mnist"](train_dir="/tmp/data")', ARRAYS, 1),
    ('mnist = tf.contrib.learn.datasets.DATASETS["mnist"]()', ARRAYS, 1),
    ('mnist = tf.contrib.learn.datasets.DATASETS["iris"]()', ARRAYS, 0),
    ('mnist = tf.contrib.learn.datasets.DATASETS["mnist"]("/tmp/data", one_hot=True)', ARRAYS, 0),
])
def test_only_loads_read_as_arrays_are_rewritten(load, read, count):
    assert _loads(load, read) == count


def test_the_mnist_entry_of_contribs_table_becomes_load_mnist():
    source = PROGRAM.format(load='mnist = tf.contrib.learn.datasets.DATASETS["mnist"]("/tmp/data")', read=ARRAYS)
    result = rewrite_text(source, "x.py")
    assert "\nmnist = load_mnist()\n" in result.code and "DATASETS" not in result.code
    codes = {(d.line, d.code) for d in result.diagnostics}
    assert (4, "TFM341") in codes and (4, "TFM352") not in codes


def test_a_load_read_another_way_keeps_its_finding():
    source = PROGRAM.format(load='mnist = tf.contrib.learn.datasets.load_dataset("mnist")',
                            read="images, labels = mnist.train.next_batch(100)")
    result = rewrite_text(source, "x.py")
    codes = {(d.line, d.code) for d in result.diagnostics}
    assert (4, "TFM352") in codes and "TFM341" not in {c for _, c in codes}
    assert 'load_dataset("mnist")' in result.code and "def load_mnist" not in result.code


def test_mode_keys_stay_where_no_program_was_converted():
    source = ("import tensorflow as tf\n\n\ndef read(mode):\n    dataset = tf.data.Dataset.range(8)\n"
              "    if mode == tf.estimator.ModeKeys.TRAIN:\n        dataset = dataset.repeat()\n"
              "    return dataset.batch(2)\n")
    result = rewrite_text(source, "x.py")
    assert result.code == source and [d.code for d in result.diagnostics] == ["TFM352"]


def test_boosted_trees_in_memory_is_reported_as_the_estimator_it_builds():
    source = ('import tensorflow as tf\n\ncolumns = [tf.feature_column.numeric_column("x")]\n'
              'classifier = tf.contrib.estimator.boosted_trees_classifier_train_in_memory(\n'
              '    train_input_fn, columns, n_trees=10, max_depth=3)\n')
    found = [d for d in rewrite_text(source, "x.py").diagnostics if d.code.startswith("TFM35")]
    assert [(d.line, d.code) for d in found] == [(4, "TFM350")]
    assert "boosted trees have no TF2 Keras equivalent" in found[0].message
    assert "no Estimator is built in this file" not in found[0].message
