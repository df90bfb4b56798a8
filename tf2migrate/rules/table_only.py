"""A file only the tables act in is rewritten without LibCST (rules/table_splice.py); any other goes to LibCST.

A file qualifies when no code rule has a place in it (the pre-pass's question, `engine/wake.py`, asked with
the code rules' words alone), and no rule reads the whole module or every statement (with package neighbours,
the Estimator converter does where it may act with them). The report-only rules that read `ast` (`manifest.Ast.ANSWERS`) report as they do after LibCST's traversal.
The splice path's output keeps every import: a rewrite that would leave one unused (LibCST's path removes it)
or need a new one is `NotSure`, and so is anything else this path cannot promise (`NotSure` in its modules).
"""
from __future__ import annotations

import ast
import importlib
import bisect
import dataclasses
import functools
from collections import Counter

from tf2migrate.engine.ast_index import nodes
from tf2migrate.engine.context import Context
from tf2migrate.engine.positions import Positions
from tf2migrate.engine.suppress import parse_suppressions
from tf2migrate.engine.text_edits import NotSure, Text
from tf2migrate.engine.wake import waking_nodes

FALLBACKS: Counter = Counter()  # files the splice path gave to LibCST, by reason (bench/splice_agrees.py)
SPLICED: Counter = Counter()  # files it rewrote: "changed" or "unchanged"


@functools.lru_cache(maxsize=None)
def _code_triggers():
    """The wake words with the tables' taken out, and those of the code rules the splice path answers
    (rules/code_splice.py): what wakes a code rule that needs LibCST."""
    from tf2migrate.rules import code_splice
    from tf2migrate.rules.manifest import BY_NAME, Acts
    from tf2migrate.rules.wake_words import FAST, WAKE, triggers

    attrs, symbols = set(), set()
    for rule, (a, s) in WAKE.items():
        # an `Acts.ON_IMPORT` rule's import makes its `reads_whole_module` true, which sends the file to LibCST
        # below: its words alone (`contrib` in every `tf.contrib.X` of tensor2tensor) must not
        if rule not in FAST and rule not in code_splice.RULES and BY_NAME[rule].acts is not Acts.ON_IMPORT:
            attrs |= a
            symbols |= s
    # only these words can wake a code rule here (`Triggers.wakes` finds no table name): the scan keeps no other
    return dataclasses.replace(triggers(), names=frozenset(), modules=frozenset(), hand_written=frozenset(), calls={},
                               code_attrs=frozenset(attrs), code_symbols=frozenset(n for n in symbols if "." not in n),
                               code_names=frozenset(n for n in symbols if "." in n), attrs=frozenset(attrs),
                               symbols=frozenset(n.rsplit(".", 1)[-1] for n in symbols))


def warm() -> None:
    """What the first file would build: the modules and words of the splice path (`ManifestRules.load`)."""
    importlib.import_module("tf2migrate.rules.table_splice")

    _code_triggers()
    _answered()


def code_rule_places(tree, imports, text: str, source: str) -> bool:
    words = _code_triggers()
    attrs, symbols = words.scan(text)
    return any(True for _ in waking_nodes(tree, imports, words, attrs & words.code_attrs, symbols, source,
                                          words.code_words(text)))


def rewrite(text: str, tree, path: str, selection, package=None):
    """A `RewriteResult` made without LibCST, or None: the file needs LibCST. `package`: its package view, which
    only the Estimator converter reads (it reads the whole module where it may act with it)."""
    try:
        return _rewrite(text, tree, path, selection, package)
    except (NotSure, RecursionError) as exc:
        FALLBACKS[str(exc) if isinstance(exc, NotSure) else "deep"] += 1
        return None


def _rewrite(text: str, tree, path: str, selection, package):
    from tf2migrate.engine.apply import RewriteResult, _hits
    from tf2migrate.engine.imports import ImportMap
    from tf2migrate.rules import module_twins, registry
    from tf2migrate.rules.table_splice import TableSplice
    from tf2migrate.rules.tables import load_tables

    imports = ImportMap.from_ast(tree)
    if code_rule_places(tree, imports, text, selection.source):
        return None
    ctx = Context(tree=tree, path=path, imports=imports, positions=Positions(None, tree, text), text=text,
                  suppressions=parse_suppressions(text), selection=selection, emit=None, infos=registry.all_infos(),
                  package=package)
    plugins = _readers(ctx)
    if any(module_twins.needs_libcst(plugin) for plugin in plugins):
        return None
    edits = Text(text)
    splice = TableSplice(ctx, load_tables(), registry.CLAIMED, edits)
    splice.run(tree, _hits(tree, text, imports, selection.source))
    for cls in _answered():
        cls(ctx).leave_module(None, None)
    splice.leave_module()
    module_twins.leave_module(plugins, ctx, tree, edits)
    code = edits.result()
    if code != text:
        _imports_still_used(tree, imports, edits)
    SPLICED["changed" if code != text else "unchanged"] += 1
    return RewriteResult(code=code, diagnostics=sorted(ctx.diagnostics, key=lambda d: (d.line, d.col, d.code)))


def _readers(ctx) -> list:
    """The rules whose manifest line says they may read more than the statements they act in (`Reads`): only
    they can say yes to `reads_whole_module` or `sees_every_statement` (tests/test_manifest.py); and those that
    report from `ast` on this path (`module_twins.REPORT_ONLY`)."""
    from tf2migrate.rules import module_twins, registry
    from tf2migrate.rules.manifest import RULES, Reads

    return [cls(ctx) for cls, rule in zip(registry.CODE_RULES, RULES)
            if rule.reads is not Reads.STATEMENTS or cls in module_twins.REPORT_ONLY]


@functools.lru_cache(maxsize=None)
def _answered() -> tuple:
    """The `Ast.ANSWERS` rules, in the traversal's order: they report here as after LibCST's traversal."""
    from tf2migrate.rules import registry

    return tuple(cls for cls in registry.CODE_RULES if cls in registry.ANSWERED)


def _imports_still_used(tree, imports, edits: Text) -> None:
    """NotSure when an edit takes the last use of a name the file binds (LibCST's path removes its import)."""
    bindings = imports.bindings
    names = [n for n in nodes(tree, ast.Name) if n.id in bindings]
    uses = Counter(n.id for n in names)
    where = sorted((edits.offset(n.lineno, n.col_offset), n.id) for n in names)
    for start, end, new in edits.edits:
        i = bisect.bisect_left(where, (start,))
        while i < len(where) and where[i][0] < end:
            uses[where[i][1]] -= 1
            i += 1
        head = new.split(".")[0]
        if "." in new and head.isidentifier() and head in bindings and start < end:
            uses[head] += 1
    if any(count <= 0 for count in uses.values()):
        raise NotSure("an import left unused")
