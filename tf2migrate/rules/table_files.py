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
    read from the JSON made from it beside it (`_parsed_beside`), or else the parsed data is kept (marshal,
    keyed on the file's path, size and mtime) in the cache folder."""
    import hashlib
    import marshal

    from tf2migrate.engine.cache import cache_dir

    beside = _parsed_beside(path)
    if beside is not None:
        return beside
    st = path.stat()
    key = hashlib.sha256(f"{path.resolve()}:{st.st_size}:{st.st_mtime_ns}:{sys.version_info[:2]}".encode())
    kept = cache_dir() / f"table-{key.hexdigest()[:20]}.marshal"
    try:
        return marshal.loads(kept.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        pass
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        tmp = kept.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps(data))
        os.replace(tmp, kept)
    except OSError:
        pass  # a read-only cache folder: parse again next time
    return data
