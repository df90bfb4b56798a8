"""pyflakes finds nothing in the package: a second method of one name silently replaces the first (it happened in
engine/traverse.py), an undefined name fails only on the path that reaches it, and an unused import hides why a
module was imported. pyflakes is a dependency already (`output_check.py` runs it on rewritten code).
"""
from __future__ import annotations

import io

from pyflakes.api import checkRecursive
from pyflakes.reporter import Reporter

from tests.conftest import ROOT


def findings(paths: list) -> list:
    """pyflakes' lines (`path:line:col: message`) for the files under `paths`."""
    out, err = io.StringIO(), io.StringIO()
    checkRecursive([str(p) for p in paths], Reporter(out, err))
    return (out.getvalue() + err.getvalue()).splitlines()


def test_pyflakes_finds_nothing_in_the_package():
    assert findings([ROOT / "tf2migrate"]) == []


def test_a_method_defined_twice_is_found(tmp_path):
    """The check above can fail: the shape that hid a dead method in engine/traverse.py is reported."""
    (tmp_path / "twice.py").write_text("class A:\n    def f(self):\n        pass\n\n    def f(self):\n        pass\n")
    assert [line.split(": ", 1)[1] for line in findings([tmp_path])] == ["redefinition of unused 'f' from line 2"]
