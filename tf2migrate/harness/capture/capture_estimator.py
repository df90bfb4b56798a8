"""Per-step loss capture for Estimators (`train`, `train_and_evaluate`, canned estimators).

`_call_model_fn` remembers the TRAIN-mode loss tensor and `train` gets one extra SessionRunHook that
fetches it with every step; `after_create_session` (variables initialised, before step 1) is where the
step-0 values are dumped. Hand-written `Session.run` loops are in `capture_session.py`.
"""
import os
import time
import weakref

from tf2migrate.harness.capture import capture_session, capture_state, estimator_servers


def install_estimator(recorder, model_dir, override=None):
    """`override`: an Aligner with user-given step-0 values (`verify(init=...)`), applied by the chief."""
    try:
        from tensorflow_estimator.python.estimator import estimator as est_lib
    except ImportError:
        return
    import tensorflow as tf

    Estimator = est_lib.Estimator
    losses_by_graph = weakref.WeakKeyDictionary()
    own_by_graph = weakref.WeakKeyDictionary()  # [(name, tensor)]: initializers that the override replaced

    original_call_model_fn = Estimator._call_model_fn

    def _call_model_fn(self, features, labels, mode, config):
        own = own_by_graph.setdefault(tf.compat.v1.get_default_graph(), []) if mode == "train" else []
        with tf.compat.v1.variable_creator_scope(_initial_value_creator(override, recorder, own)):
            spec = original_call_model_fn(self, features, labels, mode, config)
        if mode == "train" and getattr(spec, "loss", None) is not None:
            losses_by_graph[tf.compat.v1.get_default_graph()] = spec.loss
        return spec

    original_train_with_spec = Estimator._train_with_estimator_spec

    def _train_with_estimator_spec(self, estimator_spec, *args, **kwargs):
        # Under train_distribute this spec carries the loss reduced over replicas (model_fn saw one replica)
        if estimator_spec.loss is not None:
            losses_by_graph[tf.compat.v1.get_default_graph()] = estimator_spec.loss
        return original_train_with_spec(self, estimator_spec, *args, **kwargs)

    class LossHook(tf.compat.v1.train.SessionRunHook):
        def begin(self):
            graph = tf.compat.v1.get_default_graph()
            self._loss = losses_by_graph.get(graph)
            self._variables = list(tf.compat.v1.trainable_variables())
            for v in self._variables:
                recorder.add_variable(v.name, v.shape.as_list())
            self._step = tf.compat.v1.train.get_global_step()
            self._state = capture_state.state_variables(graph)
            self._own = own_by_graph.get(graph, [])

        def after_create_session(self, session, coord):
            _wait_for_chief(recorder.spec)
            if recorder.spec.get("init_out") and self._variables:
                values = session.run(self._variables)
                recorder.dump_initial_values(zip([v.name for v in self._variables], values))
                replaced = {name for name, _ in self._own}
                for v, value in zip(self._variables, values):
                    if v.name.split(":")[0] not in replaced:
                        recorder.add_own_initial(v.name, value)
                if self._own:
                    for (name, _), value in zip(self._own, session.run([t for _, t in self._own])):
                        recorder.add_own_initial(name, value)
                capture_state.read_initial(recorder, session, self._state)

        def end(self, session):
            if recorder.spec.get("init_out"):  # the chief: its session sees the whole state
                capture_state.read_final(recorder, session, self._state)

        def before_run(self, run_context):
            if recorder.cap_reached():
                run_context.request_stop()
            return tf.compat.v1.train.SessionRunArgs((self._loss, self._step)) if self._loss is not None else None

        def after_run(self, run_context, run_values):
            if self._loss is None:
                return
            loss, step = run_values.results
            recorder.add_loss(loss, "estimator")
            # --steps counts the global step: in a TF1 cluster every trainer task adds to it
            if recorder.cap_reached() or (recorder.max_steps and step is not None and step >= recorder.max_steps):
                run_context.request_stop()

    original_train = Estimator.train

    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        estimator_servers.check(recorder.spec)
        hooks = list(hooks or []) + [LossHook()]
        capture_session.state.in_estimator = True  # its own Session.run calls are not counted twice
        try:
            return original_train(self, input_fn, hooks=hooks, steps=steps, max_steps=max_steps,
                                  saving_listeners=saving_listeners)
        finally:
            capture_session.state.in_estimator = False

    original_init = Estimator.__init__

    def __init__(self, *args, **kwargs):
        # A fresh model_dir per run: a fixed user path would otherwise resume from an old checkpoint.
        kwargs["model_dir"] = model_dir
        config = kwargs.get("config")
        if config is not None and config.model_dir not in (None, model_dir):
            kwargs["config"] = config.replace(model_dir=model_dir)
        if len(args) >= 2:
            args = args[:1] + args[2:]
        original_init(self, *args, **kwargs)

    Estimator._call_model_fn = _call_model_fn
    Estimator._train_with_estimator_spec = _train_with_estimator_spec
    Estimator.train = train
    estimator_servers.mark_train_and_evaluate()
    Estimator.__init__ = __init__
    _speed_up_distributed_estimator()


def _wait_for_chief(spec):
    """A TF1 worker may train as soon as the chief has initialised the variables; it waits until the
    chief has also read their step-0 values, or the dump would contain a worker's first update."""
    path = spec.get("wait_init")
    if not path:
        return
    deadline = time.time() + spec.get("wait_timeout", 600)
    while not os.path.exists(path) and time.time() < deadline:
        time.sleep(0.02)


def _initial_value_creator(override, recorder, own):
    """Give matching trainable variables the user's step-0 value as their *initializer*, so every task of a
    TF1 cluster starts from it (assigning after initialisation would race with the workers). The program's
    own initial value is still built (appended to `own` as (name, tensor)) so that it can be compared."""

    import tensorflow as tf

    def creator(next_creator, **kwargs):
        name = kwargs.get("name")
        if override is None or not kwargs.get("trainable", True) or name is None:
            return next_creator(**kwargs)
        shape = kwargs.get("shape")
        initial = kwargs.get("initial_value")
        if shape is None and initial is not None and not callable(initial):
            shape = initial.shape
        if shape is None:
            return next_creator(**kwargs)
        value = override.take(str(name), tuple(shape.as_list() if hasattr(shape, "as_list") else shape))
        if value is not None:
            try:
                with tf.compat.v1.name_scope("tf2migrate_own_initial"):
                    own.append((str(name), tf.convert_to_tensor(initial() if callable(initial) else initial)))
            except Exception:  # noqa: BLE001 - an initial value that cannot be rebuilt: not compared
                pass
            kwargs["initial_value"] = value
            recorder.aligned.append(str(name))
        return next_creator(**kwargs)

    return creator


def _speed_up_distributed_estimator():
    """train_and_evaluate delays worker k by (k+1)*5 s and workers poll the chief every 30 s."""
    from tensorflow.python.training import session_manager
    from tensorflow_estimator.python.estimator import training

    training._DELAY_SECS_PER_WORKER = 0
    original = session_manager.SessionManager.__init__

    def __init__(self, *args, **kwargs):
        kwargs["recovery_wait_secs"] = 0.2
        original(self, *args, **kwargs)

    session_manager.SessionManager.__init__ = __init__
