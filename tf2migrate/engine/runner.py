"""Run the rewrite over many files: cheap checks in this process, LibCST work in a process pool.

Most files of a real tree need no change; they are proved so by the cache or by the pre-pass
(a regex for trigger names, then `ast`) without LibCST ever being imported.
"""
from __future__ import annotations

import gc
import os
import sys
from dataclasses import dataclass

from tf2migrate.engine.cache import Cache, digest
from tf2migrate.engine.package_views import package_views
from tf2migrate.engine.rule_set import active, use
from tf2migrate.engine.selection import Selection
from tf2migrate.engine.pools import Early as _Early, Pool as _Pool
from tf2migrate.engine.process import FileResult, Mode, Status, _fail, read
from tf2migrate.engine.settle import collector_paused, heavy, settled_precheck as _precheck
from tf2migrate.engine.workers import Interrupted, stop_all

EARLY_POOL = 16  # this many files the cache does not know: workers pre-check them too (`_Early`)


@dataclass
class RunOptions:
    mode: Mode = Mode.WRITE
    selection: Selection = Selection()
    jobs: int = os.cpu_count() or 1
    cache: Cache = None
    rules: object = None  # the rule set to run (`engine.rule_set.RuleSet`; None: the package's own)


def _triggers(cache):
    """The pre-pass's wake words. The cache keeps them: it is keyed on the rule code and tables that
    make them, so a run the cache and the pre-pass settle never imports the rule modules (nor LibCST)."""
    saved = cache.trigger_data() if cache else None
    if saved is not None:
        try:
            return active().triggers_from_json(saved)
        except (TypeError, ValueError, KeyError, AttributeError):  # another shape: made again, replaced
            pass
    found = active().triggers()
    if cache:
        cache.remember_trigger_data(found.to_json())
    return found


def _early(options: RunOptions, todo: list) -> bool:
    """Is `_Early` worth it here? Only where forked workers inherit this process (Linux: macOS offers fork
    but its system libraries are not fork-safe)."""
    return options.jobs > 1 and len(todo) >= EARLY_POOL and sys.platform.startswith("linux")


def run(candidates, options: RunOptions) -> list:
    """Every file's result, sorted by path. Ctrl-C: `Interrupted` with the files done (the cache keeps them);
    queued files are not started, and the ones being rewritten are finished first (see workers.py)."""
    results = []
    if options.rules is not None:
        use(options.rules)
    try:
        _run(candidates, options, results)
    except KeyboardInterrupt:
        results += stop_all()
        _remember(options, results)
        raise Interrupted(sorted(results, key=lambda r: r.path)) from None
    finally:
        gc.unfreeze()  # what `_run` and engine/pieces.py froze is the collector's again
    _remember(options, results)
    return sorted(results, key=lambda r: r.path)


def _remember(options: RunOptions, results: list) -> None:
    if options.cache:
        options.cache.remember(results)
        options.cache.save()


def _run(candidates, options: RunOptions, results: list) -> None:
    """Onto `results`: each file's, as it is settled."""
    todo = []
    candidates = list(candidates)
    views, read_once = package_views(candidates)
    for cand in candidates:
        if cand.symlink:
            results.append(_fail(cand.path, "TFM904", "symbolic link: not followed, not written through"))
            continue
        data, failure = (read_once.pop(cand.path), None) if cand.path in read_once else read(cand.path)
        if failure:
            results.append(failure)
            continue
        package_key = views.key(cand.path)
        content_digest = digest(data + package_key) if package_key else digest(data)  # neighbours too
        cached = options.cache.lookup(cand.path, content_digest) if options.cache else None
        if cached is not None:
            results.append(FileResult(cand.path, Status.UNCHANGED, cached, digest=content_digest, from_cache=True))
            continue
        pending = options.cache.lookup_pending(cand.path, content_digest) \
            if options.cache and options.mode is Mode.CHECK else None
        if pending is not None:
            results.append(FileResult(cand.path, Status.CHANGED, pending, digest=content_digest, from_cache=True))
            continue
        todo.append((cand.path, data, content_digest, options.mode, options.selection))
    if todo:  # the rule modules are imported only once a file misses the cache
        triggers = _triggers(options.cache)
        # LibCST, the rules and their tables are here for the whole run: kept out of the collector's full scans,
        # which every tree parsed would otherwise make scan them again (a cold run on the estimator corpus:
        # 1.58 -> 1.50 s CPU, as on 55c7997 before the rules it did not have)
        gc.freeze()
        _early_or_in_turn(todo, triggers, views, options, results)


def _early_or_in_turn(todo: list, triggers, views, options: RunOptions, results: list) -> None:
    if not _early(options, todo):
        _in_turn(todo, triggers, views, options.jobs, results)
        return
    from concurrent.futures.process import BrokenProcessPool

    try:
        results += _Early(options.jobs, triggers).results(todo, views)
    except BrokenProcessPool:  # a worker died (out of memory, killed): every file is done here instead
        stop_all()   # the other workers end
        _in_turn(todo, triggers, views, 1, results)


def _in_turn(todo: list, triggers, views, jobs: int, results: list) -> None:
    """Pre-check each file here; the files that need LibCST go to `_Pool` (a few files: a pre-commit hook).
    Onto `results`, each file as it is finished."""
    pool = _Pool(jobs)
    for path, data, content_digest, mode, selection in todo:
        with collector_paused():  # a settled file's `ast` tree is gone before the collector runs again
            job = _settle_here(path, data, content_digest, mode, selection, triggers, views, results)
        if job is not None:
            pool.add(job)
    pool.results(results)


def _settle_here(path, data, content_digest, mode, selection, triggers, views, results: list):
    """Onto `results`, the file's result when the pre-pass settles it or it is reported from `ast`; else the
    job for `_Pool`."""
    src, done = _precheck(path, data, triggers, selection.source, lambda: views.get(path))
    if done is not None:
        done.digest = content_digest if done.status is Status.UNCHANGED else None
        results.append(done)
        return None
    job = (path, data, src, content_digest, mode, selection, views.get(path))
    if src.fast_only:  # reported from the `ast` tree the pre-pass just built: cheaper here than re-parsed
        results.append(heavy(job))
        return None
    return job
