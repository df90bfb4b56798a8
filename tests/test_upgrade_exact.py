"""The code upgrades (TFM65x, TFM61x) on tf_upgrade_v2's own test snippets (issue 20, point 5): a call whose
arguments do not bind TF1's signature gets one line, never an internal error, and the upgrades write what the
official tool's tests expect where that is right on TF2."""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import Selection, rewrite_text


def _rewrite(line: str, source: str = "tf1"):
    return rewrite_text(f"import tensorflow as tf\n{line}\n", "m.py", Selection(source=source))


@pytest.mark.parametrize("line, code", [
    ("r = tf.contrib.layers.l1_regularizer(x, y, z, w, v)", "TFM656"),
    ("r = tf.contrib.layers.l2_regularizer(1.0, scale=2.0)", "TFM656"),
    ("r = tf.image.resize_area(labels=y, logits=z, dim=1)", "TFM653"),
    ("r = tf.image.resize_bilinear(i)", "TFM653"),
    ("r = tf.image.resize_nearest_neighbor(i, s, False, 'n', True, 1)", "TFM653"),
    ("r = tf.nn.dropout(x, y, z, w, v, u)", "TFM651"),
])
def test_a_call_that_binds_no_tf1_signature_gets_one_line_and_stays(line, code):
    """Each crashed with TFM999 (an internal error, the whole file left): `l1_regularizer` with five positional
    arguments, `resize_area` with keywords it never had, `dropout` with six positional arguments."""
    result = _rewrite(line)
    assert result.code == f"import tensorflow as tf\n{line}\n"
    assert [(d.code, d.fixed) for d in result.diagnostics] == [(code, False)]
    assert "cannot be bound" in result.diagnostics[0].message


def test_a_resize_given_by_keyword_keeps_its_keywords():
    result = _rewrite('r = tf.image.resize_area(images=i, size=s, name="x")')
    assert result.code == ('import tensorflow as tf\n'
                           'r = tf.image.resize(images=i, size=s, name="x", method=tf.image.ResizeMethod.AREA)\n')


@pytest.mark.parametrize("line, want", [
    ("tf.contrib.summary.scalar('foo', v)",
     "tf.compat.v2.summary.scalar(name='foo', data=v, step=tf.compat.v1.train.get_or_create_global_step())"),
    ("tf.contrib.summary.audio('foo', v, 44100)", "tf.compat.v2.summary.audio(name='foo', data=v, sample_rate=44100, "
     "step=tf.compat.v1.train.get_or_create_global_step())"),
    ("tf.contrib.summary.histogram('foo', v, step=7)", "tf.compat.v2.summary.histogram(name='foo', data=v, step=7)"),
    ("tf.contrib.summary.image('foo', v, None, 3, None, s)",
     "tf.compat.v2.summary.image(name='foo', data=v, max_outputs=3, step=s)"),
])
def test_a_contrib_summary_without_a_step_writes_at_the_global_step(line, want):
    """contrib's summary ops wrote at the global step when given none; TF2's raise "No step set" (TFM605 said
    only "check it"): the step is added as tf_upgrade_v2 adds it (its `_add_summary_step_transformer`)."""
    result = _rewrite(line)
    assert result.code == f"import tensorflow as tf\n{want}\n"
    assert "TFM605" in {d.code for d in result.diagnostics}


V1 = "tf.compat.v1.keras.initializers.VarianceScaling"


@pytest.mark.parametrize("line, want", [
    ("i = tf.contrib.layers.xavier_initializer(uniform=(a or b), seed=3)",
     f'i = {V1}(scale=1.0, mode="fan_avg", distribution=("uniform" if a or b else "truncated_normal"), seed=3)'),
    ("i = tf.contrib.layers.xavier_initializer_conv2d(False, 12, tf.float32)",
     f'i = {V1}(scale=1.0, mode="fan_avg", distribution=("uniform" if False else "truncated_normal"), seed=12, '
     'dtype=tf.float32)'),
    ("i = tf.contrib.layers.xavier_initializer(dtype=d, seed=s)",
     f'i = {V1}(scale=1.0, mode="fan_avg", distribution="uniform", dtype=d, seed=s)'),
    ("i = tf.contrib.layers.xavier_initializer(x if y else z)",
     f'i = {V1}(scale=1.0, mode="fan_avg", distribution=("uniform" if (x if y else z) else "truncated_normal"))'),
    ("i = tf.contrib.layers.variance_scaling_initializer(factor=1.0)", f"i = {V1}(scale=1.0)"),
    ("i = tf.contrib.layers.variance_scaling_initializer(mode=m)", f"i = {V1}(scale=2.0, mode=m.lower())"),
    ("i = tf.contrib.layers.variance_scaling_initializer(uniform=u, mode='FAN_AVG')",
     f'i = {V1}(scale=2.0, distribution=("uniform" if u else "truncated_normal"), mode="fan_avg")'),
    ("i = tf.contrib.layers.variance_scaling_initializer(2.0, m, True, 7)",
     f'i = {V1}(2.0, m.lower(), ("uniform" if True else "truncated_normal"), 7)'),
])
def test_contrib_initializers_are_written_as_tf_upgrade_v2_writes_them(line, want):
    """The same VarianceScaling numbers as before, spelled as tf_upgrade_v2's tests expect: the distribution
    chosen in the code (`True or False` needs no parentheses as a test), the arguments where the call had them,
    and no defaults that are also Keras's (`mode="fan_in"`, `distribution="truncated_normal"`)."""
    result = _rewrite(line)
    assert result.code == f"import tensorflow as tf\n{want}\n"
    assert [(d.code, d.fixed) for d in result.diagnostics] == [("TFM655", True)]
    assert _rewrite(want).code == result.code  # a second run changes nothing


@pytest.mark.parametrize("line, want", [
    ("with tf.name_scope(None, default_name, [some, values]):\n    pass",
     "with tf.name_scope(name=default_name):\n    pass"),
    ("with tf.name_scope(default_name=d, values=stuff):\n    pass", "with tf.name_scope(name=d):\n    pass"),
    ("with tf.name_scope('outer', 'd', [x]):\n    pass", "with tf.name_scope('outer'):\n    pass"),
    ("r = tf.contrib.layers.l2_regularizer(scale, scope)", "r = tf.keras.regularizers.l2(0.5 * (scale))"),
    ("r = tf.contrib.layers.l2_regularizer(scale=(a + b))", "r = tf.keras.regularizers.l2(0.5 * (a + b))"),
])
def test_name_scope_and_l2_are_spelled_as_tf_upgrade_v2_spells_them(line, want):
    """The default name becomes `name=` (a name given stays where it was); the halved l2 factor is
    `0.5 * (scale)`: the same calls as before, written as tf_upgrade_v2's tests expect them."""
    result = _rewrite(line)
    assert result.code == f"import tensorflow as tf\n{want}\n"
    assert _rewrite(want).code == result.code


@pytest.mark.parametrize("source", ["tf1", "auto"])
@pytest.mark.parametrize("kind", ["x", "'RaggedTensor'"])
def test_strings_split_with_a_result_type_stays_on_tf1s_function(source, kind):
    """`result_type` is TF1's alone (TF2's `tf.strings.split` raises TypeError on it), so the call is TF1's in any
    file: kept on `tf.compat.v1.strings.split`, the same result (it was left failing, with a finding)."""
    result = _rewrite(f"s = tf.strings.split(x, sep, result_type={kind})", source)
    assert result.code == f"import tensorflow as tf\ns = tf.compat.v1.strings.split(x, sep, result_type={kind})\n"
    assert [(d.code, d.fixed) for d in result.diagnostics] == [("TFM659", True)]
    assert _rewrite(result.code.split("\n")[1], source).code == result.code


@pytest.mark.parametrize("line, want, fixed", [
    ("with tf.contrib.summary.always_record_summaries():\n    pass", "with tf.compat.v2.summary.record_if(True):\n    pass",
     True),
    ("with tf.contrib.summary.never_record_summaries():\n    pass", "with tf.compat.v2.summary.record_if(False):\n    pass",
     True),
    ("with tf.contrib.summary.never_record_summaries(c):\n    pass", None, False),
])
def test_contrib_summary_recording_becomes_record_if(line, want, fixed):
    """TFM615: contrib's recording context managers are TF2's `record_if(True/False)` (they were TFM607,
    report only)."""
    result = _rewrite(line, "auto")
    assert result.code == f"import tensorflow as tf\n{want or line}\n"
    assert [(d.code, d.fixed) for d in result.diagnostics] == [("TFM615", fixed)]


@pytest.mark.parametrize("line, code", [
    ("r = tf.contrib.layers.l2_regularizer(0.1)", "TFM656"),
    ("i = tf.contrib.layers.xavier_initializer()", "TFM655"),
    ("with tf.contrib.summary.always_record_summaries():\n    pass", "TFM615"),
])
def test_contrib_through_a_compat_v1_import_is_converted(line, code):
    """`import tensorflow.compat.v1 as tf` then `tf.contrib.layers.l2_regularizer(...)`: the rule's wake words
    lacked that spelling, so the file was skipped, unchanged and without a finding (TF2 has no
    `tf.compat.v1.contrib`: AttributeError)."""
    text = f"import tensorflow.compat.v1 as tf\n{line}\n"
    result = rewrite_text(text, "m.py", Selection())
    assert result.code != text and [(d.code, d.fixed) for d in result.diagnostics] == [(code, True)]


def test_strings_split_given_result_type_sparse_is_tf1s_in_an_undecided_file():
    """`result_type=` proves the call TF1's (TF2's has no such argument): upgraded in any file (was TFM650)."""
    result = _rewrite("s = tf.strings.split(x, sep, result_type='SparseTensor')", "auto")
    assert result.code == "import tensorflow as tf\ns = tf.strings.split(x, sep).to_sparse()\n"
    assert [(d.code, d.fixed) for d in result.diagnostics] == [("TFM659", True)]


@pytest.mark.parametrize("line, want", [
    ('y = tf.nn.dropout(x, keep_prob=.4, name="foo")', 'y = tf.nn.dropout(x, rate=1 - (.4), name="foo")'),
    ("y = tf.nn.dropout(x, keep)", "y = tf.nn.dropout(x, rate=1 - (keep))"),
    ("it = (a + b).make_one_shot_iterator()", "it = tf.compat.v1.data.make_one_shot_iterator((a + b))"),
])
def test_dropout_rate_and_iterator_receivers_keep_tf_upgrade_v2s_parentheses(line, want):
    """`rate=1 - (keep_prob)` and a receiver's own parentheses, as tf_upgrade_v2's tests expect; `rate` stays a
    keyword, so that a second run cannot read it as TF1's positional keep_prob again."""
    result = _rewrite(line)
    assert result.code == f"import tensorflow as tf\n{want}\n"
    assert _rewrite(want).code == result.code
