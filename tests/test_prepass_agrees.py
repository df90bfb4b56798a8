"""The pre-pass's answers, checked against the long way round (LibCST's parse and traversal).

The pre-pass settles a file without LibCST in two ways: "nothing to do" (no rule can act), and "reported
from `ast`" (only report-only rules can act: `engine/apply.report_text`). Either answer must be what the
traversal gives: the same code (unchanged) and the same findings, at the same places. Checked on every
golden fixture and on snippets of the shapes the pre-pass judges by (rules/idle.py, shape_places.py): a
word shared by a report-only rule and a table, strategy words without a strategy `run`, an Estimator a
helper of another module builds, `.value` of a shape dimension in TF1, TF2 and undecided code.
"""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text
from tf2migrate.engine.apply import report_text
from tf2migrate.engine.process import Status, precheck
from tf2migrate.rules.wake_words import triggers
from tests.conftest import ROOT

FIXTURES = sorted(p for p in (ROOT / "fixtures").glob("*/*.before.py") if p.parent.name != "programs")

SNIPPETS = {
    "hook_compat_v1": "import tensorflow as tf\n\nclass H(tf.compat.v1.train.SessionRunHook):\n    pass\n",
    "hook_renamed": "import tensorflow as tf\n\nclass H(tf.train.SessionRunHook):\n    pass\n",
    "hook_private": "from tensorflow.python.training.session_run_hook import SessionRunHook\n\nH = SessionRunHook\n",
    "hook_with_estimator": "import tensorflow as tf\n\nclass H(tf.compat.v1.train.SessionRunHook):\n    pass\n\n"
                           "est = tf.estimator.Estimator(model_fn=f)\nest.train(input_fn, hooks=[H()])\n",
    "canned_call": "import tensorflow as tf\n\nest = tf.estimator.BoostedTreesClassifier(cols, 1)\n"
                   "est.train(input_fn)\n",
    "helper_trained": "import tensorflow as tf\nfrom trainer import model\n\nest = model.build_estimator(cfg)\n"
                      "tf.estimator.train_and_evaluate(est, tf.estimator.TrainSpec(f), tf.estimator.EvalSpec(g))\n",
    "strategy_no_run": "import tensorflow as tf\n\nn = tf.distribute.get_strategy().num_replicas_in_sync\n",
    "strategy_run": "import tensorflow as tf\n\nstrategy = tf.distribute.MirroredStrategy()\n\n\ndef step(x):\n"
                    "    return tf.reduce_mean(x)\n\n\nstrategy.run(step, args=(1,))\n",
    "value_tf2": "import tensorflow as tf\n\ntf.random.set_seed(1)\nn = x.shape[-1].value\nm = y.get_shape()[0].value\n",
    "value_unknown": "import tensorflow as tf\n\nn = x.shape.dims[0].value  # tf2migrate: skip\nk = f(x.shape[1].value)\n",
    "value_tf1": "import tensorflow.compat.v1 as tf\n\nn = x.shape[-1].value\n",
    "value_called": "import tensorflow as tf\n\nn = x.shape[0].value()\nm = y.shape[1].value\n",
    "value_nested": "import tensorflow as tf\n\nn = x.shape[y.shape[0].value].value\n",
    "value_tuple": "import tensorflow as tf\n\nn = x.shape[(0, 1)].value\n",
    "value_and_hook": "import tensorflow as tf\n\nclass H(tf.compat.v1.train.SessionRunHook):\n"
                      "    def begin(self):\n        self.n = self.x.shape[0].value\n",
}

CASES = [(p.parent.name + "/" + p.name, p.read_text(encoding="utf-8")) for p in FIXTURES] + sorted(SNIPPETS.items())


@pytest.mark.parametrize("name, source", CASES, ids=[name for name, _ in CASES])
def test_the_prepass_answers_as_the_traversal_does(name, source):
    src, done = precheck(name, source.encode(), triggers())
    if done is None and not src.fast_only:
        return  # the long way itself: nothing to compare
    expected = rewrite_text(source, name)
    assert expected.code == source, "the pre-pass settled a file that the rewrite changes"
    if done is not None:
        assert done.status is Status.UNCHANGED and expected.diagnostics == [], expected.diagnostics
    else:
        assert report_text(source, name, tree=src.tree) == expected.diagnostics


def test_the_prepass_settles_what_it_should():
    """The shapes above that need no LibCST are settled by the pre-pass (else this file tests nothing)."""
    settled = {name for name, source in SNIPPETS.items() if _settled(name, source)}
    assert {"hook_compat_v1", "hook_private", "strategy_no_run", "value_tf2", "value_unknown",
            "value_called"} <= settled
    assert not settled & {"hook_renamed", "hook_with_estimator", "canned_call", "helper_trained", "strategy_run",
                          "value_tf1", "value_nested", "value_tuple"}


def _settled(name: str, source: str) -> bool:
    src, done = precheck(name, source.encode(), triggers())
    return done is not None or src.fast_only
