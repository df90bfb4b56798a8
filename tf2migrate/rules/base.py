"""What every rule is: a code, a message, why it exists, and a before/after example.

Table rules (TOML in `rules/`) and code rules (one module each) share this shape, so that
`tf2migrate rules`, `tf2migrate explain` and the example tests read them the same way.
"""
from __future__ import annotations

from dataclasses import dataclass

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.wake_words import WAKE

FIX_KINDS = ("automatic", "partial", "report only")


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str
    summary: str
    message: str
    severity: Severity = Severity.WARNING
    fix: str = "automatic"
    why: str = ""
    before: str = ""
    after: str = ""

    @property
    def fixable(self) -> bool:
        return self.fix != "report only"


class Plugin:
    """A rule (or a set of table rules) that takes part in the one shared traversal.

    Hooks receive the original node (for names and positions) and the updated one (to return).
    """

    infos: tuple = ()
    wake: str = ""   # this rule's entry in `wake_words.WAKE`

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def triggers(self) -> set:
        """Words whose absence from a file's code proves this plugin has nothing to do there
        (attribute or method names: they count on any receiver)."""
        return set(WAKE[self.wake][0]) if self.wake else set()

    def symbol_triggers(self) -> set:
        """Words that only count where they name a TensorFlow symbol through the file's imports
        (`tf.estimator.Estimator`, not `my_lib.Estimator`)."""
        return set(WAKE[self.wake][1]) if self.wake else set()

    def sees_every_statement(self) -> bool:
        """True when this rule, in this module, may act inside statements that hold none of its words:
        the traversal then enters every statement (see `engine/skip.py`)."""
        return False
