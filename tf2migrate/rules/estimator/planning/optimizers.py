"""TF1 optimizers -> Keras optimizers with TF1's numbers spelled out (api-mapping.md section 4).

Keras defaults differ from TF1's where it matters: Adagrad adds `epsilon=1e-7` (TF1 adds none),
Adam and Adadelta use `epsilon=1e-7` (TF1 1e-8: 5.6 % and 50 % off after 400 steps), and RMSprop starts
its mean-square slot at 0 where TF1 starts it at 1.0 (82 % off). So every converted optimizer states
TF1's values, and RMSProp becomes `RMSpropTF1`, a small subclass that sets the slot to 1.0 once `build` has
made it. Keras 2.15, tf-keras and Keras 3 name the slots `_velocities` and build them in `build`, but their
`add_variable_from_reference` signatures differ (Keras 3 passes `name=`), so the class does not override it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import bind

COMMON = ("use_locking", "name")
# canonical -> (TF1 parameters, Keras class, {TF1 param: Keras keyword}, {Keras keyword: TF1 default to spell out})
TF1_OPTIMIZERS = {
    "tf.train.GradientDescentOptimizer": (("learning_rate",) + COMMON, "SGD", {}, {}),
    "tf.train.MomentumOptimizer": (("learning_rate", "momentum") + COMMON + ("use_nesterov",), "SGD",
                                   {"momentum": "momentum", "use_nesterov": "nesterov"}, {}),
    "tf.train.AdagradOptimizer": (("learning_rate", "initial_accumulator_value") + COMMON, "Adagrad",
                                  {"initial_accumulator_value": "initial_accumulator_value"},
                                  {"initial_accumulator_value": "0.1", "epsilon": "0.0"}),
    "tf.train.AdamOptimizer": (("learning_rate", "beta1", "beta2", "epsilon") + COMMON, "Adam",
                               {"beta1": "beta_1", "beta2": "beta_2", "epsilon": "epsilon"}, {"epsilon": "1e-8"}),
    "tf.train.AdadeltaOptimizer": (("learning_rate", "rho", "epsilon") + COMMON, "Adadelta",
                                   {"rho": "rho", "epsilon": "epsilon"}, {"rho": "0.95", "epsilon": "1e-8"}),
    "tf.train.RMSPropOptimizer": (("learning_rate", "decay", "momentum", "epsilon") + COMMON + ("centered",),
                                  "RMSpropTF1", {"decay": "rho", "momentum": "momentum", "epsilon": "epsilon",
                                                 "centered": "centered"}, {"rho": "0.9", "epsilon": "1e-10"}),
    "tf.train.FtrlOptimizer": (("learning_rate", "learning_rate_power", "initial_accumulator_value",
                                "l1_regularization_strength", "l2_regularization_strength") + COMMON
                               + ("accum_name", "linear_name", "l2_shrinkage_regularization_strength", "beta"),
                               "Ftrl", {k: k for k in ("learning_rate_power", "initial_accumulator_value",
                                                       "l1_regularization_strength", "l2_regularization_strength",
                                                       "l2_shrinkage_regularization_strength", "beta")}, {}),
}
DEFAULT_LR = {"tf.train.AdamOptimizer": "0.001", "tf.train.AdadeltaOptimizer": "0.001"}
DROPPED = {"use_locking", "name", "accum_name", "linear_name"}

RMSPROP_TF1 = '''class {name}({rmsprop}):
{i}"""RMSprop whose mean-square slot starts at 1.0, as in tf.compat.v1.train.RMSPropOptimizer."""

{i}def build(self, var_list):
{i}{i}fresh = not getattr(self, "_velocities", None)
{i}{i}super().build(var_list)
{i}{i}if fresh:
{i}{i}{i}with {tf}.init_scope():
{i}{i}{i}{i}for velocity in self._velocities:
{i}{i}{i}{i}{i}velocity.assign({tf}.ones(velocity.shape, dtype=velocity.dtype))
'''


@dataclass
class Optimizer:
    canonical: str
    keras: str
    learning_rate: object  # expression node, or a default string
    keywords: dict = field(default_factory=dict)  # Keras keyword -> expression node or source string
    node: cst.CSTNode = None

    @property
    def needs_compat_class(self) -> bool:
        return self.keras == "RMSpropTF1"

    def render(self, tf, source, learning_rate: str, compat_name: str = "RMSpropTF1") -> cst.BaseExpression:
        cls = compat_name if self.needs_compat_class else tf("tf.keras.optimizers." + self.keras)
        keywords = [templates.arg(v if isinstance(v, str) else source(v), k) for k, v in self.keywords.items()]
        return templates.call(cls, [learning_rate] + keywords)


def read_optimizer(call: cst.Call, ctx):
    """The Keras optimizer for a TF1 optimizer constructor, or None; raises Unreadable."""
    _, canonical = ctx.resolve(call.func)
    if canonical not in TF1_OPTIMIZERS:
        return None
    params, keras, renames, spelled = TF1_OPTIMIZERS[canonical]
    bound = bind(call, params, canonical)
    lr = bound.get("learning_rate", DEFAULT_LR.get(canonical))
    keywords = {}
    for name, value in bound.items():
        if name in renames:
            keywords[renames[name]] = value
    for keyword, default in spelled.items():
        keywords.setdefault(keyword, default)
    if lr is None:
        from tf2migrate.rules.estimator.syntax.args import Unreadable

        raise Unreadable(call, f"`{canonical}` without a learning rate")
    return Optimizer(canonical, keras, lr, keywords, call)


def compat_class(w) -> cst.ClassDef:
    """`class RMSpropTF1(tf.keras.optimizers.RMSprop)`, under the Writer's name for it."""
    tf = w.tf("tf")
    return templates.statement(RMSPROP_TF1, w, name=w.compat_name, rmsprop=f"{tf}.keras.optimizers.RMSprop", tf=tf)
