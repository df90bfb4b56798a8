"""Move the flat modules of `tf2migrate/harness/` into its rooms and rewrite every import of them (run once).

Rooms by phase (issue 20): `running` starts and ends the programs (parent), `capture` runs inside each child
and patches TensorFlow, `compare` holds what both sides share (the observations, their vocabulary, the
value files) and the comparisons, `report` words and writes the result. `api` and `pytest_helper` stay the
harness's face. `TABLE`: old flat name -> (room, new name). Rewrites `from tf2migrate.harness import a, b`,
dotted module paths in code and strings, and `harness/x.py` mentions in docs and comments; a branch written
against the flat layout is brought over with `--rewrite-only FILE...`.
Usage: `python tools/layout_harness.py [--dry-run]` from the repository root.
"""
import pathlib
import re
import subprocess
import sys

TABLE = {
    # running: the parent's side of a run (processes, namespaces, sides, plans, the codemod it applies)
    **{m: ("running", m) for m in ("runner", "processes", "netns", "pidns", "workdirs", "plan", "sides",
                                   "codemod_sides", "codemod_tree", "program", "topology", "unparsable",
                                   "recordings")},
    # capture: inside the child, before and around the user's program
    **{m: ("capture", m) for m in ("child", "recorder", "capture_session", "capture_keras", "capture_keras3",
                                   "capture_state", "capture_eval", "capture_dtensor", "init_laws", "own_values",
                                   "metric_kinds", "determinism", "dropout", "queue_inputs", "estimator_servers",
                                   "cluster", "legacy", "versions")},
    "capture": ("capture", "capture_estimator"),
    # compare: shared by child and parent, and the comparisons of two runs
    **{m: ("compare", m) for m in ("compare", "align", "partitions", "checks", "eval_match", "hints", "inits",
                                   "law_tests", "tolerance", "sensitivity", "plain_state")},
    # report: the verdict's words, JSON, JUnit and plot
    **{m: ("report", m) for m in ("report", "plot")},
}
HARNESS = pathlib.Path("tf2migrate/harness")
_FROM = re.compile(r"^(?P<indent>[ \t]*)from tf2migrate\.harness import (?P<names>\([^)]*\)|[^\n]*)", re.M)
_DOTTED = re.compile(r"tf2migrate\.harness\.(\w+)(?![\w.])")
_PATH = re.compile(r"(?<![\w/])harness/(\w+)\.py")


def _from(match):
    names = [n.strip() for n in match["names"].strip("()").replace("\n", " ").split(",") if n.strip()]
    by_room = {}
    for item in names:
        module = item.split(" as ")[0].strip()
        room, new = TABLE.get(module, (None, module))
        shown = item if new == module else f"{new} as {item.split(' as ')[1]}" if " as " in item else new
        by_room.setdefault(room, []).append(shown)
    return "\n".join(f"{match['indent']}from tf2migrate.harness{'.' + room if room else ''} import {', '.join(items)}"
                     for room, items in by_room.items())


def _dotted(match):
    room, new = TABLE.get(match[1], (None, None))
    return f"tf2migrate.harness.{room}.{new}" if room else match[0]


def _path(match):
    room, new = TABLE.get(match[1], (None, None))
    return f"harness/{room}/{new}.py" if room else match[0]


def rewrite(text):
    """Dotted paths first: the `from tf2migrate.harness.ROOM import` lines written after must stay as written."""
    return _PATH.sub(_path, _FROM.sub(_from, _DOTTED.sub(_dotted, text)))


def _rewrite_files(files, dry):
    for path in files:
        text = path.read_text()
        new = rewrite(text)
        if new != text:
            print(f"rewrote {path}")
            if not dry:
                path.write_text(new)


def main(argv):
    unknown = [a for a in argv if a.startswith("-") and a not in ("--dry-run", "--rewrite-only")]
    if unknown:  # `--help` once re-ran the move on the rooms and rewrote imports it should not have
        sys.exit(f"usage: python tools/layout_harness.py [--dry-run] [--rewrite-only FILE...] "
                 f"(unknown: {' '.join(unknown)})")
    dry = "--dry-run" in argv
    if "--rewrite-only" in argv:
        return _rewrite_files([pathlib.Path(a) for a in argv if not a.startswith("--")], dry)
    for room in sorted({r for r, _ in TABLE.values()}):
        init = HARNESS / room / "__init__.py"
        if not dry and not init.exists():
            init.parent.mkdir(exist_ok=True)
            init.write_text("")
    for old, (room, new) in TABLE.items():
        src, dst = HARNESS / f"{old}.py", HARNESS / room / f"{new}.py"
        if src.exists():
            print(f"git mv {src} {dst}")
            if not dry:
                subprocess.run(["git", "mv", str(src), str(dst)], check=True)
    files = [p for top in ("tf2migrate", "tests", "bench") for p in pathlib.Path(top).rglob("*.py")]
    files += list(pathlib.Path(".").glob("*.md")) + list(pathlib.Path("fixtures").rglob("*.toml"))
    files += list(pathlib.Path("fixtures").rglob("*.md")) + list(pathlib.Path("bench").rglob("*.md"))
    _rewrite_files(files, dry)


if __name__ == "__main__":
    main(sys.argv[1:])
