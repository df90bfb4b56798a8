"""TFM616: a name imported from TensorFlow that the module binds again (`to_float = wrap(to_float)`, `tf = np`)."""
from __future__ import annotations

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.engine.imports import canonical_tf, is_private
from tf2migrate.engine.rebinding import rebound_in_functions
from tf2migrate.engine.tf_version import TFVersion
from tf2migrate.rules.base import Plugin, RuleInfo

BEFORE = '''from tensorflow import to_float


def logged(f):
    return f


to_float = logged(to_float)
x = to_float(3)
'''


class Rebound(Plugin):
    """After `to_float = logged(to_float)` (or an assignment, `def`, `for` target, non-TensorFlow import, a
    function's `global` of the name...), a use of `to_float` may read the new value, not TensorFlow's: which
    one depends on the flow. Rewriting such a use as TensorFlow's `to_float` wrote programs that call the wrong
    function, or re-pointed the import (`from tensorflow import cast`) while the rebinding still read the old
    name, a NameError at import (engine/rebinding.py). So no use of a rebound name is converted, in either
    path, and its import is left as written: the finding, at the first other binding, says so. A function that
    imports a TensorFlow name and binds it again makes it its own variable throughout (none of its uses there is
    converted either): the finding is at that import. Renaming the other binding (`logged_to_float = logged(to_float)`) lets a second run convert the TensorFlow uses."""

    infos = (
        RuleInfo(
            code="TFM616",
            name="tf-name-rebound",
            summary="a name imported from TensorFlow is bound again in the module: its uses are left as they are",
            message="a name imported from TensorFlow is bound again here: none of its uses is converted",
            why=__doc__,
            fix="report only",
            severity=Severity.WARNING,
            before=BEFORE,
            after="",
        ),
    )

    def leave_module(self, original, updated):
        ctx = self.ctx
        if not ctx.selection.enabled("TFM616") or ctx.tree is None:
            return updated
        found = [(node, f"`{local}` is imported from TensorFlow (`{binding.target}`) and bound again here: none of "
                  "its uses is converted (TF1 names among them keep failing in TF2); rename this binding, or convert "
                  "them by hand") for local, (binding, node) in sorted(ctx.imports.rebound.items())
                 if canonical_tf(binding.target) is not None and not is_private(binding.target)]  # no rule knows a private name
        found += [(node, f"`{local}` is imported from TensorFlow here and bound again in the same function: none of "
                   "its uses there is converted; rename the other binding, or convert them by hand")
                  for local, node in rebound_in_functions(ctx.tree)]
        if found and ctx.tf_version.version is not TFVersion.TF2:  # TF2 code: nothing of TF1's is left unconverted
            for node, message in found:
                ctx.report(node, "TFM616", message, fixable=False)
        return updated
