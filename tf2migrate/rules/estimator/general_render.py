"""Source of the general conversion (general.py): the Keras Model subclass and its builder.

The kept statements are taken from the model_fn as the other rules left it (found by their place in
the original), so the spellings those rules chose stay. `call` re-enters the current variable scope
around the forward pass: TF1 names layers created without a name (`dense`, `dense_1`...) by counting them
in their graph, and each model_fn call had a fresh graph; restoring the count on leaving the scope makes
every call (eager, or each trace of `train_step`) reuse the same variables instead of making new ones.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator import regularization, training_flag
from tf2migrate.rules.estimator.render import names_in

CLASS = '''class {name}({model}):
{i}"""`{fn}` as a Keras model: its forward pass in `call`, its own loss, metrics and predictions in the steps."""

{i}def __init__(self, {params}**kwargs):
{i}{i}super().__init__(**kwargs)
{init}
{i}@property
{i}def metrics(self):
{i}{i}return [{metrics}]

{i}@{track}
{i}def call(self, {call_args}):
{call}
{i}def train_step(self, data):
{i}{i}features, labels = data
{i}{i}with {tf}.GradientTape() as tape:
{train}{scale}{i}{i}gradients = tape.gradient({target}, self.trainable_variables)
{i}{i}self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
{i}{i}self.loss_tracker.update_state({loss})
{i}{i}return {{"loss": self.loss_tracker.result()}}
'''
TEST_STEP = '''
{i}def test_step(self, data):
{i}{i}features, labels = data
{body}{i}{i}self.loss_tracker.update_state({loss})
{updates}{i}{i}return {{metric.name: metric.result() for metric in self.metrics}}
'''
PREDICT_STEP = '''
{i}def predict_step(self, data):
{i}{i}features, _, _ = {tf}.keras.utils.unpack_x_y_sample_weight(data)
{body}{i}{i}return {output}
'''


def model_class(gp, w) -> str:
    i, tf = w.indent, w.tf("tf")
    gp.name = w.fresh(gp.name)
    fn = w.updated_model_fn
    places = _places(gp.node.body.body)
    updated = lambda stmts: [_follow(fn.body.body, places[id(s)]) for s in stmts]  # noqa: E731
    init = ["self.params = params"] if gp.uses_params else []
    init.append(f'self.loss_tracker = {w.tf("tf.keras.metrics.Mean")}(name="loss")')
    if gp.metrics:
        made = [f"{w.text(m.key)}: {w.tf('tf.keras.metrics.' + m.keras)}(name={w.text(m.key)})" for m in gp.metrics]
        one = "self.eval_metrics = {" + ", ".join(made) + "}"
        init.append(one if len(one) + 2 * len(i) <= 100 else
                    "self.eval_metrics = {\n" + "".join(f"{i}{m},\n" for m in made) + "}")
    outputs = ", ".join(gp.outputs)
    forward = [s.visit(training_flag.Training(w.ctx)) for s in updated(gp.forward)] if gp.training \
        else updated(gp.forward)
    scope = f"{w.tf('tf.compat.v1.variable_scope')}({w.tf('tf.compat.v1.get_variable_scope')}())"
    call = _block(["params = self.params"] if _reads_params(gp.forward) else [], i, 2)
    call += f"{i}{i}# TF1 layer names restart at every call, as in the model_fn's own graph\n"
    call += f"{i}{i}with {scope}:\n" + _block(forward, i, 3) + f"{i}{i}return {outputs}\n"
    training = lambda flag: f", training={flag}" if gp.training else ""  # noqa: E731
    head = f"{outputs} = self(features{training('True')})"
    loss, tail = _loss(gp.train_loss, w)
    train = _block(_step(head, updated(gp.train), gp.train, w) + tail, i, 3)
    text = CLASS.format(
        name=gp.name, model=w.tf("tf.keras.Model"), i=i, fn=gp.node.name.value, tf=tf,
        params="params, " if gp.uses_params else "", init=_block(init, i, 2),
        metrics="self.loss_tracker, *self.eval_metrics.values()" if gp.metrics else "self.loss_tracker",
        track=w.tf("tf.compat.v1.keras.utils.track_tf1_style_variables"),
        call_args="features, training=None" if gp.training else "features", call=call, train=train, loss=loss,
        **_replica_scale(loss, w))
    head = f"{outputs} = self(features{training('False')})"
    if gp.evaluate is not None:
        loss, tail = _loss(gp.eval_loss, w)
        updates = [f"self.eval_metrics[{w.text(m.key)}].update_state({_args(m, w)})" for m in gp.metrics]
        body = _block(_step(head, updated(gp.evaluate), gp.evaluate, w) + tail, i, 2)
        text += TEST_STEP.format(i=i, body=body, loss=loss, updates=_block(updates, i, 2))
    if gp.predict is not None:
        body = _block(_step(head, updated(gp.predict), gp.predict, w), i, 2)
        text += PREDICT_STEP.format(i=i, tf=tf, body=body, output=w.text(gp.predict_output))
    return text


def _replica_scale(loss: str, w) -> dict:
    """Under a strategy with replicas TF1's optimizer divided the loss by their number before its gradients
    were summed (a MEAN loss reduction, conversion.GENERAL_STRATEGIES): the step takes the same gradients."""
    if not w.kind.replicated:
        return {"scale": "", "target": loss}
    i = w.indent
    value = loss if loss.isidentifier() else f"({loss})"
    scale = (f"{i * 3}# as TF1's optimizer did under a strategy: the replicas' gradients are summed\n"
             f"{i * 3}scaled_loss = {value} / self.distribute_strategy.num_replicas_in_sync\n")
    return {"scale": scale, "target": "scaled_loss"}


def build_function(gp, w) -> str:
    """`build_model(params)`: the model, and the optimizer with TF1's numbers, compiled without a loss."""
    i, opt = w.indent, gp.optimizer
    optimizer = opt.render(w.tf, w.text, w.text(opt.learning_rate), w.compat_name)
    made = f"{gp.name}(params)" if gp.uses_params else f"{gp.name}()"
    lines = [f"{w.model_var} = {made}", f"optimizer = {optimizer}", f"{w.model_var}.compile(optimizer=optimizer)",
             f"return {w.model_var}"]
    return f"def {w.build_name}({'params' if gp.uses_params else ''}):\n" + _block(lines, i, 1)


def _step(head, stmts, originals, w) -> list:
    """A step's statements: the forward pass's outputs, then the kept ones, over the model's own variables."""
    on_model = regularization._OnModel(w.ctx, "self")
    params = ["params = self.params"] if _reads_params(originals) else []
    return [head] + params + [s.visit(on_model) for s in stmts]


def _loss(expr, w):
    """(the name of the step's loss, the statement that computes it when the spec gives an expression)."""
    if isinstance(expr, cst.Name):
        return expr.value, []
    return "loss", [f"loss = {w.text(expr)}"]


def _args(metric, w) -> str:
    return ", ".join(f"{a[0]}={w.text(a[1])}" if isinstance(a, tuple) else w.text(a) for a in metric.args)


def _reads_params(stmts) -> bool:
    return any("params" in names_in(s) for s in stmts)


def _block(items, indent, level) -> str:
    """Statements (source lines or nodes) at `level` indents, one per line, blank lines before the first dropped."""
    out = []
    for k, item in enumerate(items):
        if not isinstance(item, str):
            item = cst.Module(body=[item.with_changes(leading_lines=[]) if k == 0 else item],
                              default_indent=indent).code
        out += item.rstrip("\n").split("\n")
    return "".join(f"{indent * level}{line}\n" if line.strip() else "\n" for line in out)


def _places(stmts, prefix=()) -> dict:
    """id(statement) -> its path in the model_fn: indices into bodies, through if/elif/else branches."""
    out = {}
    for k, stmt in enumerate(stmts):
        out[id(stmt)] = prefix + (k,)
        if isinstance(stmt, cst.If):
            out.update(_places(stmt.body.body, prefix + (k, "body")))
            if isinstance(stmt.orelse, cst.If):
                out.update(_places([stmt.orelse], prefix + (k, "elif")))
            elif stmt.orelse is not None:
                out.update(_places(stmt.orelse.body.body, prefix + (k, "else")))
    return out


def _follow(stmts, path):
    stmt = stmts[path[0]]
    if len(path) == 1:
        return stmt
    branch = {"body": lambda: stmt.body.body, "elif": lambda: [stmt.orelse], "else": lambda: stmt.orelse.body.body}
    return _follow(branch[path[1]](), path[2:])
