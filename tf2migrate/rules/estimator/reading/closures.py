"""A model_fn returned by a builder function: `def model_fn_builder(cfg, lr): def model_fn(...): ...; return model_fn`.

BERT, ALBERT and many trainers write the model_fn as a closure over the builder's arguments, then pass
`model_fn_builder(...)` (or a name bound to it) to the Estimator. The conversion keeps the builder and its
arguments: inside it, the model_fn becomes the Keras Model subclass (model_subclass.py; its methods read the same
closure variables) and a `build_model(params)` function, which the builder now returns. The Estimator's place
then calls what the builder returned: `model = model_fn(params)` (or `model_fn_builder(cfg, lr)(params)`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.rules.estimator.planning.optimizers import read_optimizer
from tf2migrate.rules.estimator.reading import main_body
from tf2migrate.rules.estimator.reading.uses import assignment
from tf2migrate.rules.estimator.syntax import templates
from tf2migrate.rules.estimator.syntax.args import Unreadable
from tf2migrate.rules.estimator.syntax.kept_source import names_in


@dataclass
class Closure:
    index: int  # the builder's index in the module body
    builder: cst.FunctionDef
    inner: int  # the model_fn's index in the builder's body
    site: cst.BaseExpression  # what the Estimator was given: the builder's call, or the name bound to it
    applied: frozenset = frozenset()  # names of the builder's optimizers the model_fn's train op applies

    @property
    def model_fn(self) -> cst.FunctionDef:
        return self.builder.body.body[self.inner]

    def optimizers(self, ctx) -> dict:
        """name -> (index in the builder's body, TF1 optimizer call) of the optimizers the builder makes before the
        model_fn (`optimizer = tf1.train.GradientDescentOptimizer(0.2)`), which the model_fn's train op may apply."""
        found = {}
        for k, stmt in enumerate(self.builder.body.body[:self.inner]):
            target, value = assignment(stmt)
            if target is not None and isinstance(value, cst.Call) and read_optimizer(value, ctx) is not None:
                found[target] = (k, value)
        return found

    def dropped(self, ctx, read: set) -> set:
        """Indices of the builder's optimizer statements the conversion replaces (compile's optimizer): those the
        model_fn applies and nothing else of the builder reads."""
        others = [s for k, s in enumerate(self.builder.body.body) if k != self.inner]
        return {k for name, (k, _) in self.optimizers(ctx).items() if name in read
                and not any(name in names_in(s) for j, s in enumerate(others) if s is not self.builder.body.body[k])}

    def defs(self) -> dict:
        """The functions and classes the builder defines besides the model_fn (the model_fn may call them)."""
        return {s.name.value: s for k, s in enumerate(self.builder.body.body)
                if isinstance(s, (cst.FunctionDef, cst.ClassDef)) and k != self.inner}


def find(module: cst.Module, prog) -> Optional[Closure]:
    """The builder closure the Estimator's `model_fn=` names, or None when it is something else."""
    site = prog.bound.get("model_fn")
    call = site
    if isinstance(site, cst.Name) and site.value not in prog.defs:
        call = prog.values.get(site.value)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name)):
        return None
    builder = prog.defs.get(call.func.value)
    if not (isinstance(builder, cst.FunctionDef) and isinstance(builder.body, cst.IndentedBlock)):
        return None
    body = builder.body.body
    last = body[-1].body[0] if isinstance(body[-1], cst.SimpleStatementLine) and len(body[-1].body) == 1 else None
    if not (isinstance(last, cst.Return) and isinstance(last.value, cst.Name)):
        return None
    inner = [k for k, s in enumerate(body) if isinstance(s, cst.FunctionDef) and s.name.value == last.value.value]
    if len(inner) != 1:
        return None
    index = next(i for i, stmt in enumerate(module.body) if stmt is builder)
    return Closure(index, builder, inner[0], site)


def updated_model_fn(closure: Closure, updated_builder) -> cst.FunctionDef:
    """The model_fn as the other rules left it, inside the updated builder."""
    body = updated_builder.body.body if isinstance(updated_builder, cst.FunctionDef) else ()
    if len(body) != len(closure.builder.body.body) or not isinstance(body[closure.inner], cst.FunctionDef):
        raise Unreadable(closure.builder.name, "the model_fn builder was reshaped by another rule: convert by hand")
    return body[closure.inner]


def builder(closure: Closure, updated_builder: cst.FunctionDef, made: list, w) -> cst.FunctionDef:
    """The builder with the model class and `build_model` in place of the model_fn, returning `build_model`."""
    body = list(updated_builder.body.body)
    new = main_body.block_lines(made)
    new = [new[0].with_changes(leading_lines=body[closure.inner].leading_lines),
           *[stmt.with_changes(leading_lines=[cst.EmptyLine(indent=False)]) for stmt in new[1:]]]
    returned = templates.statement("return {name}", w, name=w.build_name)
    body[-1] = returned.with_changes(leading_lines=body[-1].leading_lines)
    body[closure.inner:closure.inner + 1] = new
    gone = sorted(closure.dropped(w.ctx, closure.applied))  # made anew, with TF1's numbers, by build_model
    for k in reversed(gone):  # its comments stay, above the next statement
        comments = [line for line in body[k].leading_lines if line.comment is not None]
        body[k + 1] = body[k + 1].with_changes(leading_lines=[*comments, *body[k + 1].leading_lines])
        del body[k]
    return updated_builder.with_changes(body=updated_builder.body.with_changes(body=body))
