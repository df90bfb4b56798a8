"""How fast is `tf2migrate rewrite --check` next to `tf_upgrade_v2`, on the same real TF1-era tree?

    python bench/rewrite_speed.py            # 3 repetitions, medians
    python bench/rewrite_speed.py -n 5 --no-peer

The corpora (corpora.py) are the Python sources of two wheels, fetched once with `pip download` into
`bench/corpus/` (git-ignored): `tensor2tensor==1.14.0` (real TF1 code, most of it needing the upgrade: the
headline) and `tensorflow-estimator==2.15.0` (TF2-era Estimator code; also the source of the one-file cuts).
`--corpus NAME` (repeatable) measures only those.

Measured, each `--repeat` times (the median is reported, wall and CPU time of the child process), per corpus:
  - `tf2migrate rewrite --check TREE` cold: a fresh, empty cache folder (TF2MIGRATE_CACHE_DIR);
  - the same command warm: a second run on the cache the cold run left;
  - `tf_upgrade_v2 --intree TREE --outtree OUT --reportfile REPORT` (shipped with tensorflow-cpu);
  - `tf2migrate rewrite --check FILE` on one ~1,000-line file cut from a real estimator module
    that the tool must parse with LibCST (it needs a rewrite), and on one ~1,000-line file that
    the cheap pre-pass proves clean; both with a fresh cache.
Targets (issue 12, point 5, every table enabled): cold >= 10x faster than tf_upgrade_v2, warm >= 100x, one file < 0.3 s;
on the TF1 corpus (issue 20): cold >= 10x in wall time and >= 5x in CPU.
They are printed, never asserted: timings depend on the machine and on what else runs on it.
"""
from __future__ import annotations

import argparse
import ast
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from corpora import CORPORA, CORPUS, ESTIMATOR  # noqa: E402  (bench/ is not a package)

TARGET_COLD, TARGET_WARM, TARGET_ONE_FILE = 10.0, 100.0, 0.3
ONE_FILE_LINES = 1000
CHANGED_SOURCE = "tensorflow_estimator/python/estimator/canned/dnn.py"  # partitioners: needs a rewrite


# ---------------------------------------------------------------------------------------- corpus

def python_files(tree: Path) -> list:
    return sorted(p for p in tree.rglob("*.py") if p.is_file())


def count_lines(paths) -> int:
    return sum(p.read_bytes().count(b"\n") for p in paths)


def cut_at_statement(text: str, lines: int) -> str:
    """The first ~`lines` lines, cut after the statement (at any depth) that ends closest to `lines`
    and leaves a file that still compiles."""
    source = text.splitlines(True)
    ends = sorted({node.end_lineno for node in ast.walk(ast.parse(text)) if isinstance(node, ast.stmt)},
                  key=lambda end: (abs(end - lines), -end))
    for end in ends:
        out = "".join(source[:end])
        try:
            compile(out, "<cut>", "exec", dont_inherit=True)
        except SyntaxError:  # e.g. cut inside a `try:` before its `except`
            continue
        return out
    raise ValueError("no statement boundary gives a file that compiles")


def one_file_inputs(tree: Path, workdir: Path) -> dict:
    """Two ~1,000-line files cut from real estimator modules: one that needs a rewrite (LibCST must
    parse it), one that the cheap pre-pass (trigger words, then `ast`) proves clean."""
    from tf2migrate.engine.process import Status, precheck  # the tool's own pre-pass
    from tf2migrate.rules.wake_words import triggers

    pattern = triggers()

    def settled_by_prepass(text: str) -> bool:
        done = precheck("cut.py", text.encode("utf-8"), pattern)[1]
        return done is not None and done.status is Status.UNCHANGED

    changed = cut_at_statement((tree / CHANGED_SOURCE).read_text(encoding="utf-8"), ONE_FILE_LINES)
    if settled_by_prepass(changed):
        sys.exit(f"{CHANGED_SOURCE}: the pre-pass settles its first {ONE_FILE_LINES} lines: pick another file")
    clean_source, clean = None, None
    for path in python_files(tree):
        text = path.read_text(encoding="utf-8")
        if text.count("\n") >= ONE_FILE_LINES:
            cut = cut_at_statement(text, ONE_FILE_LINES)
            if settled_by_prepass(cut):
                clean_source, clean = path.relative_to(tree), cut
                break
    if clean is None:
        sys.exit("no module of the corpus is both long enough and settled by the pre-pass")
    out = {}
    for label, source, text in (("changed", CHANGED_SOURCE, changed), ("clean", str(clean_source), clean)):
        folder = workdir / label
        folder.mkdir()
        target = folder / Path(source).name
        target.write_text(text, encoding="utf-8")
        (folder / "pyproject.toml").write_text("")
        words = sorted(set().union(*pattern.scan(text)))
        out[label] = (target, source, text.count("\n"), words)
    return out


# ---------------------------------------------------------------------------------------- tools

def find_tool(name: str):
    here = Path(sys.executable).parent / name
    if here.is_file() and os.access(here, os.X_OK):
        return str(here)
    return shutil.which(name)


def timed(cmd, env=None, cwd=None, ok=(0,)) -> tuple:
    """(wall seconds, CPU seconds of the child, completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in ok:
        sys.exit(f"$ {' '.join(map(str, cmd))}\nexit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return wall, cpu, proc


def summary_line(proc) -> str:
    lines = [l for l in proc.stderr.splitlines() if l.startswith("tf2migrate:")]
    return lines[-1] if lines else "(no summary line)"


class Series:
    def __init__(self, label: str) -> None:
        self.label, self.walls, self.cpus, self.note = label, [], [], ""

    def add(self, wall: float, cpu: float) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)


# ---------------------------------------------------------------------------------------- main

def main(argv=None) -> int:
    snapshot = Path(tempfile.mkdtemp(prefix="tf2migrate-bench-code-"))
    try:
        return _main(argv, snapshot)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)


def _main(argv, snapshot: Path) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--repeat", type=int, default=3, help="repetitions per measurement (median)")
    parser.add_argument("--no-peer", action="store_true", help="skip tf_upgrade_v2")
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA),
                        help="measure only this corpus (repeatable; default: all, the TF1 one first)")
    parser.add_argument("--tf2migrate", default=None,
                        help="the tf2migrate command to time (default: a snapshot of this checkout, run with "
                             "this python, so that edits made while the benchmark runs change nothing)")
    parser.add_argument("--peer", default=None, help="the tf_upgrade_v2 command (default: next to python)")
    parser.add_argument("-j", "--jobs", type=int, default=None, help="passed to tf2migrate -j")
    args = parser.parse_args(argv)
    corpora = [CORPORA[name] for name in (args.corpus or list(CORPORA))]

    if args.tf2migrate:
        tool, tool_env = [args.tf2migrate], {}
    else:  # the cache is keyed on the rule code's files: a snapshot keeps cold and warm runs comparable
        shutil.copytree(ROOT / "tf2migrate", snapshot / "tf2migrate",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copytree(ROOT / "rules", snapshot / "rules")
        # byte-compiled, as `pip install` leaves an installed package (and as tf_upgrade_v2 is): without it,
        # under PYTHONDONTWRITEBYTECODE every run compiles the modules it imports (0.05 s warm, 0.25 s with LibCST)
        compileall.compile_dir(str(snapshot / "tf2migrate"), quiet=1)
        tool, tool_env = [sys.executable, "-m", "tf2migrate"], {"PYTHONPATH": str(snapshot)}
    jobs = ["-j", str(args.jobs)] if args.jobs else []
    peer = None
    if not args.no_peer:
        peer = args.peer or find_tool("tf_upgrade_v2")
        if peer is None:
            sys.exit("tf_upgrade_v2 not found next to this python or on PATH. It ships with TensorFlow:\n"
                     "    python -m pip install tensorflow-cpu==2.15.1\n"
                     "or run with --no-peer to measure tf2migrate alone.")

    load_before = os.getloadavg()
    origin = f" (a byte-compiled snapshot of {ROOT})" if tool_env else ""
    print(f"tf2migrate: {' '.join(tool)}{origin}; tf_upgrade_v2: {peer or 'skipped'}; {os.cpu_count()} cores; "
          f"load average {load_before[0]:.2f}; {args.repeat} repetitions", flush=True)
    with tempfile.TemporaryDirectory(prefix="tf2migrate-bench-") as tmp:
        for corpus in corpora:
            _measure_corpus(corpus, Path(tmp) / corpus.name, tool, tool_env, jobs, peer, args.repeat,
                            singles=corpus is ESTIMATOR)
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"(other work on the machine inflates every wall time)")
    return 0


def _measure_corpus(corpus, tmp: Path, tool, tool_env, jobs, peer, repeat: int, singles: bool) -> None:
    """Cold, warm and tf_upgrade_v2 on one corpus (and the one-file cuts, from the estimator corpus)."""
    tree = corpus.tree()
    files = python_files(tree)
    lines = count_lines(files)
    tmp.mkdir(parents=True)
    print(f"\n== corpus {corpus.name}: {tree.relative_to(ROOT) if tree.is_relative_to(ROOT) else tree}: "
          f"{len(files)} files, {lines:,} lines", flush=True)
    cold, warm, up = Series("tf2migrate rewrite --check, cold cache"), Series("tf2migrate rewrite --check, warm cache"), \
        Series("tf_upgrade_v2 --intree --outtree")
    # One file, as a pre-commit hook sees it: its content is new to the cache. "first run": no cache
    # folder at all; "cache in use": the folder an earlier run on the corpus left (rules known).
    singles_series = {
        ("changed", False): Series("one file, needs a rewrite, first run"),
        ("changed", True): Series("one file, needs a rewrite, cache in use"),
        ("clean", False): Series("one file, clean by pre-pass, first run"),
        ("clean", True): Series("one file, clean by pre-pass, cache in use"),
    } if singles else {}
    summaries = set()
    cuts = one_file_inputs(tree, tmp) if singles else {}
    for rep in range(repeat):
        env = dict(os.environ, **tool_env, TF2MIGRATE_CACHE_DIR=str(tmp / f"cache-{rep}"))
        check = [*tool, "rewrite", "--check", *jobs, "--config", str(CORPUS / "pyproject.toml"), str(tree)]
        wall, cpu, proc = timed(check, env=env, cwd=tmp, ok=(0, 1))
        cold.add(wall, cpu)
        summaries.add(summary_line(proc))
        wall, cpu, proc = timed(check, env=env, cwd=tmp, ok=(0, 1))
        warm.add(wall, cpu)
        if len(list((tmp / f"cache-{rep}").glob("cache-*.json"))) != 1:
            warm.note = "the cache key changed between the cold and the warm run: warm time not valid"
        summaries.add(summary_line(proc))
        for (label, reuse), series in singles_series.items():
            target = cuts[label][0]
            single_cache = tmp / f"cache-{label}-{reuse}-{rep}"
            if reuse:  # a copy of the corpus cache: this file's content is not in it
                shutil.copytree(tmp / f"cache-{rep}", single_cache)
            single_env = dict(os.environ, **tool_env, TF2MIGRATE_CACHE_DIR=str(single_cache))
            wall, cpu, proc = timed([*tool, "rewrite", "--check", str(target.name)], env=single_env,
                                    cwd=target.parent, ok=(0, 1))
            series.add(wall, cpu)
            series.note = f"exit {proc.returncode}"
        if peer:
            out = tmp / f"upgraded-{rep}"
            wall, cpu, _ = timed([peer, "--intree", str(tree), "--outtree", str(out),
                                  "--reportfile", str(tmp / f"report-{rep}.txt")], cwd=tmp)
            up.add(wall, cpu)
            shutil.rmtree(out, ignore_errors=True)
        print(f"  repetition {rep + 1}/{repeat} done", flush=True)
    _report(corpus, lines, cold, warm, up if peer else None, singles_series, cuts, summaries, repeat)


def _report(corpus, lines, cold, warm, up, singles_series, cuts, summaries, repeat) -> None:
    print()
    for s in sorted(summaries):
        print(f"tf2migrate said: {s}")
    for label, (target, source, n, words) in cuts.items():
        mention = f"; trigger words in its text: {', '.join(words)}" if words else "; no trigger word in its text"
        print(f"one file, {label}: the first {n} lines of {source}{mention}")
    print()
    width = 46
    print(f"{'measurement (median of ' + str(repeat) + ')':<{width}} {'wall s':>8} {'cpu s':>8}   all walls")
    print("-" * (width + 40))
    rows = [cold, warm] + ([up] if up else []) + list(singles_series.values())
    for s in rows:
        walls = " ".join(f"{w:.2f}" for w in s.walls)
        print(f"{s.label:<{width}} {s.wall:8.2f} {s.cpu:8.2f}   {walls}")
    if warm.note:
        print(f"WARNING: {warm.note}")
    print()
    if up:
        for name, series, target in (("cold", cold, TARGET_COLD), ("warm", warm, TARGET_WARM)):
            ratio = up.wall / series.wall
            verdict = "met" if ratio >= target else "MISSED"
            print(f"[{corpus.name}] {name} vs tf_upgrade_v2: {ratio:6.1f}x faster (wall; target >= {target:g}x: "
                  f"{verdict}); cpu {up.cpu / series.cpu:.1f}x")
    for series in singles_series.values():
        verdict = "met" if series.wall < TARGET_ONE_FILE else "MISSED"
        print(f"{series.label}: {series.wall:.3f} s (target < {TARGET_ONE_FILE} s: {verdict}; {series.note})")
    print(f"[{corpus.name}] throughput: cold {lines / cold.wall:,.0f} lines/s"
          + (f", tf_upgrade_v2 {lines / up.wall:,.0f} lines/s" if up else ""))


if __name__ == "__main__":
    sys.exit(main())
