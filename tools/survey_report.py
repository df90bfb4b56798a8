"""The survey's markdown report: one row per program, then its blockers counted by finding message.

Messages are normalised (backticked names, line and other numbers replaced) so that the same blocker met
on two programs is counted once per program, like the table of issue 17.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from datetime import datetime, timezone

from survey_checks import HAVE_PYFLAKES

OUTCOMES = ("CONVERTED", "BROKEN", "REPORTED", "CRASH")
CONSEQUENCE = re.compile(r"was not read|the other TFM302|see TFM302|conversion is blocked|the Estimator on line \d+ is not")
ORIGINAL_FAILS = "does not run as written"  # 05, 08, 18: the original fails in TF1 itself, whatever converts
OUTSIDE = "outside the Estimator program that was converted"  # a name left next to an Estimator that converted


def normalise(message: str) -> str:
    """The words of a finding, without the names and numbers that differ from program to program."""
    message = message.split("; removed in TF 2.16")[0].strip()
    message = re.sub(r"`[^`]*`", "`…`", message)
    message = re.sub(r"\bline \d+", "line N", message)
    message = re.sub(r"\b\d+\b", "N", message)
    return message


def main_diagnostic(record: dict) -> dict | None:
    """The finding that the original itself does not run, else the first root blocker (TFM302/308/322 that is not
    the consequence of another), else the first TFM35x: a program that fails in TF1 has that as its cause."""
    blockers = record["blockers"]
    causes = [d for d in blockers if not CONSEQUENCE.search(d["message"])] or blockers
    roots = [d for d in causes if not d["code"].startswith("TFM35")]
    broken = [d for d in roots if ORIGINAL_FAILS in d["message"]]
    return (broken or roots or causes or [None])[0]


def converted_outside(record: dict) -> bool:
    """Only TFM35x findings on names outside an Estimator that did convert (e.g. a contrib data loader)."""
    blockers = record["blockers"]
    return bool(blockers) and all(d["code"].startswith("TFM35") and OUTSIDE in d["message"] for d in blockers)


def main_blocker(record: dict) -> str:
    """One line: the main blocker finding, else the crash, what was left or what broke."""
    if record["outcome"] == "CRASH":
        return "crash: " + record["crash"][0].strip().splitlines()[-1][:160]
    diagnostic = main_diagnostic(record)
    if diagnostic:
        prefix = "(Estimator converted, name left outside it) " if converted_outside(record) else ""
        source = f" — `{diagnostic['source']}`" if diagnostic.get("source") else ""
        return f"{prefix}{diagnostic['code']} {diagnostic['path']}:{diagnostic['line']}: {diagnostic['message'][:160]}{source}"
    if record["estimator_calls_left"]:
        return "no blocker finding, but an Estimator call is left: " + record["estimator_calls_left"][0]
    if record["static_problems"]:
        return record["static_problems"][0]
    return ""


def where(record: dict) -> str:
    row = record["manifest"]
    if not row:
        return record["name"]
    commit = re.sub(r"\b([0-9a-f]{10})[0-9a-f]{30}\b", r"\1", row.get("commit", "?"))
    return f"{row.get('repo', '?')} @ {commit} / {row.get('paths', '?')}"


def blocker_table(results: list[dict]) -> list[str]:
    programs: dict[tuple[str, str], set] = defaultdict(set)
    files: dict[tuple[str, str], set] = defaultdict(set)
    followers = set()
    for record in results:
        for diagnostic in record["blockers"]:
            if CONSEQUENCE.search(diagnostic["message"]):
                followers.add(record["id"])
                continue
            key = (diagnostic["code"], normalise(diagnostic["message"]))
            programs[key].add(record["id"])
            files[key].add((record["id"], diagnostic["path"]))
        if record["estimator_calls_left"] and not record["blockers"]:
            programs[("-", "Estimator call left with no blocker finding (silent)")].add(record["id"])
    rows = sorted(programs, key=lambda key: (-len(programs[key]), key))
    lines = ["| code | blocker (normalised finding message) | programs | files | program ids |", "|---|---|---|---|---|"]
    for key in rows:
        ids = ", ".join(sorted(programs[key]))
        lines.append(f"| {key[0]} | {key[1].replace('|', '/')} | {len(programs[key])} | {len(files[key]) or '-'} | {ids} |")
    lines += ["", f"Not counted above: findings that only follow another one (a TFM35x 'the conversion is blocked, see "
              f"TFM302', 'was not read ... the other TFM302 findings'), in {len(followers)} programs."]
    return lines


def main_blocker_table(results: list[dict]) -> list[str]:
    counts: dict[str, list[str]] = defaultdict(list)
    for record in results:
        if record["outcome"] != "REPORTED":
            continue
        diagnostic = main_diagnostic(record)
        text = f"{diagnostic['code']} {normalise(diagnostic['message'])}" if diagnostic else main_blocker(record)
        counts[("(Estimator converted) " if converted_outside(record) else "") + text].append(record["id"])
    lines = ["| main blocker (normalised) | programs | ids |", "|---|---|---|"]
    for text, ids in sorted(counts.items(), key=lambda item: (-len(item[1]), item[0])):
        lines.append(f"| {text.replace('|', '/')} | {len(ids)} | {', '.join(ids)} |")
    return lines


def render_markdown(results: list[dict], tool: str) -> str:
    counts = Counter(record["outcome"] for record in results)
    repos = {record["manifest"].get("repo", record["name"]) for record in results}
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# Estimator survey: {len(results)} programs from {len(repos)} repositories",
        "",
        f"tf2migrate: `{tool}`; run {stamp} with `python tools/survey.py`.",
        "Static check: compile" + (" + pyflakes undefined names" if HAVE_PYFLAKES else " only (pyflakes not installed)") + ".",
        "",
        " · ".join(f"**{outcome}** {counts.get(outcome, 0)}" for outcome in OUTCOMES),
        "",
        "| id | program (repo @ commit / path) | outcome | main blocker |",
        "|---|---|---|---|",
    ]
    for record in results:
        blocker = main_blocker(record).replace("|", "/").replace("\n", " ")
        lines.append(f"| {record['id']} | {where(record)} | {record['outcome']} | {blocker} |")
    lines += ["", "## Main blocker of each reported program", ""] + main_blocker_table(results)
    lines += ["", "## Every blocker finding that is a cause, counted by program", ""] + blocker_table(results)
    crashes = [record for record in results if record["outcome"] == "CRASH"]
    if crashes:
        lines += ["", "## Crashes", ""]
        for record in crashes:
            lines += [f"### {record['id']} {record['name']}", "", "```", *record["crash"], "```", ""]
    alone = [line for record in results for line in (f"{record['id']} {c}" for c in record.get("file_crashes", []))]
    if any("file_crashes" in record for record in results):
        lines += ["", "## Files rewritten alone: crashes", ""] + ([f"- {line}" for line in alone] or ["none"])
    broken = [record for record in results if record["static_problems"]]
    if broken:
        lines += ["", "## Static problems of the rewritten trees (any outcome)", ""]
        for record in broken:
            lines += [f"- {record['id']} ({record['outcome']}): " + "; ".join(record["static_problems"][:6])]
    return "\n".join(lines) + "\n"
