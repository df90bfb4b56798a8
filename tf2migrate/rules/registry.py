"""Every rule, in the fixed order the traversal runs them, and the lookup by code.

Table rules come from `rules/*.toml`; code rules are the lines of `manifest.py`, in its order, each class
imported from where its line says. `engine.toml` documents the engine's own codes (TFM9xx), which no rule
emits.
"""
from __future__ import annotations

import functools
import importlib

from tf2migrate.rules.manifest import RULES, Ast
from tf2migrate.rules.table_plugin import TablePlugin
from tf2migrate.rules.tables import load_tables


def _load(where: str):
    module, name = where.split(":")
    return getattr(importlib.import_module("tf2migrate.rules." + module), name)


CODE_RULES = tuple(_load(rule.where) for rule in RULES)
CLAIMED = frozenset(name for cls in CODE_RULES for name in cls.claims)
_FROM_AST = tuple(cls for cls, rule in zip(CODE_RULES, RULES) if rule.ast is not Ast.NO)
ANSWERED = frozenset(cls for cls, rule in zip(CODE_RULES, RULES) if rule.ast is Ast.ANSWERS)


def plugins(ctx) -> list:
    """Code rules first (they rewrite whole calls), then the generic table transformer."""
    return [cls(ctx) for cls in CODE_RULES] + [TablePlugin(ctx, load_tables(), CLAIMED)]


def fast_plugins(ctx) -> list:
    """The rules that report from the `ast` tree alone (`manifest.Ast`), for a file where no other rule has
    work (the pre-pass proved it)."""
    return [cls(ctx) for cls in _FROM_AST]


@functools.lru_cache(maxsize=None)
def all_infos() -> dict:
    infos = {rule.info.code: rule.info for rule in load_tables().rules}
    for cls in CODE_RULES:
        for info in cls.infos:
            infos[info.code] = info
    return dict(sorted(infos.items()))
