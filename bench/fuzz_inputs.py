"""Hostile input, generated: random bytes, encodings and cookies, line endings and nesting, plus every fixture.

    python bench/fuzz_inputs.py                 # 1,000 generated files and every fixture in three variants
    python bench/fuzz_inputs.py -n 60 --seed 3 --variants crlf

Each set of files is rewritten by `python -m tf2migrate rewrite --no-cache` in a process of its own, and:
- no run prints a traceback, and every exit code is 0, 1 or 123;
- a file that must not change is byte-identical: random bytes, a cookie naming no text codec, code with no TF1
  word, and every file the run reported as failed;
- a changed file compiles, keeps its encoding, BOM and line endings, and a second run changes nothing;
- a fixture with other line endings or a BOM is rewritten to its plain rewrite with the same line endings or BOM
  (the plain rewrite is the tool's own: this compares the tool with itself, the goldens are tests/test_fixtures.py).
Prints the counts; exit 1 if any check failed. tests/test_fuzz_inputs.py runs a small, bounded sample.
"""
from __future__ import annotations

import argparse
import codecs
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TF1 = ["x = tf.to_float(y)", "loss = strategy.experimental_run_v2(step, args=(x,))", "sess = tf.Session()",
       "s = tf.contrib.distribute.MirroredStrategy()", "h = tf.layers.dense(x, 3)", "d = tf.nn.dropout(x, 0.5)",
       "p = tf.fixed_size_partitioner(3)", "tf.logging.info('caf\u00e9 \u2603')", "v = x.shape[0].value"]
OTHER = ["z = [1, 2, {'a': (3, 4)}]", "s = 'caf\u00e9'  # \u00e9t\u00e9", "def f(a, *b, **c):\n    return a",
         "class K:\n    x = 1", "if z:\n    pass\nelse:\n    q = 2", "w = lambda: (yield)", "t = f'{z!r:>10}'"]
TEXT_CODECS = ["utf-8", "latin-1", "cp1252", "koi8-r", "shift_jis", "euc-jp", "gb2312", "ascii", "utf-16", "cp037"]
OTHER_CODECS = ["rot13", "hex", "base64", "zlib", "bz2", "uu", "quopri", "unicode_escape", "no-such-codec"]
ENDINGS = ["\n", "\r\n", "\r"]


def generated(rng: random.Random, i: int) -> tuple:
    """(file name, bytes, whether it must stay byte-identical)."""
    kind = rng.choice(["bytes", "cookie", "endings", "nesting", "chain", "clean", "cut"])
    if kind == "bytes":
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(400)))
        return f"g{i:04d}_bytes.py", (b"import tensorflow as tf\n" if rng.random() < 0.5 else b"") + data, True
    lines = ["import tensorflow as tf"] + [rng.choice(TF1 + OTHER) for _ in range(rng.randrange(1, 12))]
    if kind == "clean":
        return f"g{i:04d}_clean.py", "\n".join(rng.choice(OTHER) for _ in range(8)).encode() + b"\n", True
    if kind == "nesting":
        depth = rng.randrange(1, 260)
        opens = "".join(rng.choice("([") for _ in range(depth))
        lines.append("n = " + opens + rng.choice(TF1).split(" = ")[-1] + "".join({"(": ",)", "[": "]"}[c] for c in reversed(opens)))
    if kind == "chain":
        lines.append("c = tf.to_float(q) + " + " + ".join(f"v{k}" for k in range(rng.randrange(1, 600))))
    text = rng.choice(ENDINGS).join(lines) + rng.choice(ENDINGS)
    if kind == "endings":
        text = "".join(line + rng.choice(ENDINGS) for line in lines)
    if kind == "cookie":
        codec = rng.choice(TEXT_CODECS + OTHER_CODECS)
        text = f"# -*- coding: {codec} -*-\n" + text
        try:
            data = codecs.encode(text, codec) if codec in TEXT_CODECS else text.encode("utf-8", "replace")
        except (UnicodeError, LookupError):
            data = text.encode("utf-8")
        return f"g{i:04d}_cookie_{codec}.py", data, codec not in TEXT_CODECS
    data = (codecs.BOM_UTF8 if rng.random() < 0.2 else b"") + text.encode("utf-8")
    if kind == "cut":
        data = data[:rng.randrange(len(data) + 1)]
    return f"g{i:04d}_{kind}.py", data, False


VARIANTS = {
    "crlf": lambda data: data.replace(b"\n", b"\r\n"),
    "cr": lambda data: data.replace(b"\n", b"\r"),
    "bom": lambda data: codecs.BOM_UTF8 + data,
}


def rewrite(folder: Path, *flags) -> tuple:
    run = subprocess.run([sys.executable, "-m", "tf2migrate", "rewrite", "--no-cache", *flags, str(folder)],
                         capture_output=True, cwd=folder, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return run.returncode, run.stderr.decode("utf-8", "replace")


def failed_paths(output: str) -> set:
    return {m.group(1) for m in re.finditer(r"^(.*?):\d+:\d+: TFM9\d\d ", output, re.M)}


def check_run(folder: Path, before: dict, keep: set, problems: list, counts: dict) -> None:
    code, output = rewrite(folder)
    counts["runs"] += 1
    counts["tracebacks"] += output.count("Traceback")
    counts["internal errors (TFM999)"] += len(re.findall(r" TFM999 ", output))
    if code not in (0, 1, 123) or "Traceback" in output:
        problems.append(f"{folder}: exit {code}\n{output[-2000:]}")
    failed = failed_paths(output)
    counts["failed (one line each)"] += len(failed)
    for path, old in before.items():
        new = path.read_bytes()
        if new == old:
            continue
        counts["changed"] += 1
        if path in keep or str(path) in failed:
            problems.append(f"{path}: changed, but it must stay byte-identical")
        try:
            compile(new, str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            problems.append(f"{path}: the rewrite does not compile: {exc}")
        for mark in (b"\r\n", b"\r", codecs.BOM_UTF8):
            if (mark in old) != (mark in new) and not (mark == b"\r" and b"\r\n" in old):
                problems.append(f"{path}: {mark!r} {'lost' if mark in old else 'added'}")
    again = {p: p.read_bytes() for p in before}
    code, output = rewrite(folder)
    counts["runs"] += 1
    changed_again = [p for p in before if p.read_bytes() != again[p]]
    counts["changed by a second run"] += len(changed_again)
    problems.extend(f"{p}: a second run changed it again" for p in changed_again)


def fixtures(work: Path, variants, problems: list, counts: dict) -> None:
    sources = sorted(p for p in (ROOT / "fixtures").rglob("*.py") if not p.name.endswith(".after.py"))
    plain = work / "plain"
    for src in sources:
        dest = plain / src.relative_to(ROOT / "fixtures")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest)
    counts["fixture files"] = len(sources)
    originals = {p: p.read_bytes() for p in plain.rglob("*.py")}
    check_run(plain, originals, set(), problems, counts)
    for name in variants:
        folder = work / name
        before = {}
        for path, data in originals.items():
            dest = folder / path.relative_to(plain)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(VARIANTS[name](data))
            before[dest] = dest.read_bytes()
        check_run(folder, before, set(), problems, counts)
        for dest in before:
            want = VARIANTS[name](plain.joinpath(dest.relative_to(folder)).read_bytes())
            if b"\r" not in originals[plain / dest.relative_to(folder)] and dest.read_bytes() != want:
                problems.append(f"{dest}: the {name} variant is not the plain rewrite with {name}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=1000, help="generated files")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--variants", nargs="*", default=sorted(VARIANTS), choices=sorted(VARIANTS))
    parser.add_argument("--no-fixtures", action="store_true")
    args = parser.parse_args(argv)
    rng, problems = random.Random(args.seed), []
    counts = dict.fromkeys(["runs", "tracebacks", "internal errors (TFM999)", "failed (one line each)", "changed",
                            "changed by a second run"], 0)
    with tempfile.TemporaryDirectory(prefix="tf2migrate-fuzz-") as tmp:
        work = Path(tmp)
        gen = work / "generated"
        gen.mkdir()
        before, keep = {}, set()
        for i in range(args.n):
            name, data, stays = generated(rng, i)
            (gen / name).write_bytes(data)
            before[gen / name] = data
            if stays:
                keep.add(gen / name)
        counts["generated files"] = args.n
        check_run(gen, before, keep, problems, counts)
        if not args.no_fixtures:
            fixtures(work, args.variants, problems, counts)
    for key, value in counts.items():
        print(f"{key}: {value}")
    print(f"problems: {len(problems)}")
    for problem in problems[:50]:
        print("  " + problem.replace("\n", "\n    "))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
