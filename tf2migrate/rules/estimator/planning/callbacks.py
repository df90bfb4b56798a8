"""The `callbacks=[...]` of `fit`: what TF1 did around training, as Keras callbacks.

hooks.py reads the session hooks; this writes what they become, apart from runs.py (the `fit`, `evaluate` and
`predict` calls) because it is a list of its own, with its own layout. `LoggingTensorHook` becomes a `LambdaCallback`
printing the logs, early stopping `EarlyStopping` on the evaluation's metric, `CheckpointSaverHook` and the
RunConfig's `model_dir` a `ModelCheckpoint` (weights only), `SummarySaverHook` `TensorBoard`. Each callback is an
item of the list, one argument per line when it does not fit there.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.planning import hooks
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, literal

LOG = "lambda batch, logs: print(batch, logs) if batch % {every} == 0 else None"


def argument(w, prog, plan: hooks.HookPlan, notes: list, patience=None) -> Optional[cst.Arg]:
    """`callbacks=[...]` (None without callbacks), one per line when it does not fit on the line of a wrapped
    `fit`; `patience`: in evaluations, for the EarlyStopping of a plan that has one."""
    made = _callbacks(w, prog, plan, notes, patience)
    if not made:
        return None
    listed = cst.List(made)
    one = templates.arg(listed, "callbacks")
    if templates.fits(templates.code(one, w), w.indent, 2):  # (92 columns at an indent of 4)
        return one
    return templates.arg(templates.one_per_line(listed, w, 1), "callbacks")


def _callbacks(w, prog, plan: hooks.HookPlan, notes: list, patience) -> list:
    tf, out = w.tf, []
    for every in plan.logging_every:  # its argument on a line of its own, always
        log = templates.arg(templates.expression(LOG, w, every=w.text(every)), "on_train_batch_end")
        out.append(cst.Element(cst.Call(templates.node(tf("tf.keras.callbacks.LambdaCallback")), [log],
                                        whitespace_before_args=templates.newline(w, 3))))
    if plan.early is not None:
        e = plan.early
        metric = literal(e.metric)
        if not isinstance(metric, str):
            raise Unreadable(e.metric, "early stopping on a metric name that is not a string literal")
        out.append(_item(w, tf("tf.keras.callbacks.EarlyStopping"), [
            templates.arg(_quoted("val_" + metric), "monitor"), templates.arg(str(patience), "patience"),
            templates.arg(_quoted(e.mode), "mode")]))
    for directory, basename, every in plan.checkpoints:
        out.append(_item(w, tf("tf.keras.callbacks.ModelCheckpoint"), [
            _path(w, w.text(directory), basename), templates.arg("True", "save_weights_only"),
            templates.arg(w.text(every), "save_freq")]))
    for directory, every in plan.summaries:
        out.append(_item(w, tf("tf.keras.callbacks.TensorBoard"), [
            w.text(directory), templates.arg(w.text(every), "update_freq")]))
    model_dir = prog.config.get("model_dir", prog.bound.get("model_dir"))
    if model_dir is not None and not (isinstance(model_dir, cst.Name) and model_dir.value == "None"):
        freq = prog.config.get("save_checkpoints_steps")
        checkpoint = _item(w, tf("tf.keras.callbacks.ModelCheckpoint"), [
            _path(w, w.text(model_dir), None), templates.arg("True", "save_weights_only")] + (
            [templates.arg(w.text(freq), "save_freq")] if freq is not None else []))
        maybe_none = may_be_none(model_dir)
        out.append(cst.StarredElement(templates.expression("([{checkpoint}] if {model_dir} is not None else [])", w,
                                                           checkpoint=checkpoint.value, model_dir=w.text(model_dir)))
                   if maybe_none else checkpoint)
        notes.append((model_dir, "TFM315", "model_dir became a ModelCheckpoint callback; Keras does not "
                      "resume from it the way an Estimator did" + (
                          " (no callback when model_dir is None: the Estimator then wrote its checkpoints "
                          "to a temporary folder that nothing read again)" if maybe_none else "")))
    return out


def _item(w, func: str, args: list) -> cst.Element:
    """A callback as an item of the list (two indents into the statement), one argument per line when it does
    not fit there with its comma."""
    made = templates.call(func, args)
    if templates.fits(templates.code(made, w) + ",", w.indent, 2):
        return cst.Element(made)
    return cst.Element(templates.one_per_line(made, w, 2))


def _path(w, directory: str, basename) -> cst.BaseExpression:
    return templates.call(w.tf("tf.io.gfile.join"), [directory, _weights_file(w, basename)])


def _weights_file(w, basename) -> templates.Hole:
    """The file ModelCheckpoint(save_weights_only=True) writes: Keras 3 takes only `*.weights.h5` (which
    Keras 2 writes too, as HDF5); tf-keras keeps TF1's checkpoint name."""
    if w.target != "keras3":
        return w.text(basename) if basename is not None else '"model.ckpt"'
    if basename is None:
        return '"model.weights.h5"'
    if isinstance(basename, cst.SimpleString) and "\\" not in basename.value:
        stem = basename.evaluated_value
        stem = stem[:-len(".ckpt")] if stem.endswith(".ckpt") else stem
        return f'"{stem}.weights.h5"'
    return templates.expression('{basename} + ".weights.h5"', w, basename=w.text(basename))


def _quoted(text: str) -> str:
    """A string literal in double quotes, as generated code writes them."""
    return repr(text).replace("'", '"')


def may_be_none(node) -> bool:
    """A flag, a variable or an item (`FLAGS.model_dir`, `args["model_dir"]`) may hold None at run time:
    `model_dir=None` is the Estimator's default, and `tf.io.gfile.join(None, ...)` raises. A literal may not,
    nor a call such as `os.path.join(...)` (which would raise on None itself, as the original did)."""
    return isinstance(node, (cst.Name, cst.Attribute, cst.Subscript)) and not (
        isinstance(node, cst.Name) and node.value == "None")
