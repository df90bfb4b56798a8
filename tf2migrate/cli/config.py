"""`[tool.tf2migrate]` from the nearest `pyproject.toml`; command-line flags override it.

    [tool.tf2migrate]
    select = ["TFM1", "TFM2"]
    ignore = ["TFM205"]
    exclude = ["third_party", "legacy/*.py"]
    jobs = 4
    cache = true
    source = "auto"     # or "tf1" / "tf2": what the code is written for (see engine/tf_version.py)
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

KEYS = {"select", "ignore", "exclude", "extend-exclude", "force-exclude", "jobs", "cache", "strategy", "source",
        "target"}


class ConfigError(Exception):
    pass


def find_pyproject(paths) -> Optional[Path]:
    starts = [Path(p).resolve() for p in paths] or [Path.cwd()]
    common = Path(os.path.commonpath([str(p) for p in starts]))
    for folder in [common, *common.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
        if (folder / ".git").exists():
            break
    return None


def load(paths, explicit: Optional[str] = None) -> tuple:
    """(settings, the pyproject file they came from or None)."""
    path = Path(explicit) if explicit else find_pyproject(paths)
    if path is None:
        return {}, None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc}")
    raw = data.get("tool", {}).get("tf2migrate", {})
    settings = {}
    for key, value in raw.items():
        norm = key.replace("_", "-")
        if norm not in KEYS:
            raise ConfigError(f"{path}: unknown key `{key}` in [tool.tf2migrate] (known: {', '.join(sorted(KEYS))})")
        settings[norm] = value
    return settings, path
