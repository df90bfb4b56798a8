"""The survey's runs of the rewrite: one program in a temporary copy, or each of its files alone.

The tf2migrate run is the one on PYTHONPATH, as `python -m tf2migrate rewrite --no-cache -j 1` in a subprocess, so a
crash of the tool is recorded (TFM999, a traceback, an unexpected exit status, a timeout) instead of stopping the survey.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

TIMEOUT = 600


def python_files(tree: Path) -> list[Path]:
    return sorted(path.relative_to(tree) for path in tree.rglob("*.py"))


def run_rewrite(out: Path, report: Path) -> tuple[int | None, str]:
    command = [sys.executable, "-m", "tf2migrate", "rewrite", "--no-cache", "-j", "1", "--report", str(report), str(out)]
    try:
        done = subprocess.run(command, cwd=report.parent, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {TIMEOUT}s"
    return done.returncode, done.stdout + done.stderr


def crashes_of_files(program: Path, work: Path) -> list[str]:
    """Each file rewritten alone (the program's other files beside it): `file: reason` of a TFM999 or traceback."""
    found = []
    for rel in python_files(program):
        tree = work / f"alone-{len(found)}-{rel.stem}"
        shutil.copytree(program, tree)
        report = tree.parent / f"{tree.name}.json"
        status, output = run_rewrite(tree / rel, report)
        codes = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
        crashed = [d for f in codes.get("files", []) for d in f.get("diagnostics", []) if d.get("code") == "TFM999"]
        if status not in (0, 1, 123) or "Traceback" in output or crashed:
            reason = crashed[0]["message"] if crashed else output.strip().splitlines()[-1:] or [f"exit {status}"]
            found.append(f"{rel} (alone): {reason if isinstance(reason, str) else reason[0]}")
        shutil.rmtree(tree)
    return found
