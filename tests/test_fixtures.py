"""Golden before/after fixtures: `fixtures/<rule>/<case>.before.py` -> `.after.py`.

One parametrized test per case checks the rewrite, that the output compiles, and that a second
rewrite changes nothing. A case without `.after.py` must come out unchanged (a rule that only
reports, or must not fire). A `<case>.codes` file, when present, lists the expected diagnostics
(`line:col CODE`, positions in the *before* file).

A package case is a folder `<case>.before/` (a package tree) with `<case>.after/` holding the files that
change: every file is rewritten with the package pre-pass, as `tf2migrate rewrite <case>.before/` does;
its `<case>.codes` lines read `path:line:col CODE` (path relative to the folder).
"""
from __future__ import annotations

import pytest

from tf2migrate.engine.api import rewrite_package, rewrite_text
from tests.conftest import ROOT

CASES = sorted(p for p in (ROOT / "fixtures").glob("*/*.before.py") if p.parent.name != "programs")
PACKAGES = sorted(p for p in (ROOT / "fixtures").glob("*/*.before") if p.is_dir() and p.parent.name != "programs")


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


def _tree(folder) -> dict:
    return {str(p): p.read_text(encoding="utf-8") for p in sorted(folder.rglob("*.py"))}


@pytest.mark.parametrize("before", PACKAGES, ids=lambda p: f"{p.parent.name}/{p.name[: -len('.before')]}")
def test_package_fixture(before):
    after = before.with_name(before.name[: -len(".before")] + ".after")
    files = _tree(before)
    results = rewrite_package(files)
    for path, result in results.items():
        rel = before.__class__(path).relative_to(before)
        expected = (after / rel).read_text(encoding="utf-8") if (after / rel).exists() else files[path]
        assert result.code == expected, rel
        compile(result.code, path, "exec")
    assert not after.exists() or all((before / p.relative_to(after)).exists() for p in after.rglob("*.py"))
    again = rewrite_package({path: r.code for path, r in results.items()})  # same paths: same package
    assert {path: r.code for path, r in again.items()} == {path: r.code for path, r in results.items()}, \
        "second rewrite is not a no-op"
    codes_file = before.with_name(before.name[: -len(".before")] + ".codes")
    if codes_file.exists():
        want = sorted(line.strip() for line in codes_file.read_text().splitlines() if line.strip())
        got = sorted(f"{before.__class__(d.path).relative_to(before)}:{d.line}:{d.col} {d.code}"
                     for r in results.values() for d in r.diagnostics)
        assert got == want
