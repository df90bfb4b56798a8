"""TFM502-TFM506: the input pipeline of a distributed program.

list_files without a seed (TFM502), stateful random ops in `map` (TFM503), `shard` after `batch` or
`map` (TFM504), a global batch that does not divide by the replica count (TFM505), an input function
without `prefetch` (TFM506).
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.rules.call_edit import arg_value
from tf2migrate.rules.dist_input.analysis import input_facts, method_chain

STATEFUL_RANDOM = ("tf.random.uniform", "tf.random.normal", "tf.random.truncated_normal", "tf.random.shuffle",
                   "tf.random.categorical", "tf.random.gamma", "tf.random.poisson", "tf.random_uniform",
                   "tf.random_normal", "tf.image.random_", "tf.nn.dropout")


class _Pipeline(cst.CSTVisitor):
    def __init__(self, ctx, facts) -> None:
        self.ctx, self.facts = ctx, facts
        self.found: list = []

    def visit_Call(self, node: cst.Call) -> None:
        canonical = self.ctx.imports.canonical(node.func) or ""
        if canonical == "tf.data.Dataset.list_files" and self.facts.multi_worker:
            shuffle = arg_value(node, "shuffle", 1)
            if arg_value(node, "seed") is None and not (isinstance(shuffle, cst.Name) and shuffle.value == "False"):
                self.found.append((node, "TFM502", None))
        chain = method_chain(node)
        if chain and chain[-1][0] == "shard":
            earlier = [name for name, _ in chain[:-1]]
            if "batch" in earlier or "map" in earlier:
                self.found.append((node, "TFM504", None))
        if chain and chain[-1][0] == "map" and node.args:
            self._random_in_map(node.args[0].value)
        if chain and chain[-1][0] == "batch" and self.facts.replicas:
            self._divisible(node)

    def _random_in_map(self, fn) -> None:
        if isinstance(fn, cst.Name):
            bodies = [d.body for d in self.facts.defs.get(fn.value, ())]
        elif isinstance(fn, cst.Lambda):
            bodies = [fn.body]
        else:
            return
        finder = _RandomOps(self.ctx)
        for body in bodies:
            body.visit(finder)
        self.found.extend((call, "TFM503", None) for call in finder.found)

    def _divisible(self, node: cst.Call) -> None:
        size, drop = arg_value(node, "batch_size", 0), arg_value(node, "drop_remainder", 1)
        if isinstance(size, cst.Integer) and int(size.evaluated_value) % self.facts.replicas:
            if not (isinstance(drop, cst.Name) and drop.value == "True"):
                msg = (f"global batch {size.value} does not divide by {self.facts.replicas} replicas: "
                       "replicas get different batch sizes and the gradient math changes")
                self.found.append((node, "TFM505", msg))


class _RandomOps(cst.CSTVisitor):
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.found: list = []

    def visit_Call(self, node: cst.Call) -> None:
        canonical = self.ctx.imports.canonical(node.func) or ""
        if canonical.startswith(STATEFUL_RANDOM) and "stateless" not in canonical:
            self.found.append(node)


class _HasPrefetch(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.found = self.found or node.attr.value == "prefetch"


def find(ctx, module: cst.Module) -> list:
    facts = input_facts(ctx)
    if not facts.distributes:
        return []
    visitor = _Pipeline(ctx, facts)
    module.visit(visitor)
    for fn in facts.input_fns:
        has = _HasPrefetch()
        fn.visit(has)
        if not has.found:
            visitor.found.append((fn, "TFM506", None))
    return visitor.found
