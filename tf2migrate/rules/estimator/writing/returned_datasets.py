"""An input function that returns its iterator's tensors (`dataset.make_one_shot_iterator().get_next()`, or the
same in three statements) returns its dataset instead: Keras iterates the dataset itself, and a TF2 Dataset has
no make_one_shot_iterator (TFM301). Used where input functions are kept (body_pieces.render_kept) and rewritten
in their own modules (input_modules.py).
"""
from __future__ import annotations

import libcst as cst

_ITERATOR_FUNCTIONS = ("tf.data.make_one_shot_iterator", "tf.compat.v1.data.make_one_shot_iterator")


class _ReturnDataset(cst.CSTTransformer):
    """`return dataset.make_one_shot_iterator().get_next()` -> `return dataset`: Keras iterates the dataset itself
    (and a TF2 Dataset has no make_one_shot_iterator)."""

    def __init__(self, ctx, notes, places=None) -> None:
        self.ctx, self.notes, self.places = ctx, notes, places

    def leave_Return(self, original, updated):
        value = updated.value
        if not (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute)
                and value.func.attr.value == "get_next" and isinstance(value.func.value, cst.Call)):
            return updated
        inner = value.func.value
        if isinstance(inner.func, cst.Attribute) and inner.func.attr.value == "make_one_shot_iterator" and not inner.args:
            dataset = inner.func.value
        elif self.ctx.resolve(inner.func)[1] in _ITERATOR_FUNCTIONS and len(inner.args) == 1:  # also TFM657's output
            dataset = inner.args[0].value
        else:
            return updated
        place = next(self.places, original.value) if self.places is not None else original.value
        self.notes.append((place, "TFM301", "the input function returns its dataset: Keras iterates it"))
        if value.lpar and not dataset.lpar:  # `return (ds.batch(128)\n.repeat().make_one_shot_iterator().get_next())`
            dataset = dataset.with_changes(lpar=value.lpar, rpar=value.rpar)  # spans lines: keep the brackets
        return updated.with_changes(value=dataset)

    def leave_FunctionDef(self, original, updated):
        """`it = dataset.make_one_shot_iterator(); x, y = it.get_next(); return x, y` -> `return dataset`: the
        same input function, spelled in three statements (tensorflow/models' blog_custom_estimators.py)."""
        body = list(updated.body.body)
        if len(body) >= 2 and (two := self._unpacked_next(original, updated)) is not None:
            return two
        if len(body) < 3:
            return updated
        made, unpacked, returned = body[-3:]
        iterator, dataset = _one_assignment(made)
        names, next_of = _one_assignment(unpacked)
        if not (isinstance(iterator, cst.Name) and dataset is not None and next_of is not None):
            return updated
        dataset = self._iterated(dataset)
        if dataset is None or not (isinstance(next_of, cst.Call) and not next_of.args
                                   and isinstance(next_of.func, cst.Attribute) and next_of.func.attr.value == "get_next"
                                   and next_of.func.value.deep_equals(iterator)):
            return updated
        value = returned.body[0].value if isinstance(returned, cst.SimpleStatementLine) and len(returned.body) == 1 \
            and isinstance(returned.body[0], cst.Return) else None
        if value is None or not _same_names(names, value):
            return updated
        first = original.body.body[-3]  # a node of the tree this visit was given, which findings can place
        place = next(self.places, first) if self.places is not None else first
        self.notes.append((place, "TFM301", "the input function returns its dataset: Keras iterates it"))
        new = cst.SimpleStatementLine([cst.Return(dataset)], leading_lines=made.leading_lines)
        return updated.with_changes(body=updated.body.with_changes(body=body[:-3] + [new]))

    def _unpacked_next(self, original, updated):
        """`x, y = dataset.make_one_shot_iterator().get_next(); return x, y` -> `return dataset`: the same input
        function in two statements (a TPU MNIST example's `images, labels = ds.make_one_shot_iterator()...`)."""
        unpacked, returned = list(updated.body.body)[-2:]
        names, next_of = _one_assignment(unpacked)
        if not (isinstance(next_of, cst.Call) and not next_of.args and isinstance(next_of.func, cst.Attribute)
                and next_of.func.attr.value == "get_next"):
            return None
        dataset = self._iterated(next_of.func.value)
        value = returned.body[0].value if isinstance(returned, cst.SimpleStatementLine) and len(returned.body) == 1 \
            and isinstance(returned.body[0], cst.Return) else None
        if dataset is None or value is None or not _same_names(names, value):
            return None
        first = original.body.body[-2]
        place = next(self.places, first) if self.places is not None else first
        self.notes.append((place, "TFM301", "the input function returns its dataset: Keras iterates it"))
        new = cst.SimpleStatementLine([cst.Return(dataset)], leading_lines=unpacked.leading_lines)
        return updated.with_changes(body=updated.body.with_changes(body=list(updated.body.body)[:-2] + [new]))

    def _iterated(self, call):
        """The dataset of `dataset.make_one_shot_iterator()` / `make_one_shot_iterator(dataset)`, else None."""
        if not isinstance(call, cst.Call):
            return None
        if isinstance(call.func, cst.Attribute) and call.func.attr.value == "make_one_shot_iterator" and not call.args:
            return call.func.value
        if self.ctx.resolve(call.func)[1] in _ITERATOR_FUNCTIONS and len(call.args) == 1:
            return call.args[0].value
        return None


def _one_assignment(stmt) -> tuple:
    """(target, value) of `target = value` alone on its line, else (None, None)."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign) \
            and len(stmt.body[0].targets) == 1:
        return stmt.body[0].targets[0].target, stmt.body[0].value
    return None, None


def _same_names(target, value) -> bool:
    """`x, y` unpacked and `x, y` returned (or one name both times), in the same order; a `None` returned after
    one name (`return features, None`: no labels, for predict) adds nothing to what the dataset yields."""
    left = [target] if isinstance(target, cst.Name) else [e.value for e in target.elements] \
        if isinstance(target, (cst.Tuple, cst.List)) else None
    right = [value] if isinstance(value, cst.Name) else [e.value for e in value.elements] \
        if isinstance(value, cst.Tuple) else None
    if left is None or right is None or len(right) < len(left):
        return False
    extra = right[len(left):]
    if extra and isinstance(target, (cst.Tuple, cst.List)):
        return False  # `x, y = it.get_next(); return x, y, None`: another structure
    return all(isinstance(a, cst.Name) and isinstance(b, cst.Name) and a.value == b.value
               for a, b in zip(left, right)) and all(isinstance(e, cst.Name) and e.value == "None" for e in extra)
