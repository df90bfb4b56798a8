"""Hooks a function of a module this conversion does not read returns: `hooks_helper.get_train_hooks(...)`.

Google's official models build their hooks in `official.utils.logs.hooks_helper` (logging, examples per second,
profiling) and pass the list to `train(hooks=train_hooks)`. What that function returns is not in the file, so no
hook of it can become a callback; Keras' `fit` takes callbacks, and it runs the same steps without the hooks.
The run is converted without them and TFM349 says so at the hooks, naming what to check: a hook that stops
training or saves checkpoints would change what trains. The statement that builds the list stays as it was.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.engine.imports import dotted

CODE = "TFM349"


def read(expr, prog, ctx):
    """A HookPlan with TFM349 when `expr` (the `hooks=` argument) is the result of a call of an imported
    function of another package, directly or through a name assigned once; None otherwise."""
    from tf2migrate.rules.estimator.planning.hooks import HookPlan

    call = prog.values.get(expr.value) if isinstance(expr, cst.Name) and expr.value not in prog.hook_lists else expr
    name = _foreign(call, prog, ctx)
    if name is None:
        return None
    return HookPlan(notes=[(expr, CODE, f"the hooks `{name}(...)` returns are not run: its module is not read by "
                            "this conversion and Keras' fit takes callbacks, not hooks; if one of them stops "
                            "training, saves checkpoints or changes the model, write it as a "
                            "tf.keras.callbacks.Callback and pass it in `callbacks=`")])


def _foreign(call, prog, ctx) -> Optional[str]:
    """`module.function` when `call` calls a function bound by an import from outside TensorFlow."""
    if not isinstance(call, cst.Call) or not isinstance(call.func, (cst.Name, cst.Attribute)):
        return None
    name = dotted(call.func)
    if name is None or name.partition(".")[0] in prog.defs:
        return None
    binding = ctx.imports.bindings.get(name.partition(".")[0])
    if binding is None or binding.assigned or ctx.resolve(call.func)[1] is not None \
            or binding.target.split(".")[0] in ("tensorflow", "tensorflow_estimator"):
        return None
    return name
