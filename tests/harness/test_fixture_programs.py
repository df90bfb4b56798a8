"""Every `fixtures/programs/<name>/` pair, verified under each cluster its `verify.toml` lists: on TF 2.15
(this interpreter) and again with the migrated program on TF 2.21 (`TF2MIGRATE_TF221_PYTHON`, set by .ci/run).

A pair is two scripts (`original.py`, `migrated.py`) or two package roots (`original/`, `migrated/`) whose
entries name the `module` to run (`python -m trainer.task`) and its `args` (per side: `original_args`,
`migrated_args`).
"""
import glob
import os
import tomllib

import pytest

from harness_support import PAIRS, ROOT, tf221_python


def _skip(folder, reason, suffix):
    name = os.path.basename(os.path.dirname(folder))
    return pytest.param(folder, None, None, id=f"{name}-{suffix}", marks=pytest.mark.skip(reason=f"{name}: {reason}"))


def _cases():
    for folder in sorted(glob.glob(os.path.join(ROOT, "fixtures", "programs", "*", ""))):
        name = os.path.basename(os.path.dirname(folder))
        config_path = os.path.join(folder, "verify.toml")
        if not os.path.exists(config_path):
            yield _skip(folder, "no verify.toml", "no-config")
            continue
        try:
            with open(config_path, "rb") as f:
                config = tomllib.load(f)
        except tomllib.TOMLDecodeError as e:
            yield _skip(folder, f"verify.toml does not parse: {e}", "bad-config")
            continue
        for i, entry in enumerate(config.get("verify", [])):
            if "cluster" not in entry:
                yield _skip(folder, f"verify entry {i + 1} names no cluster", f"entry{i + 1}")
                continue
            variant = f"-{entry['migrated'].removesuffix('.py')}" if "migrated" in entry else ""
            variant += "".join(f"-accept-{code}" for code in entry.get("accept_fix", []))
            variant += "-per-side-args" if "original_args" in entry or "migrated_args" in entry else ""
            yield pytest.param(folder, config, entry, id=f"{name}{variant}-{entry['cluster']}")


def _cross_cases():
    """The same entries with the migrated program on TF 2.21 (`cross_version` overrides keys of an entry)."""
    for case in _cases():
        folder, config, entry = case.values
        if entry is None:
            continue
        cross = dict(entry, **entry.get("cross_version", {}))
        yield pytest.param(folder, config, cross, id=f"{case.id}-tf221")


@pytest.mark.slow
@pytest.mark.parametrize("folder,config,entry", list(_cases()))
def test_fixture_pair(folder, config, entry, verify):
    _check(folder, config, entry, verify)


@pytest.mark.slow
@pytest.mark.parametrize("folder,config,entry", list(_cross_cases()))
def test_fixture_pair_across_versions(folder, config, entry, verify):
    """Original on TF 2.15 (legacy mode, Keras 2), migrated on TF 2.21 (Keras 3, or tf-keras when the program
    selects it), compared at the cross-version tolerances."""
    result = _check(folder, config, entry, verify, migrated_python=tf221_python())
    assert result.migrated.versions["tensorflow"].startswith("2.21"), result.migrated.versions
    assert result.original.versions["tensorflow"].startswith("2.15"), result.original.versions


def _sides(folder, entry):
    """(ORIGINAL, MIGRATED, how to run them): two scripts, or two package roots and a module with arguments."""
    run = {k: entry[k] for k in ("module", "args", "original_args", "migrated_args") if k in entry}
    package = os.path.isdir(os.path.join(folder, "original"))
    assert package == ("module" in run), f"{folder}: original/ goes with `module = ...`, original.py without it"
    names = ("original", "migrated") if package else ("original.py", "migrated.py")
    return os.path.join(folder, names[0]), os.path.join(folder, entry.get("migrated", names[1])), run


def _check(folder, config, entry, verify, **cross):
    options = {k: entry[k] for k in ("cluster", "mode", "steps", "repeats", "rtol", "atol") if k in entry}
    original, migrated, run = _sides(folder, entry)
    result = verify(original, migrated, init_values=config.get("initial_values"),
                    accept_fixes=entry.get("accept_fix", ()), timeout=300, **run, **options, **cross)
    variant = f"-{entry['migrated'][:-3]}" if "migrated" in entry else ""
    variant += "".join(f"-accept-{code}" for code in entry.get("accept_fix", []))
    case = os.path.basename(os.path.normpath(folder)) + variant + ("-tf221" if cross else "") + f"-{entry['cluster']}"
    c = result.comparison
    PAIRS[case] = (result.verdict, c.max_rel_diff, c.max_abs_diff, c.tolerance)
    assert result.verdict == entry.get("expect", "EQUIVALENT"), (result.reason, result.original.stderr_tail,
                                                                  result.migrated.stderr_tail)
    assert result.facts.accepted_fixes == entry.get("accept_fix", [])    # each accepted fix really changed the original
    if "reason_contains" in entry:
        assert entry["reason_contains"] in result.reason
    if "original_losses" in entry:
        assert result.original.losses == entry["original_losses"]
        if result.verdict == "EQUIVALENT" and result.facts.mode == "exact" and not cross:
            assert result.migrated.losses == entry["original_losses"]
    return result
