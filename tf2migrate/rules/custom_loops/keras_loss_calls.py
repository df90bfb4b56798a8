"""Which calls of a default-reduction Keras loss object can be fixed, and how.

A call inside a replica function is safe to fix when its result is the loss: assigned to a name
that goes to `tape.gradient` (wrap it in `compute_average_loss`), returned (wrap), or already
passed to `compute_average_loss` (only the reduction changes). Anything else: report only.
"""
from __future__ import annotations

import libcst as cst


class _Calls(cst.CSTVisitor):
    def __init__(self, names: set) -> None:
        self.names = names
        self.calls: list = []  # (loss object name, Call)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in self.names:
            self.calls.append((node.func.value, node))

    def visit_FunctionDef(self, node) -> bool:
        return False


def plan(facts) -> tuple:
    """(objects safe to fix, {id of a call to wrap: object name}, objects used unsafely)."""
    names = set(facts.loss_objects)
    wrap, unsafe, used = {}, set(), set()
    for fn, sites in facts.sites:
        finder = _Calls(names)
        fn.body.visit(finder)
        for name, call in finder.calls:
            used.add(name)
            target = sites.assigned_calls.get(id(call))
            if (target is not None and target in sites.averaged_names) or id(call) in sites.averaged_calls:
                continue  # already averaged by hand: only the reduction must change
            if (target is not None and target in sites.gradient_targets) or id(call) in sites.returned_calls:
                wrap[id(call)] = name
            else:
                unsafe.add(name)
    return used - unsafe, wrap, unsafe
