"""Survey: run the rewrite on a folder of real TF1 Estimator programs and say which convert.

Usage: python tools/survey.py PROGRAMS [--markdown OUT.md] [--json OUT.json] [--only ID ...]

PROGRAMS holds one folder per program (a trainer package counts as one program), named
`NN_owner__repo__short`, and optionally a MANIFEST.tsv (id, repo, commit, paths, shape). The public code
stays outside this repository; this tool only reads it. Each program is copied to a temporary folder and
rewritten there with `python -m tf2migrate rewrite --no-cache`, using the tf2migrate found on PYTHONPATH
(run it with PYTHONPATH=/work/main, or a branch's worktree, to measure that tree). The outcome is:

- CONVERTED: no Estimator blocker finding (TFM302, TFM308, TFM322, TFM35x) and no Estimator call left;
- BROKEN: converted, but a file no longer compiles or uses a name pyflakes calls undefined that it did not
  use before (pyflakes is optional; without it only compilation is checked, and the report says so);
- REPORTED: a blocker finding, or an Estimator call left in the output without one (silent);
- CRASH: TFM999, a traceback, an unexpected exit status or a timeout.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from survey_checks import compiles, undefined_names  # noqa: E402
from survey_run import crashes_of_files, python_files, run_rewrite  # noqa: E402
from survey_report import render_markdown  # noqa: E402

ROOT_BLOCKERS = ("TFM302", "TFM308", "TFM322")
ESTIMATOR_CALL = re.compile(r"^[^#]*?\b((?:[\w]+\.)*(?:estimator|tpu_estimator)\.[A-Za-z_][\w.]*)\s*\(", re.M)
TPU_ESTIMATOR_CALL = re.compile(r"^[^#]*?\b(TPUEstimator)\s*\(", re.M)


def is_blocker(diagnostic: dict) -> bool:
    """A finding that says an Estimator of the program was not converted."""
    code = diagnostic.get("code", "")
    blocking = code in ROOT_BLOCKERS or code.startswith("TFM35")
    return blocking and diagnostic.get("severity") == "error"


def read_manifest(programs: Path) -> dict[str, dict]:
    manifest = programs / "MANIFEST.tsv"
    if not manifest.exists():
        return {}
    lines = manifest.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    rows = (dict(zip(header, line.split("\t"))) for line in lines[1:] if line.strip())
    return {row["id"]: row for row in rows}


def estimator_calls_left(tree: Path) -> list[str]:
    """`file:line: name` of every Estimator API call still in the rewritten tree."""
    left = []
    for rel in python_files(tree):
        text = (tree / rel).read_text(encoding="utf-8", errors="replace")
        for pattern in (ESTIMATOR_CALL, TPU_ESTIMATOR_CALL):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start(1)) + 1
                left.append(f"{rel}:{line}: {match.group(1)}")
    return sorted(set(left))


def source_line(path: Path, line: int | None) -> str:
    """The original text of the line a finding points at, so a reader sees the construct, not only its code."""
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()[line - 1].strip()[:120]
    except (OSError, IndexError, TypeError):
        return ""


def static_check(before: Path, after: Path) -> list[str]:
    """What the rewrite broke: files that stop compiling, names that become undefined."""
    problems = []
    for rel in python_files(after):
        old = (before / rel).read_text(encoding="utf-8", errors="replace") if (before / rel).exists() else ""
        new = (after / rel).read_text(encoding="utf-8", errors="replace")
        error = compiles(new, str(rel))
        if error and not compiles(old, str(rel)):
            problems.append(f"{rel}: does not compile: {error}")
            continue
        if error:
            continue  # it did not compile before either: not the rewrite's doing
        known = undefined_names(old, str(rel))
        for name, line in sorted(undefined_names(new, str(rel)).items(), key=lambda item: item[1]):
            if name not in known:
                problems.append(f"{rel}:{line}: new undefined name '{name}'")
    return problems


def classify(program: Path, work: Path) -> dict:
    before, out, report = work / "before", work / program.name, work / "report.json"
    shutil.copytree(program, before)
    shutil.copytree(program, out)
    status, output = run_rewrite(out, report)
    diagnostics = []
    if report.exists():
        for entry in json.loads(report.read_text(encoding="utf-8")).get("files", []):
            diagnostics.extend(entry.get("diagnostics", []))
    for diagnostic in diagnostics:
        diagnostic["path"] = os.path.relpath(diagnostic.get("path", ""), out) if diagnostic.get("path") else ""
        diagnostic["source"] = source_line(before / diagnostic["path"], diagnostic.get("line"))
    result = {"exit": status, "diagnostics": diagnostics, "blockers": [d for d in diagnostics if is_blocker(d)]}
    result["estimator_calls_left"] = estimator_calls_left(out)
    result["static_problems"] = static_check(before, out)
    crashed = [d for d in diagnostics if d.get("code") == "TFM999"]
    if status not in (0, 1, 123) or "Traceback" in output or crashed:
        result["outcome"] = "CRASH"
        result["crash"] = [f"{d['path']}:{d.get('line')}: {d['message']}" for d in crashed] or [output[-2000:]]
    elif result["blockers"] or result["estimator_calls_left"]:
        result["outcome"] = "REPORTED"
    elif any("does not compile" in p or "undefined" in p for p in result["static_problems"]):
        result["outcome"] = "BROKEN"
    else:
        result["outcome"] = "CONVERTED"
    result["unparsed"] = [line for line in output.splitlines() if "could not be" in line or "cannot parse" in line]
    return result


def survey(programs: Path, only: list[str], per_file: bool = False) -> list[dict]:
    manifest = read_manifest(programs)
    results = []
    for program in sorted(p for p in programs.iterdir() if p.is_dir()):
        ident = program.name.split("_", 1)[0]
        if only and ident not in only:
            continue
        with tempfile.TemporaryDirectory(prefix="survey-") as work:
            record = classify(program, Path(work))
            if per_file:
                record["file_crashes"] = crashes_of_files(program, Path(work))
        record.update(id=ident, name=program.name, manifest=manifest.get(ident, {}))
        print(f"{ident} {program.name}: {record['outcome']}", file=sys.stderr)
        results.append(record)
    return results


def tool_source() -> str:
    """Which tf2migrate was measured: its folder and, when it is a git checkout, the commit."""
    found = subprocess.run([sys.executable, "-c", "import tf2migrate, os; print(os.path.dirname(tf2migrate.__file__))"],
                           capture_output=True, text=True, cwd=tempfile.gettempdir()).stdout.strip()
    root = os.path.dirname(found)
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    branch = subprocess.run(["git", "-C", root, "rev-parse", "--abbrev-ref", "HEAD"], capture_output=True, text=True)
    return f"{root} ({branch.stdout.strip()} @ {commit.stdout.strip()})" if commit.returncode == 0 else root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("programs", type=Path)
    parser.add_argument("--markdown", type=Path, help="write the markdown report here (default: stdout)")
    parser.add_argument("--json", type=Path, help="also write every result as JSON")
    parser.add_argument("--only", nargs="*", default=[], help="program ids to run (default: all)")
    parser.add_argument("--from-json", type=Path, help="render the report of a previous --json run (no rewrite)")
    parser.add_argument("--per-file", action="store_true", help="also rewrite each file alone and list its crashes")
    parser.add_argument("--label", help="how to name the measured tf2migrate tree (default: its folder and git commit)")
    parser.add_argument("--notes", type=Path, help="a markdown file of observations to put under the title")
    args = parser.parse_args(argv)
    if args.from_json:
        stored = json.loads(args.from_json.read_text(encoding="utf-8"))
        results, tool = stored["programs"], args.label or stored["tool"]
    else:
        results = survey(args.programs, args.only, args.per_file)
        tool = args.label or tool_source()
    text = render_markdown(results, tool)
    if args.notes:
        title, _, rest = text.partition("\n")
        text = f"{title}\n\n{args.notes.read_text(encoding='utf-8').strip()}\n{rest}"
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    else:
        print(text)
    if args.json:
        args.json.write_text(json.dumps({"tool": tool, "programs": results}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
