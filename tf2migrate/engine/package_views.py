"""The package views of a run's files, and the cache key part that stands for them without parsing.

`engine/package.py` says which modules of a package a file's rewrite reads (a trainer's `task.py` reads the
`model.py` that builds its Estimator). Finding that out parses the package's files; a warm run must not, so
the cache key of a package file that mentions an Estimator holds the bytes of every such file of its
root (the folder of its top-level package) instead (`Views.key`), and the views are scanned only once a file
misses the cache.
"""
from __future__ import annotations

from tf2migrate.engine.cache import digest
from tf2migrate.engine.process import read


def package_views(candidates) -> tuple:
    """The package pre-pass (`engine/package.py`) over the files of a run, before any is rewritten: the
    files of a package are read once here, so that every rewrite reads its neighbours as they were."""
    from tf2migrate.engine.package import module_name, script_name

    read_once, packages = {}, {}
    for cand in candidates:
        if cand.symlink:
            continue
        packaged = module_name(cand.path, packages) is not None
        if not packaged and script_name(cand.path) is None:
            continue
        data, failure = read(cand.path)
        # the only files the pre-pass reads (others: read again): a program, or an input module (package_inputs.py)
        if failure is None and (b"stimator" in data and (packaged or b"import" in data) or b"get_next" in data
                                or b"input_fn" in data):
            read_once[cand.path] = data
    return Views(dict(read_once), packages), read_once


class Views:
    """The package views, scanned (parsed) only once a file misses the cache. The cache key of a package file
    that mentions an Estimator holds, instead of its view's neighbours, every such file of its root (the
    folder of its top-level package): a wider key (it changes with more edits) that needs no parsing, nor even
    decoding, so a warm run stays a lookup."""

    def __init__(self, data: dict, packages: dict) -> None:
        self.data, self._texts, self._views, self._keys, self._groups = data, None, None, {}, None
        self.packages = packages  # folder -> is a package (`package.module_name`'s memo)

    def has(self, path: str) -> bool:
        return path in self.data

    @property
    def texts(self) -> dict:
        """The files' decoded texts (an undecodable one left out), for the scan."""
        if self._texts is None:
            from tf2migrate.engine.source import DecodeProblem, decode

            self._texts = {}
            for path, data in self.data.items():
                try:
                    self._texts[path] = decode(data).text
                except DecodeProblem:
                    pass
        return self._texts

    def key(self, path: str) -> bytes:
        """Every such file of the root that holds `path`'s top-level package, as `engine/package.scan` reads
        them: a `trainer/task.py` may convert with a `helpers/model.py` beside its package (a key of
        `trainer/` alone kept a converted task.py in the cache after helpers/model.py stopped converting)."""
        if path not in self.data:
            return b""
        from tf2migrate.engine.package import package_root

        root = package_root(path, self.packages)
        if root not in self._keys:
            if self._groups is None:  # once: a tree of many script folders is not walked once per folder
                self._groups = {}
                for p in self.data:
                    self._groups.setdefault(package_root(p, self.packages), []).append(p)
            same = sorted(self._groups.get(root, ()))
            self._keys[root] = digest(b"".join(p.encode() + b"\0" + self.data[p] + b"\0" for p in same)).encode()
        return self._keys[root]

    def get(self, path: str):
        if path not in self.data or path not in self.texts:
            return None  # only a file that mentions an Estimator has a view (`engine/package.scan`)
        return self.scan().get(path)

    def scan(self) -> dict:
        """`engine/package.scan` of the files, done once."""
        if self._views is None:
            from tf2migrate.engine.package import scan

            self._views = scan(self.texts) if self.data else {}
        return self._views
