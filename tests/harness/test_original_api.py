"""`--original-api auto` reads the original the way the rewrite does (engine/tf_version.py), and says so when
that reading is ambiguous (R1b: a canned Estimator with no TF1-only name was verified against TF2's numbers)."""
import pytest

from harness_programs import write

CANNED = '''
import numpy as np
import tensorflow as tf


def input_fn():
    x = np.random.RandomState(0).uniform(size=(32, 3)).astype(np.float32)
    y = (x.sum(axis=1) > 1.5).astype(np.int64)
    return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).repeat().batch(8)


cols = [tf.feature_column.numeric_column("x", shape=[3])]
tf.estimator.LinearClassifier(feature_columns=cols).train(input_fn=input_fn, steps=3)
'''


@pytest.mark.parametrize("source, api, says", [
    ("import tensorflow.compat.v1 as tf1\nx = tf1.layers.dense\n", "v1", "imports `tensorflow.compat.v1` only"),
    ("import tensorflow as tf\nsess = tf.Session\n", "v1", "uses `tf.Session` (line 2)"),
    ("import tensorflow as tf\ntf.random.set_seed(0)\n", "v2", "uses `tf.random.set_seed` (line 2)"),
    ("import tensorflow as tf\nx = tf.constant(1)\n", "v2", "neither TF1-only names nor a TF2 marker"),
])
def test_auto_follows_the_rewrites_reading(source, api, says):
    from tf2migrate.harness.capture import legacy

    chosen, note, ambiguous = legacy.choose_api([source])
    assert chosen == api and says in note
    assert note.startswith(legacy.AMBIGUOUS) == ambiguous == ("neither" in says)


def test_a_compat_v1_program_runs_as_tf1(verify, seed_pair):
    # `import tensorflow.compat.v1 as tf1` alone: TF1 code for the rewrite, so TF 1.x behaviour for the baseline
    result = verify(*seed_pair)
    assert result.original.api == "v1" and not result.original.api_ambiguous
    assert result.comparison.compared[0].startswith("original API: TF 1.x (auto: the program reads as TF1 code")
    assert result.verdict == "EQUIVALENT", result.reason


def test_an_ambiguous_original_says_which_api_it_ran_under(verify, tmp_path):
    program = write(tmp_path, "canned.py", CANNED)
    result = verify(program, program)
    assert result.original.api == "v2" and result.original.api_ambiguous
    assert "the original's TF version is ambiguous: it ran with TF2 behaviour; `--original-api v1` runs it as " \
           "TF 1.x did" in result.reason
    assert result.comparison.compared[0].startswith("original API ambiguous, ran with TF2 behaviour")
    assert result.comparison.compared[0] == result.original.api_reading   # the fact, typed, not a prefix read back
