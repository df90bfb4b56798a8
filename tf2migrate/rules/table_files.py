"""Reading a table file: its TOML, or the JSON made from it beside it, or the parsed data kept in the cache.

Parsing the 190 kB generated TOML costs about 0.1 s of a cold run. The generator writes `X.json` beside
`X.toml` (`write_parsed`: the parsed data and the SHA-256 of the TOML), read about 50 times faster; a stale or
missing one only costs the parse, and tests/test_tables.py checks that the shipped one is current.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def write_parsed(path: Path) -> Path:
    """Write `X.json` beside the table `X.toml`: its parsed data and the SHA-256 of the TOML it came from
    (tools/gen_upgrade_tables.py, for the generated table; tests/test_tables.py checks it is current)."""
    import hashlib
    import json

    raw = path.read_bytes()
    out = path.with_suffix(".json")
    out.write_text(json.dumps({"sha256": hashlib.sha256(raw).hexdigest(), "data": tomllib.loads(raw.decode("utf-8"))},
                              separators=(",", ":")) + "\n", encoding="utf-8")
    return out


def _parsed_beside(path: Path):
    """The data of `X.json` beside `X.toml` (`write_parsed`) when it was made from this very TOML, else None:
    JSON reads about 50 times faster than TOML, and a stale or missing file only costs the TOML parse."""
    import hashlib
    import json

    try:
        kept = json.loads(path.with_suffix(".json").read_bytes())
        if kept["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest():
            return kept["data"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def read_table(path: Path) -> dict:
    """A table file's data. Parsing the 190 kB generated TOML costs about 0.1 s, a cold run's budget: it is
    read from the JSON made from it beside it (`_parsed_beside`), or else the parsed data is kept (marshal) in
    the cache folder, keyed and checked on the TOML's SHA-256, the tool's and Python's versions: an entry of
    another file, version or shape (an empty marshal disabled rules) is parsed again and replaced. A run without
    the cache (`cache.enabled()`) reads and writes none."""
    import hashlib

    from tf2migrate.engine import cache

    beside = _parsed_beside(path)
    if beside is not None:
        return beside
    raw = path.read_bytes()
    key = hashlib.sha256(raw + f":{cache.__version__}:{sys.version_info[:2]}".encode()).hexdigest()
    kept = cache.cache_dir() / f"table-{key[:20]}.marshal" if cache.enabled() else None
    data = _kept(kept, key)
    if data is None:
        data = tomllib.loads(raw.decode("utf-8"))
        if kept is not None:
            _keep(kept, key, data)
    return data


def _kept(kept, key: str):
    """The data of a kept entry made under `key`, or None (no entry, or one of another key or shape)."""
    import marshal

    if kept is None:
        return None
    try:
        entry = marshal.loads(kept.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if isinstance(entry, dict) and entry.get("key") == key and isinstance(entry.get("data"), dict):
        return entry["data"]
    return None


def _keep(kept: Path, key: str, data: dict) -> None:
    import marshal

    tmp = kept.with_suffix(f".{os.getpid()}.tmp")
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(marshal.dumps({"key": key, "data": data}))
        os.replace(tmp, kept)
    except OSError:  # a read-only or full cache folder: parse again next time, and leave no temporary file
        try:
            tmp.unlink()
        except OSError:
            pass
