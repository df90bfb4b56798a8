"""Canned estimators with numeric feature columns -> the equivalent Keras `Sequential` model.

`DNNRegressor(hidden_units=[8, 4], feature_columns=cols)` is `DenseFeatures(cols)`, one `Dense` per
hidden unit count with the estimator's activation (ReLU by default), and a `Dense(label_dimension)`
logits layer. TF1's canned estimators sum the loss over the batch (`loss_reduction=SUM`) and default
to Adagrad(0.05) for DNNs and Ftrl(0.2) for linear models (whatever the number of columns), with TF1's slot
values; a TF1 optimizer given (`optimizer=tf.train.AdamOptimizer(1e-5)`) becomes the Keras one with TF1's
numbers (optimizers.py); the Keras program states all of that (writing/canned_source.py writes the model).
Anything else about them is reported.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from tf2migrate.rules.estimator.planning import built_columns, canned_combined, linear_columns, unpacked_columns
from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.planning.plan_types import ModelPath, ModelPlan
from tf2migrate.rules.estimator.syntax.walk import found
from tf2migrate.rules.estimator.syntax.args import Unreadable, literal

CANNED = {
    "tf.estimator.DNNRegressor": ("hidden_units", "feature_columns", "model_dir", "label_dimension",
                                  "weight_column", "optimizer", "activation_fn", "dropout", "input_layer_partitioner",
                                  "config", "warm_start_from", "loss_reduction", "batch_norm"),
    "tf.estimator.DNNClassifier": ("hidden_units", "feature_columns", "model_dir", "n_classes", "weight_column",
                                   "label_vocabulary", "optimizer", "activation_fn", "dropout",
                                   "input_layer_partitioner", "config", "warm_start_from", "loss_reduction",
                                   "batch_norm"),
    "tf.estimator.LinearRegressor": ("feature_columns", "model_dir", "label_dimension", "weight_column",
                                     "optimizer", "config", "partitioner", "warm_start_from", "loss_reduction",
                                     "sparse_combiner"),
    "tf.estimator.LinearClassifier": ("feature_columns", "model_dir", "n_classes", "weight_column",
                                      "label_vocabulary", "optimizer", "config", "partitioner", "warm_start_from",
                                      "loss_reduction", "sparse_combiner"),
}
CANNED.update(canned_combined.SIGNATURES)  # DNNLinearCombined: a WideDeepModel (canned_combined.py)
SUPPORTED = {"hidden_units", "feature_columns", "model_dir", "label_dimension", "n_classes", "activation_fn",
             "config"}


@dataclass
class CannedPlan(ModelPlan):
    path = ModelPath.CANNED
    node = chain = None  # no model_fn, no layer chain
    canonical: str
    bound: dict
    columns: list = field(default_factory=list)  # numeric_column calls (a DNN's: also indicator/embedding)
    columns_name: object = None  # the Name the columns list was assigned to, if any
    columns_helper: object = None  # `cols = get_columns()`: the name of the function returning the list
    built: bool = False  # the list is built at run time (built_columns.py): `columns` are its possible elements
    blockers: list = field(default_factory=list)
    forward_blockers: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    uses_params: bool = False
    predictions: object = None
    metrics: list = field(default_factory=list)  # canned_results.CannedMetric: the evaluate keys the program reads
    optimizer: object = None  # optimizers.Optimizer: a TF1 optimizer instance given as `optimizer=`
    indicators: set = field(default_factory=set)  # positions of a linear model's categorical columns in its list
    named_classes: object = None  # `n_classes=N_DIGITS`, N_DIGITS a top-level int: that int
    one_hot: bool = False  # a linear model's run-time list with categorical columns (unpacked_columns.py)

    @property
    def linear(self) -> bool:
        return "Linear" in self.canonical

    @property
    def classes(self) -> int:
        if "Classifier" not in self.canonical:
            return 0
        if self.named_classes is not None:
            return self.named_classes
        n = literal(self.bound.get("n_classes")) if "n_classes" in self.bound else 2
        return n


def read(call, bound, ctx, values, defs=None, module=None) -> CannedPlan:
    canonical = ctx.resolve(call.func)[1]
    if canonical in canned_combined.SIGNATURES:
        return canned_combined.read(CannedPlan, canonical, bound, call)
    plan = CannedPlan(canonical, bound)
    given = bound.get("n_classes")
    if isinstance(given, cst.Name) and type(literal(values.get(given.value))) is int:
        plan.named_classes = literal(values[given.value])  # a constant of the module: its value sizes the logits
    if "optimizer" in bound:  # `optimizer=tf.train.AdamOptimizer(1e-5)`: the Keras one with TF1's numbers
        try:
            plan.optimizer = read_optimizer(bound["optimizer"], ctx) if isinstance(bound["optimizer"], cst.Call) \
                else None
        except Unreadable as why:
            plan.blockers.append(why)
    for name, value in bound.items():
        if name not in SUPPORTED and not (name == "optimizer" and plan.optimizer is not None):
            plan.blockers.append(Unreadable(value, f"`{canonical.rpartition('.')[2]}({name}=...)`: "
                                            "build the Keras model by hand"))
    cols = bound.get("feature_columns")
    if isinstance(cols, cst.Name) and module is not None:
        try:
            built = built_columns.elements(values.get(cols.value), cols.value, module, ctx, call, plan.linear)
        except Unreadable as why:
            plan.blockers.append(why)
            return plan
        if built is not None:  # a comprehension, or `cols = []` appended to: kept as written, read by DenseFeatures
            plan.columns_name, plan.columns, plan.built = cols, built, True
            return plan
        try:  # `wide, deep = build_model_columns()`: kept as written, read by DenseFeatures
            unpacked = unpacked_columns.read(cols.value, module, defs or {}, values, ctx, plan.linear)
        except Unreadable as why:
            plan.blockers.append(why)
            return plan
        if unpacked is not None:
            plan.columns_name, (plan.columns, plan.one_hot), plan.built = cols, unpacked, True
            return plan
    passed = built_columns.passthrough(values.get(cols.value), defs or {}) if isinstance(cols, cst.Name) else None
    if passed is not None and isinstance(values.get(passed), (cst.List, cst.Tuple)):
        plan.columns_name, cols = cols, values[passed]  # `cols = add_more_features(INPUT_COLUMNS)`: the same list
    elif isinstance(cols, cst.Name) and isinstance(values.get(cols.value), (cst.List, cst.Tuple)):
        plan.columns_name, cols = cols, values[cols.value]
    elif isinstance(cols, cst.Name) and built_columns.returned_list(values.get(cols.value), defs or {}) is not None:
        plan.columns_name, plan.columns_helper = cols, values[cols.value].func.value
        cols = built_columns.returned_list(values[cols.value], defs)
    if isinstance(cols, (cst.List, cst.Tuple)) and not cols.elements:  # `cols = []`, then appended to in a loop
        plan.blockers.append(Unreadable(bound["feature_columns"], "feature_columns built up after an empty list "
                                        "(appended to in a loop?): list them in a literal, or convert by hand"))
        return plan
    if not isinstance(cols, (cst.List, cst.Tuple)):
        plan.blockers.append(Unreadable(cols or call, "feature_columns that are not a list literal, a name assigned "
                                        "one, or a name assigned a call of a function of this file that only "
                                        "returns one: convert by hand"))
        return plan
    given = bound.get("feature_columns")  # the list literal itself, or a name assigned one: wrapped where written
    written = not isinstance(given, cst.Name) or isinstance(values.get(given.value), (cst.List, cst.Tuple))
    for i, el in enumerate(cols.elements):
        v = el.value
        if plan.linear and written and linear_columns.categorical(v, ctx, values):
            plan.indicators.add(i)  # one weight per category: its indicator column (linear_columns.py)
        elif not built_columns.convertible(values.get(v.value) if isinstance(v, cst.Name) else v, ctx, plan.linear):
            plan.blockers.append(Unreadable(v, built_columns.refusal(plan.linear)))
        plan.columns.append(v)
    units = bound.get("hidden_units")
    if units is not None and not isinstance(units, (cst.List, cst.Tuple)) and found(units, cst.Call):
        plan.blockers.append(Unreadable(units, "hidden_units computed by a call: give them in a list, or a name"))
    if plan.classes not in (0, 2) and not isinstance(plan.classes, int):
        plan.blockers.append(Unreadable(bound["n_classes"], "n_classes must be a literal"))
    return plan


def run_time_units(plan) -> bool:
    """hidden_units given by a name or a subscript (`args["hidden_units"]`): a list only known at run time."""
    units = plan.bound.get("hidden_units")
    return units is not None and not isinstance(units, (cst.List, cst.Tuple))


def keras3_inputs(plan: CannedPlan, ctx):
    """[(key, width)] sorted by key as DenseFeatures orders its columns, or None when a column has more than
    a literal key and 1-D shape (then no Keras 3 input is written: the file targets tf-keras)."""
    out = []
    if plan.built or run_time_units(plan):
        return None
    for call in plan.columns:
        if not isinstance(call, cst.Call) or ctx.resolve(call.func)[1] != built_columns.NUMERIC:
            return None
        args = {(a.keyword.value if a.keyword else ("key", "shape")[i] if i < 2 else "?"): a.value
                for i, a in enumerate(call.args)}
        if set(args) - {"key", "shape"} or not isinstance(args.get("key"), cst.SimpleString):
            return None
        shape = args.get("shape")
        if shape is None:
            width = "1"
        elif isinstance(shape, cst.Integer):
            width = shape.value
        elif isinstance(shape, (cst.List, cst.Tuple)) and len(shape.elements) == 1 \
                and isinstance(shape.elements[0].value, cst.Integer):
            width = shape.elements[0].value.value
        else:
            return None
        out.append((args["key"].evaluated_value, width))
    return sorted(out)
