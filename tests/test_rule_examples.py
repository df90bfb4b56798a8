"""Every rule's own before/after example (what `explain` shows) is a test, Fixit-style.

Documentation cannot drift from behaviour: if an example stops being true, this fails.
"""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import Selection, rewrite_text
from tf2migrate.rules.estimator.codes import NO_EXAMPLE
from tf2migrate.rules.registry import all_infos

INFOS = [info for info in all_infos().values() if info.before]
TOOL_BUGS = {"TFM617"}  # an engine code outside TFM9xx no input is meant to give (tests/test_lost_names.py)


def test_every_rule_has_an_example_except_engine_codes():
    missing = [code for code, info in all_infos().items() if not info.before and not code.startswith("TFM9")
               and code not in NO_EXAMPLE and code not in TOOL_BUGS]
    assert missing == []


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.code)
def test_example_rewrites_as_documented(info):
    result = rewrite_text(info.before, "example.py")
    assert result.code == (info.after or info.before)
    assert info.code in {d.code for d in result.diagnostics}
    compile(result.code, "example.py", "exec")
    assert rewrite_text(result.code, "example.py").code == result.code


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.code)
def test_example_untouched_when_rule_ignored(info):
    result = rewrite_text(info.before, "example.py", Selection(ignore=(info.code,)))
    assert info.code not in {d.code for d in result.diagnostics}


@pytest.mark.parametrize("info", INFOS, ids=lambda i: i.code)
def test_suppression_comment_equals_ignoring_the_rule(info):
    header = "# tf2migrate: skip-file[%s]\n" % info.code
    result = rewrite_text(header + info.before, "example.py")
    assert info.code not in {d.code for d in result.diagnostics}
    ignored = rewrite_text(info.before, "example.py", Selection(ignore=(info.code,)))
    assert result.code == header + ignored.code


def test_report_only_rules_say_so():
    for info in all_infos().values():
        if not info.after and info.before:
            assert info.fix == "report only", info.code
