"""Rewrite one module's text: parse with LibCST, run every rule in one traversal, fix imports.

This is the pure core (text in, text and diagnostics out); reading, writing, caching and the
cheap pre-pass live around it in `process.py`.
"""
from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field

import libcst as cst

from tf2migrate.engine.context import Context, Selection
from tf2migrate.engine import chains, deep, line_breaks, reduce as reduce_text, skip
from tf2migrate.engine.emit import NameEmitter
from tf2migrate.engine.import_edit import PartialRetarget, Spliced, finish_imports
from tf2migrate.engine.imports import ImportMap
from tf2migrate.engine.positions import Positions
from tf2migrate.engine.rule_set import active
from tf2migrate.engine.suppress import parse_suppressions
from tf2migrate.engine.traverse import Traversal
from tf2migrate.engine.wake import waking_nodes


FALLBACKS: Counter = Counter()  # reduced rewrites that ran again on the whole text, by the exception's type
_FOR_RETRY: dict = {}  # text -> its LibCST module, kept when the rewrite ran out of recursion (engine/deep.py)


@dataclass
class RewriteResult:
    code: str
    diagnostics: list = field(default_factory=list)

    def changed_from(self, text: str) -> bool:
        return self.code != text


def rewrite_text(text: str, path: str = "<string>", selection: Selection = None, tree=None,
                 package=None, reduce: bool = True, splice: bool = True) -> RewriteResult:
    """Raises libcst.ParserSyntaxError when the text does not parse. `tree`: the same text already
    parsed by `ast` (the pre-pass's), so it is not parsed twice. `package`: an `engine.package.PackageView`,
    the other modules of its package this file's rewrite reads (see `rewrite_package`). `reduce`: LibCST may
    parse only the statements a rule may act in (engine/reduce.py). `splice`: a file only the tables act in is
    rewritten without LibCST (rules/table_only.py)."""
    if tree is None:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            cst.parse_module(text)  # raises libcst.ParserSyntaxError, as promised
            raise
    selection = selection or Selection()
    if splice:
        spliced = active().splice(text, tree, path, selection, package)
        if spliced is not None:
            return _breaks_kept(text, spliced)
    reduced = _reduction(text, tree, path, selection, package) if reduce else None
    parsed = reduced.text if reduced is not None else text
    module = _FOR_RETRY.pop(parsed, None)
    if module is None:  # the retry with room to recurse does not parse again (a 2,000-term chain: 4.5 s)
        chains.check(reduced.tree if reduced is not None else tree)
        module = cst.parse_module(parsed)
    if not module.has_trailing_newline and parsed.endswith(module.default_newline):
        # LibCST drops the last line break of a file whose lines end in a lone \r: keep it
        module = module.with_changes(has_trailing_newline=True)
    positions = Positions(module, reduced.tree if reduced is not None else tree, text)
    try:
        try:
            result = _rewrite(module, tree, text, path, selection, positions, frozenset(), package, reduced)
        except PartialRetarget as exc:  # a suppressed reference keeps the old import: use attribute form
            result = _rewrite(module, tree, text, path, selection, positions, frozenset(exc.locals), package, reduced)
        return _breaks_kept(text, result)
    except RecursionError:
        if not deep.retrying():
            _FOR_RETRY.clear()
            _FOR_RETRY[parsed] = module
        raise  # done again in a thread with room to recurse, on the same reduced text
    except Exception as exc:  # reduce_text.Unreduced, or anything else: the whole text is the reference
        if reduced is None:
            raise
        FALLBACKS[type(exc).__name__] += 1  # tests/test_reduce.py: none on any fixture
        return rewrite_text(text, path, selection, tree, package, reduce=False, splice=False)


def _breaks_kept(text: str, result: RewriteResult) -> RewriteResult:
    """The rewrite with the file's own line breaks (engine/line_breaks.py)."""
    result.code = line_breaks.kept(text, result.code)
    return result


def rewrite_package(files: dict, selection: Selection = None) -> dict:
    """`{path: text}` -> `{path: RewriteResult}`: every file rewritten with the package pre-pass, as
    `tf2migrate rewrite` does for the files of one run (for tests and tooling)."""
    from tf2migrate.engine.package import scan

    views = scan(files)
    return {path: rewrite_text(text, path, selection, package=views.get(path)) for path, text in files.items()}


def report_text(text: str, path: str = "<string>", selection: Selection = None, tree=None) -> list:
    """The diagnostics of a file that only report-only rules reading Python's `ast` can act in (the pre-pass
    proved that no other rule has a word in it): the same findings `rewrite_text` gives, without LibCST's
    parse and traversal."""
    rules = active()
    tree = tree if tree is not None else ast.parse(text)
    imports = ImportMap.from_ast(tree)
    ctx = Context(tree=tree, path=path, imports=imports, positions=Positions(None, tree, text), text=text,
                  suppressions=parse_suppressions(text), selection=selection or Selection(), emit=None,
                  infos=rules.infos())
    for plugin in rules.fast_plugins(ctx):
        plugin.report_from_ast()
    return sorted(ctx.diagnostics, key=lambda d: (d.line, d.col, d.code))


def _context(text, tree, path, selection, no_retarget=frozenset(), package=None, module=None, positions=None):
    rules = active()
    imports = ImportMap.from_ast(tree)
    return Context(tree=tree, path=path, imports=imports, positions=positions, text=text,
                   suppressions=parse_suppressions(text), selection=selection,
                   emit=NameEmitter(imports, rules.importable(), text, no_retarget),
                   infos=rules.infos(), module=module, package=package)


def _rewrite(module, tree, text, path, selection, positions, no_retarget, package, reduced,
             vetoed=None) -> RewriteResult:
    ctx = _context(text, tree, path, selection, no_retarget, package, module, positions)
    ctx.vetoed = vetoed or {}
    plugins = active().plugins(ctx)
    parsed_tree = reduced.tree if reduced is not None else tree
    quiet = _quiet(module, tree, text, ctx.imports, plugins, selection.source, reduced)
    if reduced is not None and not quiet:  # the trees disagree, or a rule enters every statement
        raise reduce_text.Unreduced("nothing to step over")
    new = module.visit(Traversal(ctx, plugins, quiet))
    unchanged = new is module and not ctx.emit.retargets and ctx.emit.new_alias is None  # no import to edit either
    code = text if unchanged else finish_imports(module, new, ctx.imports, ctx.emit, ctx.references, tree,
                                                 Spliced(parsed_tree, reduced.text, reduced.restore)
                                                 if reduced is not None else Spliced(tree, text))
    for plugin in plugins if code is not text else ():  # a rule's output that cannot run is not written
        reason = plugin.check_output(text, code)
        if reason is not None and type(plugin).__name__ not in ctx.vetoed:
            return _rewrite(module, tree, text, path, selection, positions, no_retarget, package, reduced,
                            {**ctx.vetoed, type(plugin).__name__: reason})
    diagnostics = sorted(ctx.diagnostics, key=lambda d: (d.line, d.col, d.code))
    return RewriteResult(code=code, diagnostics=diagnostics)


def _hits(tree, text, imports, source: str) -> list:
    """The lines where some rule may act, as the pre-pass finds them (`engine/wake.py`, code rules' words
    included: a line that only says `dropout=0.5` or `ops.name_scope` is no place of `tf.nn.dropout`'s rule),
    and the lines that name a trigger word under a local alias (`as fsp`: not a word itself)."""
    words = active().triggers()
    attrs, symbols = words.scan(text)
    places = waking_nodes(tree, imports, words, attrs, symbols, source, words.code_words(text))
    aliases = skip.trigger_aliases(imports, words.symbols, words.modules)
    return skip.hit_lines(text, skip.NOTHING, aliases, {node.lineno for node in places})


def _reduction(text, tree, path, selection, package):
    """The reduced text LibCST may parse instead (engine/reduce.py), or None: a rule reads the whole module
    here, or nothing is worth leaving out."""
    ctx = _context(text, tree, path, selection, package=package)
    if any(plugin.reads_whole_module() for plugin in active().plugins(ctx)):
        return None
    return reduce_text.reduce(text, tree, _hits(tree, text, ctx.imports, selection.source))


def _quiet(module, tree, text, imports, plugins, source: str, reduced) -> dict:
    """The statements the traversal may step over (none when a rule reads every statement): those that hold
    no place where a rule may act (`_hits`). `reduced`: what LibCST parsed instead of `text`, if it did."""
    if any(plugin.sees_every_statement() for plugin in plugins):
        return {}
    if reduced is None:
        return skip.quiet_statements(module, tree, _hits(tree, text, imports, source))
    return skip.quiet_statements(module, reduced.tree, reduced.hits, tree)


def context_for(text: str, path: str, selection: Selection = None, package=None) -> tuple:
    """(LibCST module, Context) of another module of the package, for a rule that reads it (the
    Estimator helper of `model.py` read by `task.py`'s rewrite): its own imports, names and places."""
    rules = active()
    module, tree = _neighbour_trees(text)
    imports = ImportMap.from_ast(tree)
    ctx = Context(tree=tree, path=path, imports=imports, positions=Positions(module, tree, text), text=text,
                  suppressions=parse_suppressions(text), selection=selection or Selection(),
                  emit=NameEmitter(imports, rules.importable(), text, frozenset()),
                  infos=rules.infos(), module=module, package=package)
    return module, ctx


_NEIGHBOURS: dict = {}  # text -> (LibCST module, ast tree) of the last few modules `context_for` parsed


def _neighbour_trees(text: str) -> tuple:
    """The two trees of a neighbour module, parsed once per process: every trainer file of a package reads the
    same model module (tensor2tensor 1.14.0: 20 files parsed utils/trainer_lib.py 18 times and t2t_model.py 4
    times; those files' CPU 6.5 -> 4.3 s, one process). Both trees are only read (LibCST's are immutable)."""
    found = _NEIGHBOURS.get(text)
    if found is None:
        found = cst.parse_module(text), ast.parse(text)
        if len(_NEIGHBOURS) >= 4:
            _NEIGHBOURS.pop(next(iter(_NEIGHBOURS)))
        _NEIGHBOURS[text] = found
    return found
