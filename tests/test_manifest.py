"""A rule is one line of `rules/manifest.py`: each line agrees with its class, and its words wake what it acts on.

- every line's class declares the codes, the opt-ins (`reads_whole_module`, `sees_every_statement`,
  `report_from_ast`) and nothing the line does not say;
- the names a rule claims are among its wake words;
- every rule's own examples and every golden fixture rewrite the same with the wake-word filters on (the
  pre-pass, the table splice, the reduced parse, the statements the traversal steps over) and off (every rule
  sees every statement of every file): a word missing from a line makes its rule miss a place.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from tf2migrate.engine import apply
from tf2migrate.engine.api import Selection, rewrite_text
from tf2migrate.engine.process import precheck
from tf2migrate.rules.base import Plugin
from tf2migrate.rules.manifest import RULES, Ast, Reads
from tf2migrate.rules.registry import CODE_RULES
from tf2migrate.rules.wake_words import triggers
from tests.conftest import ROOT

LINES = list(zip(RULES, CODE_RULES))
IDS = [rule.name for rule in RULES]


def _overrides(cls, method: str) -> bool:
    return getattr(cls, method) is not getattr(Plugin, method)


def test_one_line_per_rule():
    assert len({rule.name for rule in RULES}) == len(RULES)
    assert len(set(CODE_RULES)) == len(CODE_RULES)


@pytest.mark.parametrize("rule, cls", LINES, ids=IDS)
def test_a_line_says_what_its_class_declares(rule, cls):
    declared = [info.code for info in cls.infos]
    assert rule.codes.split() == declared, (f"the {rule.name} line's codes differ from its class's infos: only in the "
                                            f"line {sorted(set(rule.codes.split()) - set(declared))}, only in the class "
                                            f"{sorted(set(declared) - set(rule.codes.split()))}, or their order")
    assert _overrides(cls, "reads_whole_module") == (rule.reads is not Reads.STATEMENTS)
    assert _overrides(cls, "sees_every_statement") == (rule.reads is Reads.EVERY_STATEMENT)
    assert _overrides(cls, "report_from_ast") == (rule.ast is Ast.REPORTS)
    if rule.ast is Ast.ANSWERS:
        assert hasattr(cls, "leave_module")


def _covered(rule, claim: str) -> bool:
    """A claimed name wakes its rule: spelled so (`names`), as a method on any receiver (`*.m`, `attrs`), or
    through a word that is a part of it (`words`: `tf.contrib.learn...` holds `learn`)."""
    if claim.startswith("*."):
        return claim[2:] in rule.attrs
    return claim in rule.names or not rule.words.isdisjoint(claim.split("."))


@pytest.mark.parametrize("rule, cls", LINES, ids=IDS)
def test_the_names_a_rule_claims_wake_it(rule, cls):
    assert [claim for claim in sorted(cls.claims) if not _covered(rule, claim)] == []


def test_the_claims_check_can_fail():
    dropout = next(rule for rule in RULES if rule.name == "dropout")
    assert _covered(dropout, "tf.nn.dropout") and not _covered(replace(dropout, names=frozenset()), "tf.nn.dropout")


EXAMPLES = [(f"{rule.name}/{info.code}", info.before) for rule, cls in LINES for info in cls.infos if info.before]
FIXTURES = [(f"{p.parent.name}/{p.name}", p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / "fixtures").glob("*/*.before.py")) if p.parent.name != "programs"]


def _filtered(text: str, path: str, selection: Selection):
    """As `tf2migrate rewrite` does it: the pre-pass first, then the rewrite with every filter on."""
    src, done = precheck(path, text.encode("utf-8"), triggers(), selection.source)
    if done is not None:
        return done.status.value, text, [(d.line, d.col, d.code, d.message) for d in done.diagnostics]
    if src.fast_only:
        found = apply.report_text(text, path, selection, tree=src.tree)
        return "-", text, [(d.line, d.col, d.code, d.message) for d in found]
    result = rewrite_text(text, path, selection, tree=src.tree)
    return "-", result.code, [(d.line, d.col, d.code, d.message) for d in result.diagnostics]


def _unfiltered(text: str, path: str, selection: Selection, monkeypatch):
    """Every rule sees every statement: no pre-pass, no splice, no reduced parse, no statement stepped over."""
    with monkeypatch.context() as patch:
        patch.setattr(apply, "_quiet", lambda *args: {})
        result = rewrite_text(text, path, selection, reduce=False, splice=False)
    return result.code, [(d.line, d.col, d.code, d.message) for d in result.diagnostics]


@pytest.mark.parametrize("name, text", EXAMPLES + FIXTURES, ids=[n for n, _ in EXAMPLES + FIXTURES])
@pytest.mark.parametrize("source", ["auto", "tf1"])
def test_the_wake_words_miss_no_place(name, text, source, monkeypatch):
    selection = Selection(source=source)
    _, code, found = _filtered(text, name, selection)
    assert (code, found) == _unfiltered(text, name, selection, monkeypatch)
