"""DNNLinearCombined{Regressor,Classifier} -> `tf.keras.experimental.WideDeepModel` of a linear and a DNN model.

TF1's wide & deep estimator sums two logits, a linear model's over `linear_feature_columns` and a DNN's over
`dnn_feature_columns`, and trains each part with its own optimizer: Ftrl at min(0.005, 1/sqrt(number of linear
columns)) and Adagrad at 0.001 by default (dnn_linear_combined.py's `_linear_learning_rate`, `_DNN_LEARNING_RATE`;
not the single estimators' 0.2 and 0.05), both with TF1's slot values; the loss is summed over the batch. Keras's
WideDeepModel is that model: it sums the two outputs and, compiled with a list of two optimizers, applies the
first to the linear model's variables and the second to the DNN's. Both lists are read by DenseFeatures at run
time, as the program built them (a helper, a comprehension, crossed and embedding columns alike: DenseFeatures
computes TF1's input layer with the same feature-column code). The linear part's categorical columns are read
one-hot (`indicator_column`): a zero-initialised Dense over them is TF1's sparse weighted sum (sparse_combiner
"sum"), and Ftrl leaves a weight whose gradient is zero unchanged, as TF1's sparse update did. WideDeepModel
exists in TF 2.15's Keras and tf-keras, not in Keras 3: the file targets tf-keras (TFM320).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.estimator.planning import plan_types
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, literal

COMMON = ("model_dir", "linear_feature_columns", "linear_optimizer", "dnn_feature_columns", "dnn_optimizer",
          "dnn_hidden_units", "dnn_activation_fn", "dnn_dropout")
TAIL = ("input_layer_partitioner", "config", "warm_start_from", "loss_reduction", "batch_norm",
        "linear_sparse_combiner")
SIGNATURES = {
    "tf.estimator.DNNLinearCombinedRegressor": COMMON + ("label_dimension", "weight_column") + TAIL,
    "tf.estimator.DNNLinearCombinedClassifier": COMMON + ("n_classes", "weight_column", "label_vocabulary") + TAIL,
}
SUPPORTED = {"model_dir", "config", "linear_feature_columns", "dnn_feature_columns", "dnn_hidden_units",
             "dnn_activation_fn", "n_classes", "label_dimension"}
NO_KERAS3 = ("DNNLinearCombined becomes tf.keras.experimental.WideDeepModel (a linear and a DNN model, one optimizer "
             "each), which Keras 3 does not have")


ONE_HOT = """{name} = [  # categorical columns one-hot: a Dense over them is TF1's linear model
{i}c if hasattr(c, "variable_shape") else {indicator}(c) for c in {wide}
]"""


def is_combined(plan) -> bool:
    return plan_types.canned(plan) and plan.canonical in SIGNATURES


def read(plan_class, canonical, bound, call) -> object:
    """The canned plan (canned.CannedPlan) of a combined estimator: both column lists are read at run time
    (`built`), so only the arguments the Keras model cannot state block."""
    plan = plan_class(canonical, bound, built=True)
    for name, value in bound.items():
        if name not in SUPPORTED:
            plan.blockers.append(Unreadable(value, f"`{canonical.rpartition('.')[2]}({name}=...)`: build the Keras "
                                            "model by hand"))
    for name in ("linear_feature_columns", "dnn_feature_columns", "dnn_hidden_units"):
        if name not in bound:
            plan.blockers.append(Unreadable(call, f"a {canonical.rpartition('.')[2]} without {name}: use the linear "
                                            "or DNN estimator, or convert by hand"))
    if "n_classes" in bound and not isinstance(literal(bound["n_classes"]), int):
        plan.blockers.append(Unreadable(bound["n_classes"], "n_classes must be a literal"))
    return plan


def model_lines(plan, w) -> tuple:
    """(statements making the model, loss, optimizer list), for the builder (keras_source.Writer.build_function)."""
    b, tf, dense = plan.bound, w.tf, w.tf("tf.keras.layers.Dense")
    features = w.tf("tf.keras.layers.DenseFeatures")
    wide, deep = w.text(b["linear_feature_columns"]), w.text(b["dnn_feature_columns"])
    classes = plan.classes
    units = "1" if classes == 2 else str(classes) if classes else w.text(b["label_dimension"]) \
        if "label_dimension" in b else "1"
    act = w.text(b["dnn_activation_fn"]) if "dnn_activation_fn" in b else tf("tf.nn.relu")
    names = {k: w.fresh(k) for k in ("linear_columns", "linear_model", "dnn_model")}  # locals of the builder
    linear = [templates.call(features, [names["linear_columns"]]),
              templates.call(dense, [units, templates.arg('"zeros"', "kernel_initializer")])]
    hidden = b["dnn_hidden_units"]
    if isinstance(hidden, (cst.List, cst.Tuple)):
        layers = [templates.call(dense, [w.text(u.value), templates.arg(act, "activation")]) for u in hidden.elements]
    else:  # a name: one Dense per count, read when the model is built
        layers = [cst.StarredElement(templates.expression("[{dense}(units, activation={act}) for units in {counts}]",
                                                          w, dense=dense, act=act, counts=w.text(hidden)))]
    dnn = [templates.call(features, [deep]), *layers, templates.call(dense, [units])]
    made = [templates.statement(ONE_HOT, w, name=names["linear_columns"], wide=wide,
                                indicator=tf("tf.feature_column.indicator_column")),
            templates.statement("{name} = {model}", w, name=names["linear_model"], model=w.sequential(linear)),
            templates.statement("{name} = {model}", w, name=names["dnn_model"], model=w.sequential(dnn)),
            templates.statement("{m} = {wide_deep}({linear}, {dnn})", w, m=w.model_var, linear=names["linear_model"],
                                dnn=names["dnn_model"], wide_deep=tf("tf.keras.experimental.WideDeepModel"))]
    summed = templates.arg('"sum"', "reduction")
    if classes:
        loss = templates.call(tf("tf.keras.losses.BinaryCrossentropy" if classes == 2 else
                                 "tf.keras.losses.SparseCategoricalCrossentropy"),
                              [templates.arg("True", "from_logits"), summed])
    else:
        loss = templates.call(tf("tf.keras.losses.MeanSquaredError"), [summed])
    accumulator = templates.arg("0.1", "initial_accumulator_value")
    ftrl = templates.call(tf("tf.keras.optimizers.Ftrl"), [
        templates.expression("min(0.005, len({wide}) ** -0.5)", w, wide=wide), accumulator])
    adagrad = templates.call(tf("tf.keras.optimizers.Adagrad"), ["0.001", accumulator,
                                                                 templates.arg("0.0", "epsilon")])
    return made, loss, templates.one_per_line(cst.List([cst.Element(ftrl), cst.Element(adagrad)]), w)


def saved(stmt, w):
    """`model.save(path)` of a WideDeepModel without its optimizers: Keras 2 saves `optimizer.get_config()`, which a
    list of two optimizers does not have (measured: AttributeError after training); the export serves, it does
    not resume training."""
    if not is_combined(w.prog.model):
        return stmt

    class _NoOptimizer(cst.CSTTransformer):
        def leave_Call(self, original, updated):
            func = updated.func
            if isinstance(func, cst.Attribute) and func.attr.value == "save" and isinstance(func.value, cst.Name) \
                    and func.value.value == w.model_var:
                return updated.with_changes(args=[*updated.args, templates.arg("False", "include_optimizer")])
            return updated

    return stmt.visit(_NoOptimizer())
