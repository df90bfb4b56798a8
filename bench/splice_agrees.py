"""Does the splice path (rules/table_only.py) rewrite a tree exactly as LibCST's path does?

    python bench/splice_agrees.py --corpus t2t        # the tensor2tensor 1.14.0 wheel (bench/corpora.py)
    python bench/splice_agrees.py PATH...             # any files or folders

Every `.py` file the pre-pass sends to a rewrite is rewritten both ways (`rewrite_text(..., splice=False)` is
LibCST's path), with its package neighbours as a run reads them; the code and the diagnostics must be identical. Prints the files that differ (exit 1), how
many files the splice path answered, and why it gave the others to LibCST.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def files_of(paths) -> list:
    out = []
    for path in map(Path, paths):
        out += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return out


def main(argv=None) -> int:
    from corpora import CORPORA

    from tf2migrate.engine.apply import rewrite_text
    from tf2migrate.engine.process import precheck
    from tf2migrate.engine.selection import Selection
    from tf2migrate.rules import table_only
    from tf2migrate.rules.wake_words import triggers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA), default=[])
    parser.add_argument("--source", default="auto", choices=("auto", "tf1", "tf2"))
    args = parser.parse_args(argv)
    paths = list(args.paths) + [str(CORPORA[name].tree()) for name in args.corpus]
    selection, words = Selection(source=args.source), triggers()
    differ, rewritten, times = [], 0, [0.0, 0.0]
    views = _views(paths)
    for path in files_of(paths):
        view = views.get(os.path.abspath(path))  # its package neighbours, as a run gives them
        src, done = precheck(str(path), path.read_bytes(), words, args.source, view is not None)
        if src is None or view is None and (done is not None or src.fast_only):
            continue  # a file with neighbours is rewritten even when settled, as engine/runner._precheck does
        rewritten += 1
        start = time.process_time()
        spliced = rewrite_text(src.text, str(path), selection, package=view)
        middle = time.process_time()
        whole = rewrite_text(src.text, str(path), selection, package=view, splice=False)
        times[0] += middle - start
        times[1] += time.process_time() - middle
        if spliced.code != whole.code or [str(d) for d in spliced.diagnostics] != [str(d) for d in whole.diagnostics]:
            differ.append(path)
            print(f"DIFFERS: {path}", flush=True)
    print(f"{rewritten} files rewritten both ways; the splice path answered {sum(table_only.SPLICED.values())} "
          f"({dict(table_only.SPLICED)}), gave {sum(table_only.FALLBACKS.values())} to LibCST; {len(differ)} differ")
    print(f"CPU: default path {times[0]:.2f} s, LibCST path {times[1]:.2f} s")
    for reason, count in table_only.FALLBACKS.most_common():
        print(f"  {count:5d}  {reason}")
    return 1 if differ else 0


def _views(paths) -> dict:
    """Absolute path -> package view (`engine/package_views.py`) of the files of `paths`, read as one run."""
    from tf2migrate.engine.files import gather
    from tf2migrate.engine.package_views import package_views

    views, _ = package_views(list(gather([str(p) for p in paths])))
    return {os.path.abspath(path): view for path, view in views.scan().items()}


if __name__ == "__main__":
    sys.exit(main())
