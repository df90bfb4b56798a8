"""Every `fixtures/programs/<name>/` pair, verified under each cluster its `verify.toml` lists."""
import glob
import os
import tomllib

import pytest

from harness_support import ROOT


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
            variant = f"-{entry['migrated'][:-3]}" if "migrated" in entry else ""
            variant += "".join(f"-accept-{code}" for code in entry.get("accept_fix", []))
            yield pytest.param(folder, config, entry, id=f"{name}{variant}-{entry['cluster']}")


@pytest.mark.slow
@pytest.mark.parametrize("folder,config,entry", list(_cases()))
def test_fixture_pair(folder, config, entry, verify):
    options = {k: entry[k] for k in ("cluster", "mode", "steps", "repeats", "rtol", "atol") if k in entry}
    result = verify(os.path.join(folder, "original.py"), os.path.join(folder, entry.get("migrated", "migrated.py")),
                    init_values=config.get("initial_values"), accept_fixes=entry.get("accept_fix", ()), timeout=300,
                    **options)
    assert result.verdict == entry.get("expect", "EQUIVALENT"), (result.reason, result.original.stderr_tail,
                                                                  result.migrated.stderr_tail)
    assert result.accepted_fixes == entry.get("accept_fix", [])    # each accepted fix really changed the original
    if "reason_contains" in entry:
        assert entry["reason_contains"] in result.reason
    if "original_losses" in entry:
        assert result.original.losses == entry["original_losses"]
        if result.verdict == "EQUIVALENT" and result.mode == "exact":
            assert result.migrated.losses == entry["original_losses"]
