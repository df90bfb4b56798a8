"""What every rule is: a code, a message, why it exists, and a before/after example.

Table rules (TOML in `rules/`) and code rules (one module each) share this shape, so that
`tf2migrate rules`, `tf2migrate explain` and the example tests read them the same way.
"""
from __future__ import annotations

from dataclasses import dataclass

from tf2migrate.engine.diagnostics import Severity

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
    claims: frozenset = frozenset()  # canonical TF names whose calls this rule alone upgrades (tables skip them)

    def __init__(self, ctx) -> None:
        self.ctx = ctx

    def report_from_ast(self) -> None:
        """This rule's findings in a file the pre-pass answers from `ast` alone (`engine/apply.report_text`),
        asked only of the rules whose manifest line says `ast` answers them: an `Ast.ANSWERS` rule's
        `leave_module`; an `Ast.REPORTS` rule overrides it (TFM667 in TF2 code)."""
        self.leave_module(None, None)

    def reads_whole_module(self) -> bool:
        """Asked of a rule whose manifest line says `Reads.MODULE` or `Reads.EVERY_STATEMENT`. True when this rule, in this module, may read LibCST statements beyond the ones it acts in (the
        Estimator converter reads the program, a lint follows a dataset or a replica function): LibCST then
        parses the whole text, not the statements a rule may act in (`engine/reduce.py`). Asked before the
        parse, from `ctx.tree` and `ctx.text`: `ctx.module` is not there yet."""
        return False

    def check_output(self, before: str, after: str):
        """Why the rewritten module `after` (of `before`) cannot run because of what this rule wrote, or None.
        The engine then rewrites the module again with `ctx.vetoed[type(self).__name__]` set to that reason:
        the rule leaves its part as it was and reports why, the other rules' edits stay."""
        return None

    def sees_every_statement(self) -> bool:
        """Asked of a rule whose manifest line says `Reads.EVERY_STATEMENT`. True when this rule, in this module, may act inside statements that hold none of its words:
        the traversal then enters every statement (see `engine/skip.py`)."""
        return False
