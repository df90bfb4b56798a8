"""Golden before/after fixtures: `fixtures/<rule>/<case>.before.py` -> `.after.py`.

One parametrized test per case checks the rewrite, that the output compiles, and that a second
rewrite changes nothing. A case without `.after.py` must come out unchanged (a rule that only
reports, or must not fire). A `<case>.codes` file, when present, lists the expected diagnostics
(`line:col CODE`, positions in the *before* file).
"""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_text
from tests.conftest import ROOT

CASES = sorted(p for p in (ROOT / "fixtures").glob("*/*.before.py") if p.parent.name != "programs")


def _id(path) -> str:
    return f"{path.parent.name}/{path.name[: -len('.before.py')]}"


def test_there_are_fixtures():
    assert len(CASES) >= 15


@pytest.mark.parametrize("before", CASES, ids=_id)
def test_fixture(before):
    after = before.with_name(before.name.replace(".before.py", ".after.py"))
    source = before.read_text(encoding="utf-8")
    expected = after.read_text(encoding="utf-8") if after.exists() else source
    result = rewrite_text(source, str(before))
    assert result.code == expected
    compile(result.code, str(after), "exec")
    assert rewrite_text(result.code, str(after)).code == result.code, "second rewrite is not a no-op"
    codes_file = before.with_name(before.name.replace(".before.py", ".codes"))
    if codes_file.exists():
        want = sorted(line.strip() for line in codes_file.read_text().splitlines() if line.strip())
        got = sorted(f"{d.line}:{d.col} {d.code}" for d in result.diagnostics)
        assert got == want
