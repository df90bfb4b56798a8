"""A cache of files known to need no change, keyed on tool version, enabled rules and content.

Like black's: clean files are cached (with their report-only diagnostics), so a warm run
re-reads and hashes each file but parses none of them. A file that `--check`/`--diff` found to need
a rewrite is cached too, marked "changed", and only `--check` reuses that entry (it prints nothing
but the diagnostics and the file's name); a rewrite or a diff always does the work again.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from tf2migrate._version import __version__
from tf2migrate.engine.diagnostics import Diagnostic
from tf2migrate.engine.process import Status


_ENABLED = [True]


def enabled() -> bool:
    """False in a run with `--no-cache` (`disable()`): nothing is read from or written to the cache folder, the
    rule tables' parsed data included. Forked workers inherit it."""
    return _ENABLED[0]


def disable(off: bool = True) -> None:
    _ENABLED[0] = not off


def cache_dir() -> Path:
    env = os.environ.get("TF2MIGRATE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tf2migrate"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def rules_fingerprint(selection, tables_folder: Path) -> str:
    h = hashlib.sha256(__version__.encode())
    h.update(repr((sorted(selection.select), sorted(selection.ignore), selection.strategy, selection.source,
                   selection.target)).encode())
    for path in sorted(tables_folder.rglob("*.toml")):  # generated/ too
        h.update(path.read_bytes())
    package = Path(__file__).resolve().parent.parent
    code = [p for room in ("engine", "rules") for p in (package / room).rglob("*.py")]
    for path in sorted(code):  # a changed rule module invalidates the cache, not only a new version
        st = path.stat()
        h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:20]


CLEAN, PENDING = "clean", "changed"
TRIGGERS = "triggers"  # not an absolute path, so never a file's entry
KEY = "key"  # the key the file was made under: a file renamed or copied from another key is not read


class Cache:
    """A run without a cache (`--no-cache`) has none at all: the runner takes `cache=None`."""

    def __init__(self, key: str) -> None:
        self.file = cache_dir() / f"cache-{key}.json"
        self.dirty = False
        try:
            self.entries: dict = json.loads(self.file.read_text())
        except (OSError, ValueError):
            self.entries = {}
        if not isinstance(self.entries, dict) or self.entries.get(KEY) != key:
            self.entries, self.dirty = {KEY: key}, True  # another key or shape: ignored, replaced on save

    def lookup(self, path: str, content_digest: str):
        """The cached diagnostics of a clean file, or None."""
        return self._lookup(path, content_digest, CLEAN)

    def lookup_pending(self, path: str, content_digest: str):
        """The cached diagnostics of a file that `--check` would rewrite, or None."""
        return self._lookup(path, content_digest, PENDING)

    def _lookup(self, path: str, content_digest: str, kind: str):
        entry = self.entries.get(os.path.abspath(path))
        if not isinstance(entry, list) or len(entry) not in (2, 3) or entry[0] != content_digest \
                or (entry[2] if len(entry) > 2 else CLEAN) != kind or not isinstance(entry[1], list):
            return None
        try:  # the path as given this time, not as it was spelled when the entry was made
            # made once, with this path (each made twice, by `dataclasses.replace`: a third of a warm run's lookups)
            return [Diagnostic.from_json({**d, "path": path} if "path" in d else d) for d in entry[1]]
        except (TypeError, ValueError, KeyError):  # an entry of another shape: a miss, replaced on save
            return None

    def trigger_data(self):
        """The pre-pass's wake words (`Triggers.to_json()`) the rules of this key make, or None (also for an
        entry whose checksum does not match: a cut or emptied list would silence rules)."""
        saved = self.entries.get(TRIGGERS)
        if isinstance(saved, list) and len(saved) == 2 and saved[0] == _checksum(saved[1]):
            return saved[1]
        return None

    def remember_trigger_data(self, data: list) -> None:
        value = [_checksum(data), data]
        if self.entries.get(TRIGGERS) != value:
            self.entries[TRIGGERS] = value
            self.dirty = True

    def remember(self, results) -> None:
        for r in results:
            if r.status in (Status.UNCHANGED, Status.CHANGED) and r.digest and not r.from_cache:
                key = os.path.abspath(r.path)
                value = [r.digest, [d.to_json() for d in r.diagnostics]]
                if r.status is Status.CHANGED:  # only set by --check/--diff: the file is as it was
                    value.append(PENDING)
                if self.entries.get(key) != value:
                    self.entries[key] = value
                    self.dirty = True

    def save(self) -> None:
        if not self.dirty:
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            import tempfile  # only when there is something to save

            fd, tmp = tempfile.mkstemp(dir=self.file.parent, suffix=".tmp")
        except OSError:
            return  # a cache that cannot be written only costs time
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(json.dumps(self.entries))  # `dump` encodes in Python; `dumps` in C (t2t: 0.6 s -> 0.1 s)
            os.replace(tmp, self.file)
        except OSError:
            pass
        finally:
            if os.path.exists(tmp):  # a full disk: no temporary file left behind
                os.unlink(tmp)


def _checksum(data) -> str:
    return digest(json.dumps(data, sort_keys=True).encode())
