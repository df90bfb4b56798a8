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
