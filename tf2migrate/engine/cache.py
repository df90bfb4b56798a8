"""A cache of files known to need no change, keyed on tool version, enabled rules and content.

Like black's: clean files are cached (with their report-only diagnostics), so a warm run
re-reads and hashes each file but parses none of them. A file that `--check`/`--diff` found to need
a rewrite is cached too, marked "changed", and only `--check` reuses that entry (it prints nothing
but the diagnostics and the file's name); a rewrite or a diff always does the work again.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

from tf2migrate import __version__
from tf2migrate.engine.diagnostics import Diagnostic
from tf2migrate.engine.process import Status


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


class Cache:
    """A run without a cache (`--no-cache`) has none at all: the runner takes `cache=None`."""

    def __init__(self, key: str) -> None:
        self.file = cache_dir() / f"cache-{key}.json"
        self.dirty = False
        try:
            self.entries: dict = json.loads(self.file.read_text())
        except (OSError, ValueError):
            self.entries = {}

    def lookup(self, path: str, content_digest: str):
        """The cached diagnostics of a clean file, or None."""
        return self._lookup(path, content_digest, CLEAN)

    def lookup_pending(self, path: str, content_digest: str):
        """The cached diagnostics of a file that `--check` would rewrite, or None."""
        return self._lookup(path, content_digest, PENDING)

    def _lookup(self, path: str, content_digest: str, kind: str):
        entry = self.entries.get(os.path.abspath(path))
        if entry and entry[0] == content_digest and (entry[2] if len(entry) > 2 else CLEAN) == kind:
            # the path as given this time, not as it was spelled when the entry was made
            return [dataclasses.replace(Diagnostic.from_json(d), path=path) for d in entry[1]]
        return None

    def trigger_data(self):
        """The pre-pass's wake words (`Triggers.to_json()`) the rules of this key make, or None."""
        saved = self.entries.get(TRIGGERS)
        return saved if isinstance(saved, list) else None

    def remember_trigger_data(self, data: list) -> None:
        if self.entries.get(TRIGGERS) != data:
            self.entries[TRIGGERS] = data
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
            with os.fdopen(fd, "w") as handle:
                json.dump(self.entries, handle)
            os.replace(tmp, self.file)
        except OSError:
            pass  # a cache that cannot be written only costs time
