"""Per-step loss capture for hand-written TF1 `sess.run(train_op)` loops.

`Optimizer.minimize` remembers which loss belongs to which train op, and `Session.run` adds that loss to
its fetches whenever a remembered train op is fetched; the first such call also records (and, with
`init_values`, sets) the trainable variables. `--steps` ends the loop with `StepCapReached`.
"""
import weakref

from tf2migrate.harness.capture import capture_state
from tf2migrate.harness.capture.recorder import StepCapReached


def install_session(recorder, override=None):
    """`sess.run(train_op)` loops: record the loss that `minimize` was given for that op."""
    import tensorflow as tf
    from tensorflow.python.client import session as session_lib
    from tensorflow.python.training import optimizer as optimizer_lib

    loss_of_op = {}
    original_minimize = optimizer_lib.Optimizer.minimize

    def minimize(self, loss, *args, **kwargs):
        op = original_minimize(self, loss, *args, **kwargs)
        if not tf.executing_eagerly():
            loss_of_op[op] = loss
        return op

    optimizer_lib.Optimizer.minimize = minimize
    original_run = session_lib.BaseSession.run

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if state.inside or state.in_estimator or not loss_of_op:
            return original_run(self, fetches, feed_dict, options, run_metadata)
        ops = [f for f in _leaves(fetches) if isinstance(f, tf.Operation) and f in loss_of_op]
        if not ops:
            return original_run(self, fetches, feed_dict, options, run_metadata)
        if recorder.cap_reached():
            raise StepCapReached()
        state.inside = True
        try:
            if not recorder.losses:
                tvars = tf.compat.v1.trainable_variables()
                for v, value in zip(tvars, original_run(self, tvars)):  # the program's own step-0 values
                    recorder.add_own_initial(v.name, value)
                capture_state.read_initial(recorder, self, capture_state.state_variables(self.graph))
                state.trained[self] = True
                for v in tvars:
                    recorder.add_variable(v.name, v.shape.as_list())
                    value = override.take(v.name.split(":")[0], tuple(v.shape.as_list())) if override else None
                    if value is not None:
                        v.load(value, self)
                        recorder.aligned.append(v.name.split(":")[0])
                if recorder.spec.get("init_out"):
                    recorder.dump_initial_values(zip([v.name for v in tvars], original_run(self, tvars)))
            result, loss = original_run(self, (fetches, loss_of_op[ops[0]]), feed_dict, options, run_metadata)
        finally:
            state.inside = False
        recorder.add_loss(loss, "session")
        return result

    session_lib.BaseSession.run = run
    original_close = session_lib.BaseSession.close

    def close(self):
        """`with tf.Session() as sess:` ends here: the moment to read the state training left."""
        if state.trained.pop(self, False):
            variables = capture_state.state_variables(self.graph)
            capture_state.read_final(recorder, self, variables,
                                     run=lambda fetches: original_run(self, fetches, None, None, None))
        return original_close(self)

    session_lib.BaseSession.close = close


class _State:
    """Guards against re-entry: the extra fetch above goes through `run` too."""

    inside = False
    in_estimator = False
    trained = weakref.WeakKeyDictionary()  # sessions that ran a training step


state = _State()


def _leaves(fetches):
    """Fetches may be nested lists/tuples/dicts whose keys are not sortable (hooks use objects)."""
    if isinstance(fetches, (list, tuple)):
        for f in fetches:
            yield from _leaves(f)
    elif isinstance(fetches, dict):
        for f in fetches.values():
            yield from _leaves(f)
    else:
        yield fetches
