"""Child side of `compare/optimizer_settings.py`: the hyper-parameters of every optimizer that applies gradients,
TF1's (`tf.compat.v1.train.*Optimizer`) and Keras' (Keras 2, its legacy optimizers, Keras 3), read when the
program ends into `recorder.optimizers`, under one vocabulary for both (Adam, RMSprop, Adagrad, SGD)."""
import numbers

# TF1 class -> (kind, {field: attribute}); constants where TF1's class has the field fixed
TF1 = {
    "AdamOptimizer": ("Adam", {"learning_rate": "_lr", "beta_1": "_beta1", "beta_2": "_beta2",
                               "epsilon": "_epsilon", "amsgrad": False}),
    "RMSPropOptimizer": ("RMSprop", {"learning_rate": "_learning_rate", "rho": "_decay", "momentum": "_momentum",
                                     "epsilon": "_epsilon", "centered": "_centered"}),
    # Keras' Adagrad adds an epsilon TF1's kernel does not have: not a field of the comparison
    "AdagradOptimizer": ("Adagrad", {"learning_rate": "_learning_rate",
                                     "initial_accumulator_value": "_initial_accumulator_value"}),
    "MomentumOptimizer": ("SGD", {"learning_rate": "_learning_rate", "momentum": "_momentum",
                                  "nesterov": "_use_nesterov"}),
    "GradientDescentOptimizer": ("SGD", {"learning_rate": "_learning_rate", "momentum": 0.0, "nesterov": False}),
    "AdadeltaOptimizer": ("Adadelta", {"learning_rate": "_lr", "rho": "_rho", "epsilon": "_epsilon"}),
    "FtrlOptimizer": ("Ftrl", {"learning_rate": "_learning_rate", "learning_rate_power": "_learning_rate_power",
                               "initial_accumulator_value": "_initial_accumulator_value",
                               "l1_regularization_strength": "_l1_regularization_strength",
                               "l2_regularization_strength": "_l2_regularization_strength",
                               "l2_shrinkage_regularization_strength": "_l2_shrinkage_regularization_strength"}),
}
KERAS = {
    "Adam": ("learning_rate", "beta_1", "beta_2", "epsilon", "amsgrad"),
    "RMSprop": ("learning_rate", "rho", "momentum", "epsilon", "centered"),
    "Adagrad": ("learning_rate", "initial_accumulator_value"),
    "SGD": ("learning_rate", "momentum", "nesterov"),
    "Adadelta": ("learning_rate", "rho", "epsilon"),
    "Ftrl": ("learning_rate", "learning_rate_power", "initial_accumulator_value", "l1_regularization_strength",
             "l2_regularization_strength", "l2_shrinkage_regularization_strength"),
}


def install(recorder, tf, keras):
    """Remember each optimizer the first time it applies gradients (not one only made); read them at exit."""
    seen = []

    def hook(cls):
        apply_gradients = cls.apply_gradients

        def wrapped(self, *args, **kwargs):
            if not any(o is self for o in seen):
                seen.append(self)
            return apply_gradients(self, *args, **kwargs)

        cls.apply_gradients = wrapped

    hook(tf.compat.v1.train.Optimizer)
    hook(tf.keras.optimizers.Optimizer)
    if keras.major == 2:   # Keras 3's `legacy` optimizers are stubs that raise
        hook(tf.keras.optimizers.legacy.Optimizer)

    def read():
        for optimizer in seen:
            settings = settings_of(optimizer)
            if settings is not None and settings not in recorder.optimizers:
                recorder.optimizers.append(settings)

    recorder.finalizers.append(read)


def settings_of(optimizer):
    """{"kind", "class", field: number, bool or None (a tensor, a schedule: not a number)}; None for a class
    outside the vocabulary (a wrapper, a program's own optimizer). A program's subclass of one (the converter's
    `RMSpropTF1`) is read as its base: its hyper-parameters are the base's."""
    for cls in type(optimizer).__mro__:
        module = cls.__module__.split(".")[0]
        if module == "tensorflow" and cls.__name__ in TF1:
            kind, fields = TF1[cls.__name__]
            out = {f: _plain(getattr(optimizer, a, None) if isinstance(a, str) else a) for f, a in fields.items()}
            return {"kind": kind, "class": _label(optimizer, f"tf.compat.v1.train.{cls.__name__}"), **out}
        if module in ("keras", "tf_keras") and cls.__name__ in KERAS:
            config = optimizer.get_config()
            out = {f: _plain(config.get(f)) for f in KERAS[cls.__name__]}
            if config.get("decay"):   # legacy Keras: the learning rate decays with the step, a schedule
                out["learning_rate"] = None
            return {"kind": cls.__name__, "class": _label(optimizer, f"{module}.optimizers.{cls.__name__}"), **out}
    return None


def _label(optimizer, base):
    own = type(optimizer).__name__
    return base if base.endswith("." + own) else f"{own} ({base})"


def _plain(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Real):   # numpy's scalars too (a Keras variable's value)
        return float(value)
    return bool(value) if type(value).__name__ == "bool_" else None
