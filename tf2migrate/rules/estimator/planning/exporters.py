"""Exporters -> `model.save`: the trained Keras model written as a SavedModel with its serving signature.

`EvalSpec(exporters=[FinalExporter("census", serving_input_fn)])` exported a SavedModel to
`model_dir/export/census/<timestamp>` after the last evaluation; `estimator.export_saved_model(base, fn)`
to `base/<timestamp>`. Keras saves the model itself: `model.export(path)` (`model.save(path)` under
`--target tf-keras`; Keras 3's `save` writes only .keras/.h5 files) writes a SavedModel whose
`serving_default` signature calls the model on its input, so the `serving_input_receiver_fn` (TF1
placeholders, which TF2 cannot run eagerly) goes when nothing else uses it. The timestamped subfolder
is not made: the path is the folder TF1 made it in.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import best_exporter, canned_combined
from tf2migrate.rules.estimator.planning.callbacks import may_be_none
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind
from tf2migrate.rules.estimator.reading.uses import assignment
from tf2migrate.rules.estimator.syntax.kept_source import references
from tf2migrate.rules.estimator.syntax.walk import found

EXPORTERS = {"tf.estimator.FinalExporter": ("name", "serving_input_receiver_fn", "assets_extra", "as_text"),
             "tf.estimator.LatestExporter": ("name", "serving_input_receiver_fn", "assets_extra", "as_text",
                                             "exports_to_keep")}
EXPORTERS[best_exporter.BEST] = best_exporter.PARAMS  # read by best_exporter.py (TFM354)
RECEIVER = "tf.estimator.export."
EXPORT_METHOD = ("export_dir_base", "serving_input_receiver_fn", "assets_extra", "as_text", "checkpoint_path",
                 "experimental_mode")
NOTE = ("the model is saved with model.{method} (a SavedModel whose serving signature is the Keras model's call); "
        "the serving_input_receiver_fn is not used, and no timestamped subfolder is made")


SAVE = '{save}({join}({model_dir}, "export", {name}))'
GUARDED = '''if {model_dir} is not None:
{i}{save}({join}({model_dir}, "export", {name}))'''
NONE_NOTE = ("; not when `{model_dir}` is None at run time (the Estimator then exported into a temporary folder "
             "nobody reads, and `tf.io.gfile.join(None, ...)` would raise)")


def _method(w) -> str:
    """Keras 3's `save` writes only .keras/.h5 files: `export` writes the SavedModel (Keras 2.13+ has it too)."""
    return "export" if getattr(w, "target", "keras3") == "keras3" else "save"


def read(expr, prog, ctx) -> list:
    """(exporter call, name expression) of an `exporters=` list; raises Unreadable."""
    if isinstance(expr, (cst.Call, cst.Name)):
        expr = cst.List([cst.Element(expr)])
    if not isinstance(expr, (cst.List, cst.Tuple)):
        raise Unreadable(expr, "exporters that are not a list literal: convert by hand")
    out = []
    for el in expr.elements:
        call = prog.exporters.get(el.value.value) if isinstance(el.value, cst.Name) else el.value
        canonical = ctx.resolve(call.func)[1] if isinstance(call, cst.Call) else None
        if canonical == best_exporter.BEST:
            out.append(best_exporter.read(call))
            continue
        if canonical not in EXPORTERS:
            raise Unreadable(el.value, "exporter other than FinalExporter/LatestExporter/BestExporter: save the model "
                             "by hand")
        bound = bind(call, EXPORTERS[canonical], canonical)
        if set(bound) - {"name", "serving_input_receiver_fn", "exports_to_keep"}:
            raise Unreadable(call, "exporter with assets_extra/as_text: save the model by hand")
        out.append((call, bound["name"]))
    return out


def save_lines(exporters: list, w, model_dir) -> tuple:
    """(statements, notes): one `model.save` per exporter, in TF1's `model_dir/export/<name>` folder."""
    if model_dir is None or (isinstance(model_dir, cst.Name) and model_dir.value == "None"):
        raise Unreadable(exporters[0][0], "exporter without a model_dir: save the model with model.save by hand")
    m = _method(w)
    guarded = may_be_none(model_dir)  # a flag left at None: the Estimator exported into a temporary folder
    made = [templates.statement(GUARDED if guarded else SAVE, w, save=f"{w.model_var}.{m}",
                                join=w.tf("tf.io.gfile.join"), model_dir=w.text(model_dir), name=w.text(name))
            for _, name in exporters]
    made = [canned_combined.saved(stmt, w) for stmt in made]  # a WideDeepModel: without its two optimizers
    note = NOTE.format(method=m) + (NONE_NOTE.format(model_dir=w.text(model_dir)) if guarded else "")
    return made, [(call, "TFM318", note) for call, _ in exporters] + best_exporter.notes(exporters, w.ctx)


def export_call(bound: dict, w, call) -> tuple:
    """(statement, notes) for `estimator.export_saved_model(base, serving_input_receiver_fn)`."""
    if set(bound) - {"export_dir_base", "serving_input_receiver_fn"}:
        raise Unreadable(call, "export_saved_model with assets_extra/checkpoint_path/mode: save the model by hand")
    m = _method(w)
    made = templates.statement("{save}({path})", w, save=f"{w.model_var}.{m}", path=w.text(bound["export_dir_base"]))
    made = canned_combined.saved(made, w)
    return made, [(call, "TFM318", NOTE.format(method=m))]


def serving_functions(module, prog, ctx) -> None:
    """Drop the top-level serving_input_receiver_fns that only the converted exporters use (directly or through an
    alias), and, in a program that exports, the ones nothing uses (a program that does not keeps them, reported)."""
    wanted = {}
    for call in prog.export_calls:
        fn = call.args[1].value if len(call.args) > 1 and call.args[1].keyword is None else next(
            (a.value for a in call.args if a.keyword and a.keyword.value == "serving_input_receiver_fn"), None)
        if isinstance(fn, cst.Name):
            wanted[fn.value] = wanted.get(fn.value, 0) + 1
    for i, stmt in enumerate(module.body):  # `serving_fn = cnn_serving_input_fn`, the alias only exported
        alias, value = assignment(stmt)
        if alias in wanted and isinstance(value, cst.Name) and references(module, alias) == wanted[alias] + 1:
            wanted[value.value] = wanted.get(value.value, 0) + 1
            prog.removed.add(i)
    for name, uses in wanted.items():
        fn = prog.defs.get(name)
        if isinstance(fn, cst.FunctionDef) and references(module, name) == uses:
            prog.removed.add(next(i for i, stmt in enumerate(module.body) if stmt is fn))
        for i, stmt in enumerate(module.body):  # `fn = tf.estimator.export.build_parsing_serving_input_receiver_fn(spec)`
            target, value = assignment(stmt)
            if target == name and isinstance(value, cst.Call) and (ctx.resolve(value.func)[1] or "").startswith(
                    RECEIVER) and references(module, name, plain=True) == uses + 1:
                prog.removed.add(i)
    for i, stmt in enumerate(module.body):  # one nothing calls, beside exports now Keras': it served those only
        if wanted and isinstance(stmt, cst.FunctionDef) and _receives(stmt, ctx) \
                and not references(module, stmt.name.value):
            prog.removed.add(i)
            prog.dropped.append((stmt, "TFM318", f"`{stmt.name.value}` made inputs for an Estimator export and nothing "
                                 "calls it: it goes with the Estimator (Keras exports serve the model's own inputs)"))


def _receives(fn: cst.FunctionDef, ctx) -> bool:
    """The function returns a `tf.estimator.export.*ServingInputReceiver(...)`."""
    calls = [r.value for r in found(fn, cst.Return, lambda r: isinstance(r.value, cst.Call))]
    return any(ctx.resolve(c.func)[1].startswith(RECEIVER) and ctx.resolve(c.func)[1].endswith("InputReceiver")
               for c in calls if ctx.resolve(c.func)[1])
