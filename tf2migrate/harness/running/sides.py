"""What `verify` was given, resolved into the program each side runs and what the harness knows about it.

ORIGINAL and MIGRATED are scripts, or with `module` package roots (the original tree and its rewritten
copy). Without MIGRATED the codemod writes it; with `accept_fixes` the original side runs a copy of the
original with only those fixes applied. Arguments: `args` for both sides, unless `original_args` /
`migrated_args` replace them for one side; environment: `env` for both, plus each side's own on top.
Every problem here is a usage error (ValueError, or OSError/SyntaxError for an unreadable original).
"""
import os
from dataclasses import dataclass, field

from tf2migrate.harness.running import codemod_sides, codemod_tree
from tf2migrate.harness.capture.sources import read_sources
from tf2migrate.harness.running.program import Program, check_module, facts_of, parse_env


@dataclass
class Sides:
    original: str                 # the paths as given (MIGRATED: the codemod's output when not given)
    migrated: str
    reference: Program            # what the original side runs
    migrated_program: Program
    facts_o: object = None
    facts_m: object = None
    diagnostics: list = field(default_factory=list)   # the codemod's, when it wrote MIGRATED
    accepted: list = field(default_factory=list)      # accepted fixes that changed the original


def resolve(original, migrated=None, *, module=None, args=(), original_args=None, migrated_args=None, env=None,
            original_env=None, migrated_env=None, accept_fixes=(), workdir, progress=print, source="auto"):
    """`source`: what the codemod takes ORIGINAL for (`tf1` under `--original-api v1`, see engine/tf_version.py)."""
    shared = parse_env(env)
    env_o = {**shared, **parse_env(original_env, "--original-env")}
    env_m = {**shared, **parse_env(migrated_env, "--migrated-env")}
    args_o = _args(original_args if original_args is not None else args, "original_args" if original_args else "args")
    args_m = _args(migrated_args if migrated_args is not None else args, "migrated_args" if migrated_args else "args")
    if module:
        return _package(original, migrated, module, args_o, args_m, env_o, env_m, accept_fixes, workdir, progress,
                        source)
    for path, what in ((original, "ORIGINAL"), (migrated, "MIGRATED")):
        if path is not None and os.path.isdir(path):
            raise ValueError(f"{what} {path} is a directory: name the module to run in it with -m MODULE")
    diagnostics, accepted, reference = [], [], original
    src_o = _read(original)
    if migrated is None:
        migrated, src_m, diagnostics = codemod_sides.rewrite_all(original, src_o, source)
        progress(f"codemod: rewrote {original} into {migrated}")
    else:
        src_m = _read(migrated)
    if accept_fixes:
        reference, src_o, accepted = codemod_sides.with_fixes(original, src_o, list(accept_fixes), workdir, source)
        progress(f"reference: {original} with the fixes of {', '.join(accepted) or 'no rule (none applies)'}")
    home = os.path.dirname(os.path.abspath(original))   # the reference copy imports the original's siblings
    return Sides(original, migrated, Program(reference, None, args_o, env_o, home_dir=home),
                 Program(migrated, None, args_m, env_m), facts_of([(reference, src_o)]),
                 facts_of([(migrated, src_m)]), diagnostics, accepted)


def _package(original, migrated, module, args_o, args_m, env_o, env_m, accept_fixes, workdir, progress, source):
    check_module(original, module, "ORIGINAL")
    diagnostics, accepted, reference = [], [], original
    if migrated is None:
        migrated, diagnostics, _ = codemod_tree.rewrite_tree(original, source=source)
        progress(f"codemod: rewrote the package {original} into {migrated}")
    else:
        check_module(migrated, module, "MIGRATED")
    if accept_fixes:
        reference, accepted = codemod_tree.tree_with_fixes(original, list(accept_fixes), workdir, source)
        progress(f"reference: {original} with the fixes of {', '.join(accepted) or 'no rule (none applies)'}")
    ref, mig = Program(reference, module, args_o, env_o), Program(migrated, module, args_m, env_m)
    return Sides(original, migrated, ref, mig, facts_of(read_sources(ref.files())),
                 facts_of(read_sources(mig.files())), diagnostics, accepted)


def _args(values, name):
    """The program's arguments as strings: a list or tuple (a single string is a mistake, not one argument)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        raise ValueError(f"{name} must be a list of strings (e.g. ['--steps', '3']), not {values!r}")
    return tuple(str(v) for v in values)


def _read(path):
    with open(path) as f:
        return f.read()
