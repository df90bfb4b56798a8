"""Compare survey runs of several trees: one row per program, its outcome on each, and what changed.

Usage: python tools/survey_compare.py main.json est-general.json ... [--markdown OUT.md]
(the JSON files written by `tools/survey.py --json`; the first is the baseline).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from survey_report import main_blocker  # noqa: E402


def load(path: Path) -> tuple[str, dict[str, dict]]:
    stored = json.loads(path.read_text(encoding="utf-8"))
    return path.stem, {record["id"]: record for record in stored["programs"]}


def compare(runs: list[tuple[str, dict[str, dict]]]) -> str:
    names = [name for name, _ in runs]
    base = runs[0][1]
    lines = ["| id | program | " + " | ".join(names) + " |", "|---|---|" + "---|" * len(names)]
    changes = []
    for ident in sorted(base):
        outcomes = [records[ident]["outcome"] if ident in records else "-" for _, records in runs]
        lines.append(f"| {ident} | {base[ident]['name'].split('_', 1)[1]} | " + " | ".join(outcomes) + " |")
        for name, records in runs[1:]:
            if ident in records and main_blocker(records[ident]) != main_blocker(base[ident]):
                now = main_blocker(records[ident]) or records[ident]["outcome"]
                changes.append(f"- {ident} on {name}: {now[:300]}")
    totals = ["**" + name + "**: " + " · ".join(
        f"{outcome} {sum(r['outcome'] == outcome for r in records.values())}"
        for outcome in ("CONVERTED", "BROKEN", "REPORTED", "CRASH")) for name, records in runs]
    return "\n".join(["# Survey runs compared", "", *[f"- {t}" for t in totals], "", *lines, "",
                      f"## Main blocker changed from {names[0]}", "", *(changes or ["none"])]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", type=Path, nargs="+")
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    text = compare([load(path) for path in args.runs])
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
