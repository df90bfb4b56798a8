"""Every reference to an Estimator-world name in a module, read from Python's `ast` (fast).

A reference is the longest `a.b.c` chain (or import) that resolves, through the module's imports and
assignment aliases, to a name `names.kind` knows; a chain whose head is a local variable or parameter of
the function it stands in is not one.
"""
from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass

from tf2migrate.engine.ast_index import children, nodes
from tf2migrate.engine.imports import ast_dotted, canonical_tf, is_private
from tf2migrate.engine.scopes import ast_function_locals
from tf2migrate.rules.unconverted import names

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# every name `names.kind` knows, and every `MONITORED` one, has one of these words among its parts; a name's
# parts are those of its import's path and of the chain that spells it (`canonical_tf` keeps them)
_WORDS = names.WORDS | {name.rsplit(".", 1)[1] for name in names.MONITORED}


@dataclass(frozen=True)
class Ref:
    node: ast.AST
    canonical: str
    kind: names.Kind

    @property
    def line(self) -> int:
        return self.node.lineno


def references(tree: ast.AST, imports) -> list:
    """The Estimator-world references of `tree`, in source order. Uses the shared node index: only the
    outermost chains rooted at an import, an alias or a would-be local alias are resolved."""
    attributes = nodes(tree, ast.Attribute)
    inner = {id(n.value) for n in attributes if isinstance(n.value, (ast.Attribute, ast.Name))}
    maybe_local = {t.id for a in nodes(tree, ast.Assign) for t in a.targets if isinstance(t, ast.Name)
                   and ast_dotted(a.value).partition(".")[0] in imports.bindings}  # `tf1 = tf.compat.v1` in a def
    heads = set(imports.bindings) | maybe_local
    # a head whose import names a word: each of its chains may be one (a local alias's too: read in its scope)
    worded = {head for head, binding in imports.bindings.items() if not _WORDS.isdisjoint(binding.target.split("."))}
    worded |= maybe_local
    scopes = _Scopes(tree, imports)
    found, monitored = [], False
    for node in nodes(tree, ast.Import, ast.ImportFrom):
        found.extend(_imported(node))
    for node in [*attributes, *nodes(tree, ast.Name)]:
        if id(node) in inner or not isinstance(node.ctx, ast.Load):
            continue  # a part of a longer chain, or a name being bound
        root, named = node, False
        while type(root) is ast.Attribute:
            named = named or root.attr in _WORDS
            root = root.value
        if type(root) is not ast.Name or root.id not in heads or not named and root.id not in worded:
            continue  # (most chains: read before the dotted name is joined)
        dotted = ast_dotted(node)
        if dotted.partition(".")[0] not in maybe_local:  # scopes are read only for what would be reported
            canonical = imports.resolve_dotted(dotted)[1]
            if canonical is None or (canonical not in names.MONITORED and names.kind(canonical) is None):
                continue
        local, aliases = scopes.at(node)
        canonical = _resolve(dotted, local, aliases, imports)
        if canonical is None:
            continue
        monitored = monitored or canonical in names.MONITORED
        kind = names.kind(canonical)
        if kind is not None:
            found.append(Ref(node, canonical, kind))
    if monitored:  # a MonitoredSession runs the tf.train hooks: they are not an Estimator's
        found = [r for r in found if not names.needs_monitored_check(r.canonical)]
    return sorted(found, key=lambda r: (r.node.lineno, r.node.col_offset))


class _Scopes:
    """The names local to the functions around a node, and the aliases they make (read on demand)."""

    def __init__(self, tree, imports) -> None:
        self.functions = sorted(nodes(tree, *_FUNCTIONS), key=lambda f: (f.lineno, f.col_offset))
        self.imports = imports
        self.memo: dict = {}
        self.aliasing = _aliasing(tree, imports)

    def at(self, node) -> tuple:
        local, aliases = frozenset(), {}
        for fn in self.functions:  # outer first: an inner function's names win
            if fn.lineno > node.lineno:
                break
            if _contains(fn, node):
                if id(fn) not in self.memo:
                    self.memo[id(fn)] = self._read(fn, local, aliases)
                fn_local, fn_aliases = self.memo[id(fn)]
                local, aliases = local | fn_local, {**aliases, **fn_aliases}
        return local, aliases

    def _read(self, fn, local, aliases) -> tuple:
        params = fn.args
        if isinstance(fn, ast.Lambda):
            return frozenset(a.arg for a in (*params.posonlyargs, *params.args, *params.kwonlyargs)), {}
        at = bisect.bisect_left(self.aliasing, (fn.lineno, fn.col_offset))
        if at == len(self.aliasing) or self.aliasing[at] >= (fn.end_lineno, fn.end_col_offset):
            return frozenset(ast_function_locals(fn)), {}  # no assignment in it can make an alias
        return frozenset(ast_function_locals(fn)), _local_aliases(fn, local, aliases, self.imports)


def _aliasing(tree, imports) -> list:
    """The places of the assignments that may make a local alias (`_local_aliases`): `name = a.b` where `a` is
    imported or, in turn, assigned so. A function without one makes none: its body is not walked."""
    assigns = [a for a in nodes(tree, ast.Assign) if len(a.targets) == 1 and type(a.targets[0]) is ast.Name
               and type(a.value) in (ast.Name, ast.Attribute)]
    heads, grown = set(imports.bindings), True
    while grown:
        size = len(heads)
        heads |= {a.targets[0].id for a in assigns if ast_dotted(a.value).partition(".")[0] in heads}
        grown = len(heads) > size
    return sorted((a.lineno, a.col_offset) for a in assigns if ast_dotted(a.value).partition(".")[0] in heads)


def _contains(fn, node) -> bool:
    start, end = (fn.lineno, fn.col_offset), (fn.end_lineno, fn.end_col_offset)
    return start <= (node.lineno, node.col_offset) < end


def _resolve(dotted: str, local, aliases: dict, imports):
    if not dotted:
        return None
    head, _, rest = dotted.partition(".")
    if head in aliases:
        if _names_one(canonical_tf(aliases[head])):
            return None  # `cfg` after `cfg = tf.contrib.tpu.RunConfig`: reported where the alias is made
        return canonical_tf(aliases[head] + ("." + rest if rest else ""))
    if head in local:
        return None
    binding = imports.bindings.get(head)
    if binding is not None and binding.assigned and _names_one(canonical_tf(binding.target)):
        return None  # `Est(...)` after `Est = tf.estimator.Estimator`: the line that made the alias is the one
    return imports.resolve_dotted(dotted)[1]


def _names_one(canonical) -> bool:
    """An alias of one Estimator-world name (`Est = tf.estimator.Estimator`), not of a namespace
    (`learn = tf.contrib.learn`): what is reached through a namespace alias is reported where it is used."""
    return bool(canonical) and canonical not in names.NAMESPACES and names.kind(canonical) is not None


def _local_aliases(fn, local, aliases: dict, imports) -> dict:
    """`tf1 = tf.compat.v1` in a function's own body, assigned once there: an alias inside it."""
    counts, values = {}, {}
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if node is None or isinstance(node, (*_FUNCTIONS, ast.ClassDef)):  # None: an empty optional field
            continue
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                    counts[name] = counts.get(name, 0) + 1
            if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                values[node.targets[0].id] = node.value
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            for name in (n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)):
                counts[name] = counts.get(name, 0) + 2
        todo.extend(children(node))
    out = {}
    for name, value in values.items():
        if counts.get(name) == 1 and isinstance(value, (ast.Name, ast.Attribute)):
            head, _, rest = ast_dotted(value).partition(".")
            if head in aliases:
                out[name] = aliases[head] + ("." + rest if rest else "")
            elif head and head not in local and head in imports.bindings:
                target = imports.bindings[head].target
                out[name] = target + ("." + rest if rest else "")
    return out


def _imported(node) -> list:
    if isinstance(node, ast.Import):
        paths = [alias.name for alias in node.names]
    elif node.level or not node.module:
        return []
    else:
        paths = [f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*"]
    out = []
    for path in paths:
        canonical = canonical_tf(path) if not is_private(path) else None
        kind = names.kind(canonical) if canonical else None
        if kind is not None:
            out.append(Ref(node, canonical, kind))
            break  # one import statement, one reference
    return out
