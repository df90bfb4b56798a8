"""`verify DIR -m MODULE` without MIGRATED: the package, copied and rewritten as `tf2migrate rewrite DIR`
would rewrite it (the same file walk and runner, so whatever the rewrite does across the files of a package
happens here too); with `--accept-fix`, a copy with only those rules' fixes is the reference.

The original tree is never written: the codemod works on a copy, which is kept after the run (its path is
in the result, like the single rewritten file of `verify ORIGINAL.py`) so the user can read what was
verified.
"""
import os
import shutil
import tempfile

from tf2migrate.engine.files import DEFAULT_EXCLUDES, excluded


def copy_package(root, dest):
    """Copy the package root, leaving out what `rewrite` leaves out (.git, venvs, caches)."""
    def ignore(folder, names):
        return [n for n in names if excluded(n, DEFAULT_EXCLUDES)]

    shutil.copytree(root, dest, symlinks=True, ignore=ignore)
    return dest


def rewrite_tree(root, selection=None, dest=None, source="auto"):
    """(the rewritten copy's root, diagnostics as `relpath:line:col CODE message`, codes fixed); `source` as in
    `codemod_sides.rewrite_all`."""
    from tf2migrate.engine.process import Mode
    from tf2migrate.engine.runner import RunOptions, run
    from tf2migrate.engine.files import gather
    from tf2migrate.engine.selection import Selection

    if dest is None:
        name = os.path.basename(os.path.abspath(root).rstrip(os.sep)) or "package"
        dest = os.path.join(tempfile.mkdtemp(prefix="tf2migrate-migrated-"), name)
    copy_package(root, dest)
    results = run(gather([dest]), RunOptions(mode=Mode.WRITE, selection=selection or Selection(source=source), jobs=1))
    lines, fixed = [], set()
    for r in sorted(results, key=lambda r: r.path):
        rel = os.path.relpath(r.path, dest)
        for d in r.diagnostics:
            lines.append(f"{rel}:{d.line}:{d.col} {d.code} {d.message}")
            if d.fixed:
                fixed.add(d.code)
    return dest, lines, sorted(fixed)


def tree_with_fixes(root, codes, workdir, source="auto"):
    """(a copy of the package with only `codes` applied, the codes that changed something); unknown codes
    are a usage error (`codemod_sides.FixError`)."""
    from tf2migrate.engine.selection import Selection
    from tf2migrate.harness.running.codemod_sides import check_codes

    selection = Selection(select=check_codes(codes), source=source)
    dest = os.path.join(workdir, "reference", os.path.basename(os.path.abspath(root).rstrip(os.sep)) or "package")
    dest, _, applied = rewrite_tree(root, selection, dest)
    return dest, applied
