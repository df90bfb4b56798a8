"""What the engine asks of the rules it runs, and which rule set it runs.

The engine imports no rule. As LibCST's runner receives the transform it runs, the CLI builds the rule set
(`tf2migrate.rules.rule_set`) and hands it over (`RunOptions.rules`); a library call that hands none
(`engine/api.py`) runs the package's own rules, which `tf2migrate/__init__.py` names as `DEFAULT`. Forked
workers inherit the rule set in use.
"""
from __future__ import annotations

from typing import Callable, Optional, Protocol


class RuleSet(Protocol):
    def triggers(self):
        """The combined wake words of every rule and table (`Triggers`: `scan`, `wakes`, `code_words`...)."""

    def triggers_from_json(self, data):
        """`Triggers` again from what `to_json` gave (the cache keeps them)."""

    def plugins(self, ctx) -> list:
        """Every rule, in the order the traversal runs them, bound to this file's context."""

    def fast_plugins(self, ctx) -> list:
        """The rules Python's `ast` answers, for a file only their words wake (`apply.report_text`)."""

    def infos(self) -> dict:
        """Code -> `RuleInfo` of every rule."""

    def importable(self):
        """The names the tables may import (`emit.NameEmitter`)."""

    def splice(self, text: str, tree, path: str, selection, package):
        """A `RewriteResult` made without LibCST (a file only the tables act in), or None."""

    def ast_reports_exact(self, tree) -> bool:
        """Do the reports the `ast` tree gives here equal the traversal's (`process.precheck`)?"""

    def shared_words_count(self, tree, imports) -> bool:
        """May a rule act here that shares the `ast`-answered rules' words (`process._may_change`)?"""

    def acts_on_imports(self, tree, words: set) -> bool:
        """Does a rule act on this file's imports alone, wherever they are used (`process._may_change`)?"""

    def load(self) -> None:
        """Import every rule now (before workers fork, so they inherit them)."""


DEFAULT: Optional[Callable[[], RuleSet]] = None  # set by `tf2migrate/__init__.py`
_IN_USE: list = []


def use(rules: RuleSet) -> None:
    """Run `rules` from now on (the CLI's, handed over by `runner.run`)."""
    _IN_USE[:] = [rules]


def active() -> RuleSet:
    if not _IN_USE:
        if DEFAULT is None:
            raise RuntimeError("no rule set: hand one to the engine (engine.rule_set.use)")
        _IN_USE.append(DEFAULT())
    return _IN_USE[0]
