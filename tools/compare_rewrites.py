"""Snapshot what the rewrite makes of every fixture and survey program, to prove a refactor changes nothing.

A refactor of the converter (a move of modules, a split of a function) must leave every output byte and every
diagnostic as it was. `snapshot` rewrites, in this process and with the tf2migrate on PYTHONPATH, every fixture
input (`fixtures/*/*.before.py` alone, `fixtures/*/*.before/` and `fixtures/programs/*/` as packages) and every
program folder given (as a package), under the default options and under `--target tf-keras`, and writes one
JSON file: for each case, each file's new text and its diagnostics (`path:line:col CODE message`), or the error.
`diff` compares two snapshots and prints the cases that differ (exit 1 if any).

    PYTHONPATH=$PWD python tools/compare_rewrites.py snapshot /tmp/before.json /work/survey/programs/*/
    ... refactor ...
    PYTHONPATH=$PWD python tools/compare_rewrites.py snapshot /tmp/after.json /work/survey/programs/*/
    python tools/compare_rewrites.py diff /tmp/before.json /tmp/after.json
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = {"default": {}, "tf-keras": {"target": "tf-keras"}}


def _cases(programs: list) -> dict:
    """Case name -> (base folder, {path: text}); a single file is a package of one."""
    fixtures = ROOT / "fixtures"
    cases = {}
    for path in sorted(fixtures.glob("*/*.before.py")):
        cases[str(path.relative_to(fixtures))] = (path.parent, {str(path): path.read_text(encoding="utf-8")})
    folders = [p for p in sorted(fixtures.glob("*/*.before")) if p.is_dir()]
    folders += [p for p in sorted((fixtures / "programs").iterdir()) if p.is_dir()]
    named = [(str(p.relative_to(fixtures)), p) for p in folders]
    named += [(f"survey/{Path(p).name}", Path(p)) for p in programs]
    for name, folder in named:
        cases[name] = (folder, {str(p): p.read_text(encoding="utf-8", errors="surrogateescape")
                                for p in sorted(folder.rglob("*.py"))})
    return cases


def _outcome(base: Path, files: dict, selection) -> dict:
    from tf2migrate.engine.api import rewrite_package

    try:
        results = rewrite_package(files, selection)
    except Exception as error:  # a crash is an outcome to compare, too
        return {"error": f"{type(error).__name__}: {error}"}
    out = {}
    for path, result in sorted(results.items()):
        rel = str(Path(path).relative_to(base))
        diagnostics = [f"{Path(d.path).name}:{d.line}:{d.col} {d.code} {d.message}" for d in result.diagnostics]
        out[rel] = {"sha256": hashlib.sha256(result.code.encode("utf-8", "surrogateescape")).hexdigest(),
                    "changed": result.code != files[path], "diagnostics": diagnostics}
    return out


def snapshot(target: str, programs: list) -> None:
    from tf2migrate.engine.api import Selection

    cases = _cases(programs)
    data = {}
    for option, kwargs in OPTIONS.items():
        for name, (base, files) in cases.items():
            data[f"{option} {name}"] = _outcome(base, files, Selection(**kwargs))
    Path(target).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    changed = sum(f["changed"] for case in data.values() for f in case.values() if isinstance(f, dict))
    print(f"{len(data)} cases ({len(cases)} inputs x {len(OPTIONS)} option sets), {changed} files changed -> {target}")


def diff(first: str, second: str) -> int:
    a, b = (json.loads(Path(p).read_text(encoding="utf-8")) for p in (first, second))
    differ = sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))
    for name in differ:
        print(f"DIFFERS: {name}")
    files = sum(len(case) for case in a.values())
    print(f"{len(a)} vs {len(b)} cases, {files} file outcomes; {len(differ)} cases differ")
    return 1 if differ or not a else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "snapshot":
        snapshot(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 4 and sys.argv[1] == "diff":
        sys.exit(diff(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
