"""Source text for kept TF1 expressions, with the names that mean the same in TF2 spelled through `tf`.

Input functions, layer arguments and prediction code are copied from the original; a `tf1.data.Dataset`
there works in TF2, but the migrated file reads better (and can drop `compat.v1`) when it says
`tf.data.Dataset`. Only names whose TF1 and TF2 meaning is identical are respelled; a call that passes
a TF1-only keyword (`keep_dims`, `dimension`) keeps its compat spelling.
"""
from __future__ import annotations

import libcst as cst

from tf2migrate.engine.emit import source
from tf2migrate.engine.imports import dotted

SAME_PREFIXES = ("tf.data.", "tf.math.", "tf.keras.", "tf.random.", "tf.feature_column.numeric_column",
                 "tf.feature_column.indicator_column", "tf.feature_column.embedding_column")
SAME_NAMES = frozenset(
    "tf." + n for n in (
        "nn.relu nn.relu6 nn.elu nn.selu nn.sigmoid nn.tanh nn.softmax nn.softplus nn.softsign nn.leaky_relu "
        "nn.swish nn.gelu nn.log_softmax float16 float32 float64 int32 int64 bool string cast reshape constant "
        "ones zeros shape squeeze expand_dims concat stack sigmoid tanh newaxis identity range one_hot argmax "
        "argmin matmul square sqrt exp abs maximum minimum where equal round add_n nn.l2_loss "
        "distribute.ReductionToOneDevice "
        "distribute.HierarchicalCopyAllReduce distribute.NcclAllReduce"
    ).split()
)
TF1_ONLY_KEYWORDS = frozenset({"keep_dims", "dimension", "reduction_indices", "axis_name", "dim"})
# under a prefix above, but TF1's alone: `tf.compat.v1.data.make_one_shot_iterator` must keep its compat spelling
NOT_SAME = frozenset("tf.data." + n for n in (
    "make_one_shot_iterator make_initializable_iterator get_output_classes get_output_shapes get_output_types "
    "Iterator").split())


def same_in_tf2(canonical: str) -> bool:
    return canonical not in NOT_SAME and (canonical in SAME_NAMES or canonical.startswith(SAME_PREFIXES))


class _Respell(cst.CSTTransformer):
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self._keep: set = set()

    def visit_Call(self, node: cst.Call) -> None:
        if any(a.keyword is not None and a.keyword.value in TF1_ONLY_KEYWORDS for a in node.args):
            self._keep.add(id(node.func))

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        return self._target(node) is None

    def _target(self, node):
        if id(node) in self._keep or dotted(node) is None:
            return None
        literal, canonical = self.ctx.imports.resolve(node)
        if canonical and ".compat." in (literal or "") and same_in_tf2(canonical):
            return canonical
        return None

    def leave_Attribute(self, original, updated):
        canonical = self._target(original)
        return self.ctx.emit.attribute(canonical) if canonical else updated


def respell(node: cst.CSTNode, ctx) -> cst.CSTNode:
    """`node` with TF1 spellings of TF2-identical names written through the file's `tf` alias."""
    return node.visit(_Respell(ctx))


def text(node: cst.CSTNode, ctx) -> str:
    return source(respell(node, ctx))


def names_in(expr) -> set:
    """Bare names an expression reads (not attribute names or keywords)."""
    out: set = set()

    class _V(cst.CSTVisitor):
        def visit_Attribute(self, node):
            node.value.visit(self)
            return False

        def visit_Arg(self, node):
            node.value.visit(self)
            return False

        def visit_Name(self, node):
            out.add(node.value)

    expr.visit(_V())
    return out


def names_in_module(module: cst.Module, memo: dict) -> set:
    """`names_in(module)`, from each top-level statement's names kept in `memo` (a file's `ctx.memo`): the views of
    one module (a switch's branches, its flattened `main`) share most statements (tensor2tensor's trainer_lib.py:
    the second branch's writer reads its names in 4 ms instead of 30)."""
    out: set = set()
    for stmt in module.body:
        kept = memo.get(("names-in", id(stmt)))
        if kept is None or kept[0] is not stmt:
            kept = memo[("names-in", id(stmt))] = (stmt, names_in(stmt))
        out |= kept[1]
    return out


def one_per_line(expr, indent: str):
    """A dict or list literal that spans lines, laid out as black writes it: one element per line, one level
    in, the closing bracket back at the statement's level (its old layout followed the call it came from).
    Comments between the elements stay, one level in."""
    if not isinstance(expr, (cst.Dict, cst.List)) or not expr.elements or "\n" not in source(expr):
        return expr
    opening, closing = ("lbrace", "rbrace") if isinstance(expr, cst.Dict) else ("lbracket", "rbracket")

    def line(old, last: str) -> cst.ParenthesizedWhitespace:
        if not isinstance(old, cst.ParenthesizedWhitespace):
            return cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(last))
        comments = [e.with_changes(indent=True, whitespace=cst.SimpleWhitespace(indent if e.comment else ""))
                    for e in old.empty_lines]
        return old.with_changes(empty_lines=comments, indent=True, last_line=cst.SimpleWhitespace(last))

    last = len(expr.elements) - 1
    close = getattr(expr, closing)
    elements = []
    for k, el in enumerate(expr.elements):
        old = el.comma.whitespace_after if isinstance(el.comma, cst.Comma) else close.whitespace_before
        elements.append(el.with_changes(comma=cst.Comma(whitespace_after=line(old, indent if k < last else ""))))
    open_ = getattr(expr, opening)
    return expr.with_changes(**{opening: open_.with_changes(whitespace_after=line(open_.whitespace_after, indent)),
                                "elements": elements,
                                closing: close.with_changes(whitespace_before=cst.SimpleWhitespace(""))})


def references(module, name: str, *, plain: bool = False) -> int:
    """How many times `name` is read in `module` (a def's own name is no use of it). `plain`: only as a
    plain name, not as an attribute (`x.name`) or a keyword (`f(name=...)`)."""
    count = 0

    class _V(cst.CSTVisitor):
        def visit_Name(self, node):
            nonlocal count
            count += node.value == name

        def visit_Attribute(self, node):
            if not plain:
                return True
            node.value.visit(self)
            return False

        def visit_Arg(self, node):
            if not plain:
                return True
            node.value.visit(self)
            return False

        def visit_FunctionDef(self, node):
            for part in (node.params, node.body, *node.decorators, *([node.returns] if node.returns else [])):
                part.visit(self)
            return False

    module.visit(_V())
    return count
