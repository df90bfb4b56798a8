"""An Estimator built by a helper of another module of the package: `model.build_estimator(config, params)`.

The program (`task.py`) and the helper with its model_fn (`model.py`) convert together or not at all. The
engine's package pre-pass (`engine/package.py`) gives each file the text of the other (`ctx.package`); this
module reads that neighbour with its own imports and places. In the program, the helper call is read as the
`Estimator(...)` it returns, as `builders.py` does within one module, and becomes `model.build_model(params)`:
the same name and signature the neighbour's rewrite gives the converted model_fn (`helper_module.py`).
Without the neighbour, TFM321 says where the Estimator comes from and to pass the whole package.
"""
from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass
from typing import Optional

import libcst as cst

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.imports import ast_dotted
from tf2migrate.engine.package import PackageView, imported_modules
from tf2migrate.rules.estimator import builders
from tf2migrate.rules.estimator.args import Unreadable

_LITERALS = (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString)


@dataclass
class Neighbour:
    name: str  # dotted module name
    path: str
    module: cst.Module
    ctx: object  # its own Context: imports, names, places
    defs: dict  # top-level functions and classes by name


@dataclass
class External(builders.Builder):
    """A helper of another module (`index` is None: no statement of this file goes with it)."""

    owner: Optional[Neighbour] = None
    prefix: str = ""  # `model` for `model.build_estimator(...)`, "" for a from-imported `build_estimator(...)`


def neighbour(ctx, name: str) -> Optional[Neighbour]:
    """The module `name` of `ctx.package`, parsed once per file; its own view holds this file."""
    key = ("neighbour", name)
    if key not in ctx.memo:
        from tf2migrate.engine.apply import context_for

        found = ctx.package.text_of(name) if ctx.package is not None else None
        ctx.memo[key] = None
        if found is not None:
            path, text = found
            try:
                view = PackageView(name, ((ctx.package.name, ctx.path, ctx.text),))
                module, nctx = context_for(text, path, ctx.selection, view)
            except (SyntaxError, ValueError, cst.ParserSyntaxError):
                return None
            defs = {s.name.value: s for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
            ctx.memo[key] = Neighbour(name, path, module, nctx, defs)
    return ctx.memo[key]


def helpers(ctx) -> dict:
    """The Estimator helpers of the package's other modules, by how this file calls them
    (`model.build_estimator` or `build_estimator`)."""
    if ctx.package is None or ctx.tree is None:
        return {}
    if "other-helpers" in ctx.memo:
        return ctx.memo["other-helpers"]
    from tf2migrate.rules.estimator.analyze import is_estimator

    out = {}
    names = {n for n, _, _ in ctx.package.modules}
    for local, (module, attr) in imported_modules(ctx.tree, ctx.package.name).items():
        whole = f"{module}.{attr}" if attr is not None else module
        owner_name, wanted = (whole, None) if whole in names else (module, attr) if attr else (None, None)
        owner = neighbour(ctx, owner_name) if owner_name in names else None
        if owner is None:
            continue
        for name, b in builders.find(owner.module, lambda v: is_estimator(v, owner.ctx)).items():
            if wanted is None:
                out[f"{local}.{name}"] = External(None, b.fn, b.call, owner, local)
            elif name == wanted:
                out[local] = External(None, b.fn, b.call, owner, "")
    ctx.memo["other-helpers"] = out
    return out


def external(prog) -> Optional[External]:
    return prog.builder if isinstance(prog.builder, External) else None


def read_model(prog, ctx) -> None:
    """The model_fn the helper names, read in its own module; what this file cannot write blocks at the call."""
    from tf2migrate.rules.estimator.analyze import is_estimator
    from tf2migrate.rules.estimator.model_fn import read_model_fn

    b, site = prog.builder, prog.builder_site
    where = f"{b.owner.path}"
    fn = prog.bound.get("model_fn")
    if not b.prefix:
        prog.blockers.append(Unreadable(site, f"`{b.fn.name.value}` is imported from {where} by name: import its "
                                        "module (`from package import module`) and call `module."
                                        f"{b.fn.name.value}(...)`, or convert by hand"))
        return
    if not b.owner.ctx.allowed(b.call, "TFM301"):
        prog.blockers.append(Unreadable(site, f"the helper in {where} is not converted there (a skip comment or "
                                        "--ignore): this program stays as it is with it"))
        return
    if prog.tpu is not None or not is_estimator(b.call, b.owner.ctx) or \
            b.owner.ctx.resolve(b.call.func)[1] != "tf.estimator.Estimator":
        prog.blockers.append(Unreadable(site, f"the helper in {where} builds a canned or TPU Estimator: only "
                                        "`Estimator(model_fn=...)` converts across modules; convert by hand"))
        return
    if not isinstance(fn, cst.Name) or not isinstance(b.owner.defs.get(fn.value), cst.FunctionDef):
        prog.blockers.append(Unreadable(site, f"the model_fn of the helper in {where} is not a function defined "
                                        "at the top level of that module: convert by hand"))
        return
    for key, value in prog.bound.items():
        if key != "model_fn" and _foreign(value, b) and not isinstance(value, _LITERALS):
            prog.blockers.append(Unreadable(site, f"the helper in {where} computes Estimator({key}=...) itself: "
                                            "pass it as a parameter or convert by hand"))
            return
    if _reads(b.owner.module, fn.value) != 1 or _reads(b.owner.module, b.fn.name.value):
        prog.blockers.append(Unreadable(site, f"`{fn.value}` or `{b.fn.name.value}` is used elsewhere in {where}: "
                                        "both go with the conversion; convert by hand"))
        return
    plan = read_model_fn(b.owner.defs[fn.value], b.owner.ctx, b.owner.defs)
    if plan.blockers or plan.forward_blockers:
        why = f"the model_fn `{fn.value}` in {where} does not convert (see the findings there)"
    elif plan.training_hooks is not None or plan.metric_fns or plan.chain.partitioners \
            or (plan.predictions is not None and not (isinstance(plan.predictions, cst.Name)
                                                     and plan.predictions.value == plan.chain.output)):
        why = (f"the model_fn `{fn.value}` in {where} has training hooks, a PREDICT dict, a metric_fn or a "
               "partitioner: these convert only when the model_fn is in the program's module")
    else:
        why = None
    if why:
        prog.blockers.append(Unreadable(site, why + "; convert by hand or move the model_fn next to the program"))
    prog.model = plan


def _reads(module, name: str) -> int:
    """How many times `name` is read in `module` (not a def's own name, a keyword or an attribute)."""
    count = 0

    class _V(cst.CSTVisitor):
        def visit_Name(self, node):
            nonlocal count
            count += node.value == name

        def visit_Attribute(self, node):
            node.value.visit(self)
            return False

        def visit_Arg(self, node):
            node.value.visit(self)
            return False

        def visit_FunctionDef(self, node):
            for part in (node.params, node.body, *node.decorators):
                part.visit(self)
            return False

    module.visit(_V())
    return count


def _foreign(value, builder) -> bool:
    """Is `value` a node of the helper's module (not an argument this file passed)?"""
    found = []

    class _V(cst.CSTVisitor):
        def on_visit(self, node):
            found.append(node is value)
            return not found[-1]

    builder.call.visit(_V())
    return any(found)


def build_name(prog, owner: Neighbour, kind: str) -> str:
    """The converted model_fn's name in the helper's module: what `helper_module.py` writes there."""
    from tf2migrate.rules.estimator import emit

    return public(emit.Writer(dataclasses.replace(prog, defs=owner.defs), owner.ctx, owner.module, kind))


def public(w) -> str:
    """Another module calls the builder: `build_model`, even for a private `_model_fn`."""
    if w.build_name.startswith("_"):
        w.taken.discard(w.build_name)
        w.build_name = w.fresh("build_model")
    return w.build_name


def adapt(w) -> None:
    """The program calls the builder through the user's own spelling: `model.build_model(...)`."""
    b = external(w.prog)
    if b is None:
        return
    name = build_name(w.prog, b.owner, w.kind)
    w.build_name = f"{b.prefix}.{name}" if b.prefix else name
    if b.prefix.split(".")[0] == "model" and w.model_var != "model":
        w.taken.discard(w.model_var)
        w.model_var = w.fresh("keras_model")  # `model` is the module: not `model_2`


def call_of(prog):
    """Where the program's Estimator is made in this file: the helper's call, or the Estimator call."""
    return prog.builder_site if external(prog) is not None else prog.call


def placed(problem, prog, ctx):
    """A blocker found in the neighbour's nodes is reported at the helper's call in this file."""
    if external(prog) is None or own(ctx, problem.node):
        return problem
    return Unreadable(prog.builder_site, f"{problem.message} (in {prog.builder.owner.path})", problem.code)


def own(ctx, node) -> bool:
    """Is `node` in this file (a note or blocker about the neighbour's nodes is reported there)?"""
    return isinstance(node, ast.AST) or ctx.positions.place(node) is not None


def report_foreign(ctx) -> bool:
    """TFM321 where an Estimator this file trains comes from another module the run could not read."""
    if ctx.tree is None:
        return False
    trained = set()
    for call in nodes(ctx.tree, ast.Call):
        canonical = ctx.imports.ast_canonical(call.func)
        if canonical == "tf.estimator.train_and_evaluate" and call.args and isinstance(call.args[0], ast.Name):
            trained.add(call.args[0].id)
        elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name) \
                and call.func.attr in ("train", "evaluate", "predict", "export_saved_model"):
            trained.add(call.func.value.id)
    given = {n for n, _, _ in ctx.package.modules} if ctx.package is not None else set()
    local = {name: module in given or f"{module}.{attr}" in given  # local name -> its module was given
             for name, (module, attr) in imported_modules(ctx.tree, getattr(ctx.package, "name", "") or "_").items()
             if module.split(".")[0] not in ("tensorflow", "tensorflow_estimator")}
    reported = False
    for node in nodes(ctx.tree, ast.Assign):
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id in trained \
                and isinstance(node.value, ast.Call) and ast_dotted(node.value.func).split(".")[0] in local:
            helper = ast_dotted(node.value.func)
            what = f"`{node.targets[0].id}` is the Estimator `{helper}(...)` returns, built in another module"
            if local[helper.split(".")[0]]:  # given, but its helper is not readable
                why = (f"{what}, whose helper is not a top-level function whose body is `return Estimator(...)`: "
                       "write it so (then both modules convert together) or convert both by hand")
            else:
                why = f"{what}: pass the whole package to `tf2migrate rewrite` so that both modules convert together"
            reported |= ctx.report(node.value, "TFM321", why, fixable=False)
    return reported
