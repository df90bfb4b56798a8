"""The Keras model a canned estimator's plan (planning/canned.py) becomes: `DenseFeatures`, one `Dense` per hidden
unit count and the logits layer (or, for Keras 3, Keras Inputs joined in DenseFeatures' order), the loss summed
over the batch as TF1's canned heads summed it, and the optimizer with TF1's defaults (Adagrad(0.05), Ftrl(0.2)).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import linear_columns, unpacked_columns
from tf2migrate.rules.estimator.planning.canned import CannedPlan, run_time_units
from tf2migrate.rules.estimator.syntax import templates

def functional_lines(inputs, layers, w) -> list:
    """Keras 3 has no DenseFeatures: numeric columns are Keras Inputs, joined in DenseFeatures' order."""
    made = [cst.DictElement(templates.node(f'"{k}"'), templates.call(w.tf("tf.keras.Input"), [
        templates.arg(templates.expression("({width},)", w, width=width), "shape"), templates.arg(f'"{k}"', "name")]))
        for k, width in inputs]
    out = [templates.fitted("inputs = {call}", w, 1, call=cst.Dict(made))]
    joined = [templates.expression("inputs[{key}]", w, key=f'"{k}"') for k, _ in inputs]
    net = joined[0]
    if len(joined) > 1:
        out.append(templates.statement("features = {concatenate}()({joined})", w, joined=cst.List(
            [cst.Element(j) for j in joined]), concatenate=w.tf("tf.keras.layers.Concatenate")))
        net = "features"
    for layer in layers[:-1]:
        out.append(templates.statement("net = {layer}({net})", w, layer=layer, net=net))
        net = "net"
    out.append(templates.statement("outputs = {layer}({net})", w, layer=layers[-1], net=net))
    out.append(templates.statement("{model} = {keras_model}(inputs, outputs)", w, model=w.model_var,
                                   keras_model=w.tf("tf.keras.Model")))
    return out


def model_lines(plan: CannedPlan, w) -> tuple:
    """(layers, loss, optimizer): expressions."""
    b, tf, dense = plan.bound, w.tf, w.tf("tf.keras.layers.Dense")
    listed = linear_columns.wrapped(b["feature_columns"], plan.indicators, tf)  # (a literal list in the call)
    layers = [templates.call(tf("tf.keras.layers.DenseFeatures"), [w.text(listed)])]
    if plan.one_hot:  # its categorical columns read one-hot at run time (unpacked_columns.py)
        layers[0] = layers[0].with_changes(args=[templates.arg(unpacked_columns.one_hot(listed, w, 1))])
    act = w.text(b["activation_fn"]) if "activation_fn" in b else tf("tf.nn.relu")
    if not plan.linear:
        if run_time_units(plan):  # `hidden_units=args["hidden_units"]`: one Dense per count, read when built
            layers.append(cst.StarredElement(templates.expression(
                "[{dense}(units, activation={act}) for units in {counts}]", w, dense=dense, act=act,
                counts=w.text(b["hidden_units"]))))
        else:
            for unit in b["hidden_units"].elements:
                layers.append(templates.call(dense, [w.text(unit.value), templates.arg(act, "activation")]))
    classes = plan.classes
    units = "1" if classes == 2 else str(classes) if classes else \
        w.text(b["label_dimension"]) if "label_dimension" in b else "1"
    zeros = [templates.arg('"zeros"', "kernel_initializer")] if plan.linear else []
    layers.append(templates.call(dense, [units] + zeros))
    summed = templates.arg('"sum"', "reduction")
    if classes:
        loss = templates.call(tf("tf.keras.losses.BinaryCrossentropy" if classes == 2 else
                                 "tf.keras.losses.SparseCategoricalCrossentropy"),
                              [templates.arg("True", "from_logits"), summed])
    else:
        loss = templates.call(tf("tf.keras.losses.MeanSquaredError"), [summed])
    accumulator = templates.arg("0.1", "initial_accumulator_value")
    if plan.optimizer is not None:
        opt = plan.optimizer.render(tf, w.text, w.text(plan.optimizer.learning_rate), w.compat_name)
    elif plan.linear:
        # optimizer="Ftrl" by default: get_optimizer_instance("Ftrl", learning_rate=0.2). TF1's
        # min(0.2, 1/sqrt(n_columns)) is only for optimizer=None (measured: 30 columns train at 0.2)
        opt = templates.call(tf("tf.keras.optimizers.Ftrl"), ["0.2", accumulator])
    else:
        opt = templates.call(tf("tf.keras.optimizers.Adagrad"), ["0.05", accumulator, templates.arg("0.0", "epsilon")])
    return layers, loss, opt
