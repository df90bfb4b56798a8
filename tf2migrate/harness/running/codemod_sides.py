"""Programs `verify` writes with the codemod before it runs anything.

- Without MIGRATED, the migrated side is ORIGINAL rewritten by every rule.
- With `--accept-fix CODE`, the reference is ORIGINAL with only those rules' fixes applied. A migration that
  fixes a bug of the original on purpose (TFM401: a loss averaged per replica makes every step N times too
  large under N replicas) cannot train like the original under that topology; what can be proved is that it
  trains like the original *with that fix*, i.e. that nothing else changed. The bare original is still one
  `verify` away, without the option, and shows the fix's effect in numbers.
"""
import os
import tempfile


class FixError(ValueError):
    """An accepted code that no rule has (a usage error)."""


def _codemod():
    from tf2migrate.engine.api import Selection, rewrite_text

    return Selection, rewrite_text


def rewrite_all(original, text, source="auto"):
    """(path of the rewritten program, its text, its diagnostics as lines). The file is kept after the run
    (its path is in the result), so the user can read what was verified. `source`: `tf1` when the user said
    the original is TF1 code (`--original-api v1`), so the upgrades that need to know run."""
    selection, rewrite_text = _codemod()
    try:
        out = rewrite_text(text, original, selection(source=source))
    except Exception as e:  # LibCST's ParserSyntaxError: Python compiled the file, LibCST cannot parse it
        if type(e).__name__ != "ParserSyntaxError":
            raise
        from tf2migrate.harness.running.unparsable import from_libcst

        raise from_libcst(original, e) from e
    fd, path = tempfile.mkstemp(prefix="tf2migrate-migrated-", suffix="_" + os.path.basename(original))
    with os.fdopen(fd, "w") as f:
        f.write(out.code)
    return path, out.code, [f"{d.line}:{d.col} {d.code} {d.message}" for d in out.diagnostics]


def with_fixes(original, text, codes, workdir, source="auto"):
    """(path of ORIGINAL with only `codes` applied, its text, the codes that changed something). The copy
    lives in the run's workdir; the child puts ORIGINAL's folder on `sys.path`, so sibling imports resolve.
    `source` as for `rewrite_all`: an accepted fix that needs to know TF1 code from TF2 applies alike."""
    codes = check_codes(codes)
    selection, rewrite_text = _codemod()
    out = rewrite_text(text, original, selection(select=tuple(codes), source=source))
    applied = sorted({d.code for d in out.diagnostics if d.fixed})
    path = os.path.join(workdir, "reference_" + os.path.basename(original))
    with open(path, "w") as f:
        f.write(out.code)
    return path, out.code, applied


def check_codes(codes):
    """The parsed codes; FixError names those no rule has."""
    from tf2migrate.engine.diagnostics import code_matches
    from tf2migrate.engine.selection import parse_codes
    from tf2migrate.rules import registry

    codes, known = parse_codes(codes), registry.all_infos()
    unknown = [c for c in codes if not any(code_matches(k, (c,)) for k in known)]
    if unknown:
        raise FixError(f"--accept-fix: no rule has the code {', '.join(unknown)} (see `tf2migrate rules`)")
    return codes
