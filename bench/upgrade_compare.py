"""Does tf2migrate upgrade TF1 code the way tf_upgrade_v2 does? A differential comparison.

    python bench/upgrade_compare.py                 # one small program per entry of the official tables
    python bench/upgrade_compare.py --corpus        # the benchmark corpus (see rewrite_speed.py)

Per entry of tf_upgrade_v2's own tables (read from the installed TensorFlow at run time, nothing copied):
one small TF1 program. Both tools run once over the whole tree (tf_upgrade_v2 --intree/--outtree;
tf2migrate rewrite on a copy). Outputs are compared after normalising formatting (Python's `ast`, keyword
arguments sorted: tf_upgrade_v2 puts the keywords it makes first). An entry agrees when the code is the same
and, for entries tf_upgrade_v2 reports, both tools report that file. An entry that differs on purpose,
as listed in rules/differences/tf_upgrade_v2.toml, counts as a documented difference.
tests/test_upgrade_differential.py asserts the agreement; this script prints it.
"""
from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DIFFERENCES = ROOT / "rules" / "differences" / "tf_upgrade_v2.toml"
_LOG = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<level>INFO|WARNING|ERROR): ", re.M)

_DUMP = r"""
import functools, json
from tensorflow.tools.compatibility import tf_upgrade_v2
s = tf_upgrade_v2.TFAPIChangeSpec()
print(json.dumps({
    "renames": s.symbol_renames,
    "keywords": {k: v for k, v in s.function_keyword_renames.items()},
    "reorders": s.function_reorders,
    "warnings": {k: v[0] for k, v in s.function_warnings.items()},
    "arg_warnings": {k: [[kw, pos, lvl] for (kw, pos), (lvl, _) in v.items()] for k, v in s.function_arg_warnings.items()},
    "transformers": {k: (v.func if isinstance(v, functools.partial) else v).__name__
                     for k, v in s.function_transformers.items()},
    "modules": {k: v[0] for k, v in s.module_deprecations.items()},
}))
"""


def official_data() -> dict:
    """tf_upgrade_v2's tables, from the installed TensorFlow (in a child: TF stays out of this process)."""
    out = subprocess.run([sys.executable, "-c", _DUMP], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _args(n: int) -> str:
    return ", ".join(f"a{i}" for i in range(n))


def programs(data: dict) -> dict:
    """file name -> (category, name, source): one TF1 program per entry of every table."""
    out = {}

    def add(category: str, name: str, line: str) -> None:
        out[f"e{len(out):04d}_{category}.py"] = (category, name, f"import tensorflow as tf\n\nx = {line}\n")

    for name in sorted(data["renames"]):
        if name.startswith("tf."):
            add("rename", name, name)
    for name, keywords in sorted(data["keywords"].items()):
        if name.startswith("tf."):
            add("keywords", name, f"{name}({', '.join(f'{k}=v{i}' for i, k in enumerate(keywords))})")
    for name, order in sorted(data["reorders"].items()):
        if name.startswith("tf."):
            add("reorder", name, f"{name}({_args(_valid_positionals(order, data['keywords'].get(name, {})))})")
    for name in sorted(data["warnings"]):
        if name.startswith("tf."):
            add("warning", name, f"{name}(a0)")
        elif name.startswith("*."):
            add("warning", name, f"obj.{name[2:]}(a0)")
    for name, args in sorted(data["arg_warnings"].items()):
        if name.startswith("tf."):
            add("arg_warning", name, f"{name}({', '.join(f'{kw}=v{i}' for i, (kw, _, _) in enumerate(args))})")
    for name in sorted(data["modules"]):
        add("module", name, f"{name}.some_member(a0)")
    for name in sorted(data["transformers"]):
        if name.startswith("tf."):
            add("transformer", name, f"{name}(a0)")
        elif name.startswith("*."):
            add("transformer", name, f"obj.{name[2:]}(a0)")
    return out


def _valid_positionals(order: list, renames: dict) -> int:
    """How many positional arguments a valid TF1 call may pass: TF1 signatures end in deprecated aliases
    (`keep_dims` after `keepdims`) and passing both is an error, so stop before the first argument whose
    TF2 keyword repeats an earlier one."""
    seen = set()
    for i, name in enumerate(order):
        final = renames.get(name, name) if name else f"#{i}"
        if final in seen:
            return i
        seen.add(final)
    return len(order)


def write_tree(folder: Path, files: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (_, _, text) in files.items():
        (folder / name).write_text(text, encoding="utf-8")


_OFFICIAL = r"""
import json, shutil, sys
from pathlib import Path
from tensorflow.tools.compatibility import ast_edits, tf_upgrade_v2

intree, outtree = Path(sys.argv[1]), Path(sys.argv[2])
found = {}
def upgrader():  # as `tf_upgrade_v2 --intree` builds it (its default mode and options)
    return ast_edits.ASTCodeUpgrader(tf_upgrade_v2.TFAPIChangeSpec(import_rename=False, upgrade_compat_v1_import=True))
upgrade = upgrader()
for path in sorted(intree.rglob("*.py")):
    rel = path.relative_to(intree)
    (outtree / rel).parent.mkdir(parents=True, exist_ok=True)
    try:
        _, _, errors = upgrade.process_file(str(path), str(outtree / rel))
        found[str(rel)] = {"errors": errors}
    except Exception as exc:  # the tool's own bug: the CLI would abort the whole tree here
        shutil.copyfile(path, outtree / rel)
        found[str(rel)] = {"errors": [], "crash": f"{type(exc).__name__}: {exc}"}
        upgrade = upgrader()
print(json.dumps(found))
"""


def run_official(intree: Path, outtree: Path) -> dict:
    """relative path -> {"levels": [(line, level)], "crash": str or None}; outputs under `outtree`.

    Runs tf_upgrade_v2's own `ASTCodeUpgrader(TFAPIChangeSpec()).process_file` on every file, which is
    what `tf_upgrade_v2 --intree` runs, in one child process. Each file runs in a `try`: the command
    aborts the whole tree on its first crash (it crashes on `tf.nn.fractional_avg_pool(...,
    deterministic)`), which would leave nothing to compare."""
    done = subprocess.run([sys.executable, "-c", _OFFICIAL, str(intree), str(outtree)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"tf_upgrade_v2 failed ({done.returncode}):\n{done.stderr[-3000:]}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return {rel: {"levels": [(int(m["line"]), m["level"]) for e in v["errors"] for m in [_LOG.match(e)] if m],
                  "crash": v.get("crash")} for rel, v in data.items()}


def run_tf2migrate(intree: Path, outtree: Path, source: str = "auto") -> dict:
    """relative path -> [diagnostic dicts]; the rewritten files are left under `outtree`."""
    shutil.copytree(intree, outtree)
    (outtree / "pyproject.toml").write_text("# compared tree: default settings\n")
    report = outtree.parent / "tf2migrate_report.json"
    cmd = [sys.executable, "-m", "tf2migrate", "rewrite", "--no-cache", "-q", "--source", source,
           "--report", str(report), str(outtree)]
    subprocess.run(cmd, capture_output=True, text=True, cwd=str(ROOT))
    data = json.loads(report.read_text(encoding="utf-8"))
    return {str(Path(f["path"]).resolve().relative_to(outtree.resolve())): f["diagnostics"] for f in data["files"]}


class _SortKeywords(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call):
        self.generic_visit(node)
        node.keywords = sorted(node.keywords, key=lambda k: (k.arg is None, k.arg or ""))
        return node


def normalise(code: str):
    """The program's meaning as far as formatting goes: its `ast`, keyword arguments sorted."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    return ast.dump(_SortKeywords().visit(tree), include_attributes=False)


def differences() -> list:
    return tomllib.loads(DIFFERENCES.read_text(encoding="utf-8"))["difference"]


def documented(category: str, name: str, diffs: list, transformers: dict) -> bool:
    """Listed in the differences file (a name, a pattern, or a transformer tf2migrate only reports)."""
    data_kinds = {kind for d in diffs for kind in d.get("data_transformers", ())}
    kind = transformers.get(name)
    for diff in diffs:
        for pattern in diff["names"]:
            if pattern == "@transformers" and kind is not None and kind not in data_kinds:
                return True
            if not pattern.startswith("@") and fnmatch.fnmatchcase(name, pattern):
                return True
    return False


def compare(files: dict, transformers: dict, official_out: Path, official_log: dict, ours_out: Path, ours_log: dict):
    """Counter of verdicts per category, and the list of disagreements (name, why)."""
    verdicts, disagreements, diffs = Counter(), [], differences()
    for name_, (category, name, _) in files.items():
        theirs = normalise((official_out / name_).read_text(encoding="utf-8"))
        mine = normalise((ours_out / name_).read_text(encoding="utf-8"))
        official = official_log.get(name_, {"levels": [], "crash": None})
        if official["crash"]:
            verdicts[(category, "peer crash")] += 1
            disagreements.append((category, name, f"tf_upgrade_v2 crashes: {official['crash']}"))
            continue
        they_report = any(level != "INFO" for _, level in official["levels"])
        we_report = any(not d["fixed"] for d in ours_log.get(name_, ()))
        why = None
        if theirs != mine:
            why = "code differs"
        elif they_report and not we_report:
            why = "tf_upgrade_v2 reports it, tf2migrate does not"
        if why is None:
            verdicts[(category, "agree")] += 1
        elif documented(category, name, diffs, transformers):
            verdicts[(category, "documented")] += 1
        else:
            verdicts[(category, "differ")] += 1
            disagreements.append((category, name, why))
    return verdicts, disagreements


def run_entries(workdir: Path, source: str = "tf1"):
    data = official_data()
    files = programs(data)
    tree = workdir / "in"
    write_tree(tree, files)
    official_log = run_official(tree, workdir / "official")
    ours_log = run_tf2migrate(tree, workdir / "tf2migrate", source)
    return files, compare(files, data["transformers"], workdir / "official", official_log, workdir / "tf2migrate",
                          ours_log)


def summary(verdicts: Counter) -> str:
    categories = sorted({c for c, _ in verdicts})
    lines = [f"{'category':<12} {'agree':>6} {'documented':>10} {'differ':>6} {'peer crash':>10}"]
    for c in categories + ["all"]:
        get = (lambda v: verdicts[(c, v)]) if c != "all" else (lambda v: sum(n for (_, w), n in verdicts.items() if w == v))
        lines.append(f"{c:<12} {get('agree'):>6} {get('documented'):>10} {get('differ'):>6} {get('peer crash'):>10}")
    return "\n".join(lines)


def agreement(verdicts: Counter, categories=None) -> tuple:
    """(strict agreement, agreement counting documented differences) over `categories` (all by default)."""
    picked = {k: n for k, n in verdicts.items()
              if (categories is None or k[0] in categories) and k[1] != "peer crash"}  # nothing to compare
    total = sum(picked.values()) or 1
    agree = sum(n for (_, v), n in picked.items() if v == "agree")
    documented_ = sum(n for (_, v), n in picked.items() if v == "documented")
    return agree / total, (agree + documented_) / total


def _changed_lines(before: str, after: str) -> dict:
    """original line number -> its new text, for lines an in-place edit changed (imports added at the
    top shift nothing: a line is matched by content around it)."""
    import difflib

    a, b = before.splitlines(), after.splitlines()
    out = {}
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "replace":
            for k in range(i2 - i1):
                out[i1 + k] = b[j1 + k].strip() if j1 + k < j2 else None
        elif tag == "delete":
            out.update({k: None for k in range(i1, i2)})
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="store_true", help="compare on the benchmark corpus instead")
    parser.add_argument("--source", default=None, help="tf2migrate --source (default: tf1 for entries, auto for the corpus)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tf2migrate-compare-") as tmp:
        work = Path(tmp)
        if args.corpus:
            return corpus(work, args.source or "auto")
        files, (verdicts, disagreements) = run_entries(work, args.source or "tf1")
    print(summary(verdicts))
    for category, name, why in disagreements:
        print(f"  differ: {category} {name}: {why}")
    strict, with_docs = agreement(verdicts)
    print(f"{len(files)} entries: {strict:.1%} agree, {with_docs:.1%} with the documented differences")
    return 0


def corpus(work: Path, source: str) -> int:
    sys.path.insert(0, str(ROOT / "bench"))
    from corpora import ESTIMATOR
    from rewrite_speed import python_files

    tree = ESTIMATOR.tree()
    official_log = run_official(tree, work / "official")
    ours_log = run_tf2migrate(tree, work / "tf2migrate", source)
    same = changed_by_either = their_lines = same_lines = our_lines = 0
    for path in python_files(tree):
        rel = str(path.relative_to(tree))
        text = path.read_text(encoding="utf-8")
        theirs_text = (work / "official" / rel).read_text(encoding="utf-8")
        mine_text = (work / "tf2migrate" / rel).read_text(encoding="utf-8")
        original, theirs, mine = normalise(text), normalise(theirs_text), normalise(mine_text)
        if theirs == original and mine == original:
            continue
        changed_by_either += 1
        same += theirs == mine
        t, m = _changed_lines(text, theirs_text), _changed_lines(text, mine_text)
        their_lines += len(t)
        our_lines += len(set(m) - set(t))
        same_lines += sum(1 for line, new in t.items() if m.get(line) == new)
        if theirs != mine:
            print(f"  differ: {rel} (tf_upgrade_v2 {'changed' if theirs != original else 'kept'} it, "
                  f"tf2migrate {'changed' if mine != original else 'kept'} it)")
    print(f"lines tf_upgrade_v2 changed: {their_lines}, tf2migrate changed {same_lines} of them the same way "
          f"({same_lines / max(their_lines, 1):.1%}); lines only tf2migrate changed: {our_lines}")
    reported = sum(1 for r in official_log if any(level != "INFO" for _, level in official_log[r]["levels"]))
    crashed = sorted(r for r in official_log if official_log[r]["crash"])
    ours_reported = sum(1 for r in ours_log if any(not d["fixed"] for d in ours_log[r]))
    files = len(python_files(tree))
    print(f"corpus {tree.name}: {files} files; {changed_by_either} changed by either tool, "
          f"{same} of them identically ({same / max(changed_by_either, 1):.1%}); "
          f"{files - changed_by_either} left alone by both; files with findings: "
          f"tf_upgrade_v2 {reported}, tf2migrate {ours_reported}; tf_upgrade_v2 crashed on {len(crashed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
