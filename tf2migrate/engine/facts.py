"""What a module says about its own names: `x = tf.keras.metrics.Mean()` makes `x` a Keras metric.

Rules use these facts as proofs before touching a method call whose name alone is ambiguous
(`reset_states`, `unwrap`). Collected once per module, on first use.
"""
from __future__ import annotations

import ast
import weakref

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted, dotted


class Facts:
    """Read from Python's `ast` (fast), keyed by dotted text, so LibCST nodes can ask by `dotted()`."""

    def __init__(self, ctx) -> None:
        # the context keeps its facts (`Context.facts`): a strong reference back would make a cycle, and the
        # module's `ast` tree with it would wait for the cyclic collector instead of going with the file
        self.ctx = weakref.proxy(ctx)
        self.made_by: dict = {}  # dotted target -> set of canonical callee names
        for node in nodes(ctx.tree, ast.Assign, ast.AnnAssign):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            if not isinstance(value, ast.Call):
                continue
            canonical = ctx.imports.ast_canonical(value.func)
            if canonical:
                for target in targets:
                    name = ast_dotted(target)
                    if name:
                        self.made_by.setdefault(name, set()).add(canonical)

    def made_by_any(self, expr: cst.BaseExpression, predicate) -> bool:
        """True if `expr` is, or names something assigned from, a call to a matching TF symbol."""
        if isinstance(expr, cst.Call):
            _, canonical = self.ctx.resolve(expr.func)
            return bool(canonical) and predicate(canonical)
        name = dotted(expr)
        return name is not None and any(predicate(c) for c in self.made_by.get(name, ()))


def is_strategy(canonical: str) -> bool:
    return canonical.endswith("Strategy") or canonical in (
        "tf.distribute.get_strategy",
        "tf.distribute.experimental.get_strategy",
    )


def is_keras_metric(canonical: str) -> bool:
    return canonical.startswith("tf.keras.metrics.") or canonical.startswith("keras.metrics.")
