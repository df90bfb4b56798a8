"""Source of the general conversion (model_subclass.py): the Keras Model subclass and its builder.

The kept statements are taken from the model_fn as the other rules left it (found by their place in
the original), so the spellings those rules chose stay. `call` re-enters the current variable scope
around the forward pass: TF1 names layers created without a name (`dense`, `dense_1`...) by counting them
in their graph, and each model_fn call had a fresh graph; restoring the count on leaving the scope makes
every call (eager, or each trace of `train_step`) reuse the same variables instead of making new ones. The
steps' bodies are written by subclass_steps.py.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.default_path import tpu_steps, keras_once, made_once, mode_twins, tf1_style
from tf2migrate.rules.estimator.reading import statement_paths
from tf2migrate.rules.estimator.shim_path import training_flag
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.writing import keras_source
from tf2migrate.rules.estimator.writing.subclass_steps import (_apply, _head, _loss, _predict_step, _read_params,
                                                             _replica_scale, _scaled, _step, _test_step, _unpack)

CLASS = '''class {name}({model}):
{i}{docstring}

{i}def __init__({init_params}):
{i}{i}# TF1 gave the model_fn its features in their own dtype: Keras casts none to float32
{i}{i}super().__init__(autocast=False, **kwargs)
{i}{i}{init}

{i}@property
{i}def metrics(self):
{i}{i}return {metrics}

{i}@{track}
{i}def call({call_params}):
{i}{i}{read_params}
{i}{i}# TF1 layer names restart at every call, as in the model_fn's own graph
{i}{i}with {scope}:
{i}{i}{i}{forward}
{i}{i}return {outputs}

{i}def train_step(self, data):
{i}{i}{unpack}
{i}{i}with {tf}.GradientTape() as tape:
{i}{i}{i}{train}
{i}{i}{apply}
{i}{i}self.loss_tracker.update_state({loss})
{i}{i}return {"loss": self.loss_tracker.result()}

{i}{test_step}

{i}{predict_step}
'''
DOCSTRING = ('"""`{fn}` as a Keras model: its forward pass in `call`, its own loss, metrics and predictions in '
             'the steps."""')

def model_class(gp, w) -> cst.ClassDef:
    """The model_fn as a `tf.keras.Model` subclass: its statements, as the other rules left them, in the steps."""
    tf = w.tf("tf")
    gp.name = w.fresh(gp.name)
    fn = w.updated_model_fn
    places = statement_paths.places(gp.node.body.body)
    updated = lambda stmts: [statement_paths.follow(fn.body.body, places[id(s)]) for s in stmts]  # noqa: E731
    forward = [s.visit(training_flag.Training(w.ctx)) for s in updated(gp.forward)] if gp.training \
        else updated(gp.forward)
    forward = [_read_once(s, gp.made_once[id(o)][0], w) if id(o) in gp.made_once else s
               for s, o in zip(forward, gp.forward)]
    twinned = {id(t) for t in gp.twins.values()}  # `training=True` here, False in the other modes: mode_twins.py
    forward = [mode_twins.in_call(s) if id(o) in twinned else s for s, o in zip(forward, gp.forward)]
    if gp.keras_keys:  # `Dense(8)(x)`: made at the first call only (keras_once.py, TFM327)
        once = keras_once.Once(w.ctx, w.prog.defs, gp.keras_keys)
        forward = [s.visit(once) for s in forward]
    loss, tail = _loss(gp.train_loss, w)
    target = gp.minimized.value if gp.minimized is not None else loss  # what the train op minimized
    scope = templates.current_scope(w)
    made = templates.statement(
        CLASS, w, name=gp.name, model=w.tf("tf.keras.Model"), docstring=DOCSTRING.format(fn=gp.node.name.value),
        init_params=templates.parameters("self", *(["params"] if gp.uses_params else [])).with_changes(
            star_kwarg=cst.Param(cst.Name("kwargs"))), init=_init(gp, w) + _made_once(gp, w, updated),
        metrics="[self.loss_tracker, *self.eval_metrics.values()]" if gp.metrics else "[self.loss_tracker]",
        track=w.tf("tf.compat.v1.keras.utils.track_tf1_style_variables"), scope=scope,
        call_params=templates.parameters("self", "features", **({"training": "None"} if gp.training else {})),
        read_params=_read_params([s for s in gp.forward if id(s) not in gp.made_once], w), forward=_first(forward), outputs=", ".join(gp.outputs), tf=tf,
        train=_step(_head(gp, "True", w), updated(gp.train), gp.train, w, "TRAIN") + tail + _replica_scale(target, w),
        loss=loss, apply=_apply(gp, "scaled_loss" if _scaled(w) else target, w, updated),
        test_step=_test_step(gp, w, updated), predict_step=_predict_step(gp, w, updated), unpack=_unpack(gp, w))
    made = keras_once.with_method(made, w) if gp.keras_keys else made
    return _commented_call(made, tf1_style.comment(gp.tf1_forward, 92 if w.build_call else 96))  # a closure: deeper


def _commented_call(cls: cst.ClassDef, comment: str) -> cst.ClassDef:
    """The TFM336 comment above `call`'s decorator: what still runs TF1-style under the shim."""
    body = [stmt.with_changes(leading_lines=[*stmt.leading_lines, cst.EmptyLine(comment=cst.Comment(comment))])
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "call" else stmt for stmt in cls.body.body]
    return cls.with_changes(body=cls.body.with_changes(body=body))


def _init(gp, w) -> list:
    out = [templates.statement("self.params = params", w)] if gp.uses_params else []
    out += tpu_steps.per_replica_batch(gp, w)  # TPUEstimator's params["batch_size"] in a model_fn: one core's
    out.append(templates.statement('self.loss_tracker = {mean}(name="loss")', w, mean=w.tf("tf.keras.metrics.Mean")))
    if gp.keras_keys:
        out.append(templates.statement("self.keras_made = {}", w))
    if gp.metrics:
        made = cst.Dict([cst.DictElement(templates.node(w.text(m.key)), templates.call(
            w.tf("tf.keras.metrics." + m.keras), [*map(w.arg, m.keywords), templates.arg(w.text(m.key), "name")]))
            for m in gp.metrics])
        out.append(templates.fitted("self.eval_metrics = {call}", w, 2, call=made))
    return out


def _made_once(gp, w, updated) -> list:
    """`self.model = Model(params["data_format"])`: each Keras object the forward pass made, made once (made_once.py)."""
    out = []
    for stmt in gp.forward:
        if id(stmt) in gp.made_once:
            name = gp.made_once[id(stmt)][0]
            value = updated([stmt])[0].body[0].value
            out.append(templates.statement("self.{attr} = {value}", w, attr=made_once.attribute(name), value=value))
    return out


def _read_once(stmt, name: str, w) -> cst.BaseStatement:
    """The forward pass's `model = Model(...)` as `model = self.model`, its comments kept."""
    made = templates.statement("{name} = self.{attr}", w, name=name, attr=made_once.attribute(name))
    return made.with_changes(leading_lines=stmt.leading_lines)


def build_function(gp, w) -> cst.FunctionDef:
    """`build_model(params)`: the model, and the optimizer with TF1's numbers, compiled without a loss."""
    opt, params = gp.optimizer, ["params"] if gp.uses_params else []
    optimizer = opt.render(w.tf, w.text, w.text(opt.learning_rate), w.compat_name)
    model = w.model_var
    steps = {"steps_per_execution": "1"} if w.steps_per_execution else {}  # TPUEstimator's iterations_per_loop
    compiled = "{model}.compile(optimizer=optimizer, steps_per_execution=steps_per_execution)" if steps \
        else "{model}.compile(optimizer=optimizer)"
    return templates.statement(
        keras_source.BUILD, w, name=w.build_name, params=templates.parameters(*params, **steps), model=model, penalty=[],
        schedule=[], made=templates.statement("{model} = {made}", w, model=model, made=templates.call(gp.name, params)),
        optimizer=optimizer, compile=templates.fitted(compiled, w, 1, model=model))


def _first(stmts) -> list:
    """Statements at the top of a block: the first without the blank lines above it (its comments stay)."""
    if not stmts:
        return []
    lines = list(stmts[0].leading_lines)
    while lines and lines[0].comment is None:
        lines.pop(0)
    return [stmts[0].with_changes(leading_lines=lines), *stmts[1:]]
