"""TFM322: the Estimator a file trains comes from another module this run could not convert with it.

`task.py` given alone (`tf2migrate rewrite trainer/task.py`), or with a `model.py` whose helper is not a
`return Estimator(...)`: the file is left as it was, and the finding says where the Estimator comes from and
what to do. Read from Python's `ast` (the rule found no program to convert).
"""
from __future__ import annotations

from tf2migrate.engine.imports import ast_dotted
from tf2migrate.rules.estimator.package.idle_neighbours import trained_imported
from tf2migrate.rules.estimator.program import built_elsewhere


def report_foreign(ctx) -> bool:
    """TFM322 where an Estimator this file trains comes from another module the run could not read."""
    if ctx.tree is None:
        return False
    found, imported = trained_imported(ctx.tree, ctx.imports, getattr(ctx.package, "name", "") or "_")
    given = {n for n, _, _ in ctx.package.modules} if ctx.package is not None else set()
    local = {name: module in given or f"{module}.{attr}" in given  # local name -> its module was given
             for name, (module, attr) in imported.items()}
    reported = False
    for node in found:
        helper = ast_dotted(node.value.func)
        what = f"`{node.targets[0].id}` is the Estimator `{helper}(...)` returns, built in another module"
        if helper in built_elsewhere.helpers(ctx):  # read, but the program is not where the conversion reads one
            why = (f"{what}; the program that trains it must stand at the top level of this module or directly "
                   "in one function's body (`def main():`): move it there or convert both modules by hand")
        elif local[helper.split(".")[0]]:  # given, but its helper is not readable
            why = (f"{what}, whose helper is not a top-level function whose body is `return Estimator(...)`: "
                   "write it so (then both modules convert together) or convert both by hand")
        else:
            why = f"{what}: pass the whole package to `tf2migrate rewrite` so that both modules convert together"
        reported |= ctx.report(node.value, "TFM322", why, fixable=False)
    return reported
