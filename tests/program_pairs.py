"""The two layouts of a program pair in `fixtures/programs/<name>/`, for the rewrite tests: two scripts
(`original.py`, `migrated.py`), or two package roots (`original/`, `migrated/`, run with `verify -m`).

A package pair's migrated tree is the rewrite of its original tree as `verify DIR -m MODULE` makes it
(`harness/running/codemod_tree.py`: the same file walk and runner as `tf2migrate rewrite DIR`)."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from tf2migrate.engine.api import rewrite_text


def is_pair(folder: Path) -> bool:
    return (folder / "original.py").exists() or is_package(folder)


def is_package(folder: Path) -> bool:
    return (folder / "original").is_dir()


def rewrite_pair(folder: Path, selection) -> tuple:
    """({relative path: rewritten code}, set of diagnostic codes) of the pair's original, in either layout."""
    if not is_package(folder):
        result = rewrite_text((folder / "original.py").read_text(encoding="utf-8"), str(folder / "original.py"),
                              selection)
        return {"migrated.py": result.code}, {d.code for d in result.diagnostics}
    return rewrite_tree(folder / "original", selection)


def rewrite_tree(root: Path, selection) -> tuple:
    from tf2migrate.harness.running.codemod_tree import rewrite_tree as rewrite

    work = Path(tempfile.mkdtemp(prefix="tf2migrate-pair-"))
    try:
        dest, lines, _ = rewrite(str(root), selection, str(work / "tree"))
        codes = {line.split()[1] for line in lines}
        return {str(p.relative_to(dest)): p.read_text(encoding="utf-8") for p in sorted(Path(dest).rglob("*.py"))}, codes
    finally:
        shutil.rmtree(work, ignore_errors=True)


def expected(folder: Path, tree: dict) -> dict:
    """The reviewed migrated files, keyed like `rewrite_pair`'s result."""
    if not is_package(folder):
        return {"migrated.py": (folder / "migrated.py").read_text(encoding="utf-8")}
    base = folder / "migrated"
    return {str(p.relative_to(base)): p.read_text(encoding="utf-8") for p in sorted(base.rglob("*.py"))}


def rewrite_again(folder: Path, tree: dict, selection) -> dict:
    """The rewrite of the rewrite (it must change nothing)."""
    if not is_package(folder):
        return {"migrated.py": rewrite_text(tree["migrated.py"], "migrated.py", selection).code}
    work = Path(tempfile.mkdtemp(prefix="tf2migrate-again-"))
    try:
        for rel, code in tree.items():
            (work / rel).parent.mkdir(parents=True, exist_ok=True)
            (work / rel).write_text(code, encoding="utf-8")
        return rewrite_tree(work, selection)[0]
    finally:
        shutil.rmtree(work, ignore_errors=True)
