"""`numpy_input_fn` / `pandas_input_fn` -> an input function that returns the same examples as a `tf.data` pipeline.

Both fed a queue from a thread (TF 2.16 has neither, and a queue does not run eagerly). In order
(`shuffle=False`, one thread) they gave the examples as stored, `num_epochs` times (forever for None), in
batches of `batch_size`, the last one partial: `from_tensor_slices(data).repeat(num_epochs).batch(batch_size)`
gives the same batches. `shuffle=True` drew from a `RandomShuffleQueue` of `queue_capacity` examples, whose
order no seed fixes: it becomes `.shuffle(queue_capacity)` before the repeat, which is how `verify` runs the
original too (harness/capture/queue_inputs.py), so the two sides are compared on the same order.

Converted only where the program's runs call the input function by the name it was assigned to (a
`def` takes the assignment's place) and the arguments are literals where they decide the pipeline's shape;
otherwise the call stays and the unconverted rule reports it.
"""
from __future__ import annotations

from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.reading.uses import assignment, callee
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable, bind, literal
from tf2migrate.rules.estimator.writing import body_pieces

PARAMS = ("x", "y", "batch_size", "num_epochs", "shuffle", "queue_capacity", "num_threads", "target_column")
FUNCTIONS = {"tf.estimator.inputs.numpy_input_fn": "numpy", "tf.compat.v1.estimator.inputs.numpy_input_fn": "numpy",
             "tf.estimator.inputs.pandas_input_fn": "pandas", "tf.compat.v1.estimator.inputs.pandas_input_fn": "pandas"}
NOTE = ("{name}(shuffle={shuffle}) became a tf.data pipeline of the same examples: from_tensor_slices{steps}"
        "{order}")


def bound(orig, prog, ctx) -> Optional[tuple]:
    """(kind, {param: expression}) when the statement `name = numpy_input_fn(...)` converts, else None."""
    name, value = assignment(orig)
    kind = FUNCTIONS.get(callee(value, ctx)) if name in prog.input_fns and value is not None else None
    if kind is None:
        return None
    try:
        args = bind(value, PARAMS, "numpy_input_fn")
    except Unreadable:
        return None
    if "x" not in args or not isinstance(literal(args.get("shuffle")), bool) or "target_column" in args:
        return None  # TF1 raised without a bool shuffle; target_column: pandas' label column, not converted
    for key in ("num_epochs", "batch_size", "queue_capacity", "num_threads"):
        if key in args and not _literal_or_name(args[key]):
            return None
    return kind, args


def function(orig, stmt, w, notes) -> cst.BaseStatement:
    """The `def name():` that returns the pipeline, in place of the assignment."""
    kind, args = bound(orig, w.prog, w.ctx)
    name = assignment(orig)[0]
    x = w.text(args["x"])
    data = f"dict({x})" if kind == "pandas" else x
    if "y" in args and not (isinstance(args["y"], cst.Name) and args["y"].value == "None"):
        data = f"({data}, {w.text(args['y'])})"
    shuffle = literal(args["shuffle"])
    epochs = args.get("num_epochs")
    steps = []
    if shuffle:
        steps.append(f".shuffle({w.text(args['queue_capacity']) if 'queue_capacity' in args else 1000})")
    if epochs is not None and literal(epochs) != 1:  # absent: one epoch, TF1's default
        steps.append(".repeat()" if _none(epochs) else f".repeat({w.text(epochs)})")
    steps.append(f".batch({w.text(args['batch_size']) if 'batch_size' in args else 128})")
    head = f"{w.tf('tf.data.Dataset')}.from_tensor_slices({data})"
    one = f"return {head}{''.join(steps)}"
    if templates.fits(one, w.indent, 2):
        body = f"{w.indent}{one}"
    else:
        inner = "".join(f"{w.indent * 2}{part}\n" for part in [head, *steps])
        body = f"{w.indent}return (\n{inner}{w.indent})"
    threads = args.get("num_threads")
    order = ", in order" if not shuffle else ", shuffled by tf.data (seeded the same way by `verify`)"
    if threads is not None and literal(threads) != 1:
        order += f"; num_threads={w.text(threads)} fed the queue in a racing order, tf.data reads in order"
    notes.append((orig.body[0].value, "TFM301", NOTE.format(name=f"{kind}_input_fn", shuffle=shuffle,
                                                            steps=" -> ".join(["", *steps]), order=order)))
    code = f"def {name}():\n{body}\n"  # the user's expressions as text: parsed whole, not as a template
    made = body_pieces.with_lines([cst.parse_module(code, config=w.module.config_for_parsing).body[0]], stmt)[0]
    return made.with_changes(leading_lines=made.leading_lines or [cst.EmptyLine()])  # a blank line above a def


def _none(expr) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _literal_or_name(expr) -> bool:
    """A literal, or a plain name or attribute (a flag): an expression the pipeline can take as it is."""
    return isinstance(expr, (cst.Integer, cst.Name, cst.Attribute)) or literal(expr) is not None
