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
    starts = [Path(os.path.realpath(p)) for p in paths] or [Path.cwd()]  # realpath: a symlink loop is no error
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
    tool = data.get("tool", {})
    raw = tool.get("tf2migrate", {}) if isinstance(tool, dict) else {}
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [tool] tf2migrate must be a table ([tool.tf2migrate]), not {_kind(raw)}")
    settings = {}
    for key, value in raw.items():
        norm = key.replace("_", "-")
        if norm not in KEYS:
            raise ConfigError(f"{path}: unknown key `{key}` in [tool.tf2migrate] (known: {', '.join(sorted(KEYS))})")
        settings[norm] = _checked(path, key, norm, value)
    return settings, path


_LISTS = {"select", "ignore", "exclude", "extend-exclude"}
_FLAGS = {"force-exclude", "cache"}


def _checked(path: Path, key: str, norm: str, value):
    """The value of `key` in the type the run reads it in; a string where a list is expected is one item (one
    exclude pattern, not its characters). A value of another type is a usage error naming the key."""
    if norm in _LISTS:
        value = [value] if isinstance(value, str) else value
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
        expected = "a list of strings"
    elif norm in _FLAGS:
        if isinstance(value, bool):
            return value
        expected = "true or false"
    elif norm == "jobs":
        if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
            return value
        expected = "a whole number of at least 1"
    else:  # strategy, source, target: a choice, checked against its choices by the command
        if isinstance(value, str):
            return value
        expected = "a string"
    raise ConfigError(f"{path}: [tool.tf2migrate] {key} = {value!r}: expected {expected}, not {_kind(value)}")


def _kind(value) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)
