"""Run the rewrite over many files: cheap checks in this process, LibCST work in a process pool.

Most files of a real tree need no change; they are proved so by the cache or by the pre-pass
(a regex for trigger names, then `ast`) without LibCST ever being imported.
"""
from __future__ import annotations

import contextlib
import dataclasses
import gc
import importlib
import os
import sys
from dataclasses import dataclass

from tf2migrate.engine.cache import Cache, digest
from tf2migrate.engine.deep import TooDeep, retry_deep, too_deep
from tf2migrate.engine.package_views import package_views
from tf2migrate.engine.rule_set import active, use
from tf2migrate.engine.selection import Selection
from tf2migrate.engine.process import FileResult, Mode, Status, _fail, precheck, read, transform
from tf2migrate.engine.workers import Interrupted, Workers, stop_all
from tf2migrate.engine.writer import signals_deferred

POOL_THRESHOLD = 4  # fewer files than this needing LibCST: a pool costs more than it saves
EARLY_POOL = 16  # this many files the cache does not know: workers pre-check them too (`_Early`)
BUSY_WHILE_SCANNING = 400_000  # bytes of files handed to `_Early`'s workers before the package views are scanned


@dataclass
class RunOptions:
    mode: Mode = Mode.WRITE
    selection: Selection = Selection()
    jobs: int = os.cpu_count() or 1
    cache: Cache = None
    rules: object = None  # the rule set to run (`engine.rule_set.RuleSet`; None: the package's own)


@contextlib.contextmanager
def _collector_paused():
    """The cyclic collector waits while one file is done. LibCST's nodes and Python's `ast` nodes hold no
    cycles, and the collector would scan each tree again and again as it grows and ages: a quarter of a large
    file's rewrite (1 MB: 33 -> 25 s), and a third of the pre-pass (tensor2tensor's 512 files, one process:
    1.8 -> 1.25 s). What a file leaves behind is collected as usual once it is done."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _heavy(job) -> FileResult:
    path, data, src, content_digest, mode, selection, view = job
    try:
        with _collector_paused():
            result = retry_deep(transform, path, data, src, mode, selection, view)
    except TooDeep:
        return too_deep(path, src.text)
    if result.status is Status.UNCHANGED or (result.status is Status.CHANGED and mode is not Mode.WRITE):
        result.digest = content_digest  # the file is still this content: the cache may keep the result
    return result


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


class _Pool:
    """Files that need LibCST go to worker processes as soon as the pre-pass finds them, so the workers
    rewrite while this process is still reading and pre-checking the rest of the tree. The pool starts
    once `POOL_THRESHOLD` such files are found, after this process has imported LibCST and the rules:
    forked workers inherit them instead of importing them once each."""

    def __init__(self, jobs: int) -> None:
        self.jobs, self.waiting, self.pool = jobs, [], None

    def add(self, job) -> None:
        self.waiting.append(job)
        if self.pool is None and self.jobs > 1 and len(self.waiting) >= POOL_THRESHOLD:
            _prefetch()  # LibCST and the rules, inherited by forked workers
            self.pool = Workers(self.jobs)
        if self.pool is not None:
            for path, data, src, *rest in self.waiting:
                # an `ast` tree costs more to pickle than to parse again in the worker
                self.pool.submit(_heavy, (path, data, dataclasses.replace(src, tree=None), *rest))
            self.waiting = []

    def results(self, done: list) -> None:
        """Onto `done`: each file as it is finished here, then the workers' files."""
        for job in self.waiting:
            with signals_deferred():  # Ctrl-C during its write: the file is counted, then the run stops
                done.append(_heavy(job))
        if self.pool is not None:
            done.extend(self.pool.collect())


class _Early:
    """Many files the cache does not know (a first run on a tree): worker processes pre-check and rewrite
    them, so the pre-pass is shared between the cores too, not only the LibCST work. LibCST and the rules are
    imported here, once, and the forked workers inherit them (each imported them itself: 0.3 s CPU apiece), with
    the wake words (`_INHERITED`). The files go largest first, with their package views: those that have none
    at once, the others once this process has scanned the views, while the workers rewrite the first ones."""

    def __init__(self, jobs: int, triggers) -> None:
        _INHERITED["triggers"] = triggers
        _prefetch()
        gc.freeze()  # what the workers inherit is never scanned by their collectors (nor copied by it)
        self.pool = Workers(jobs)
        self.pool.start(jobs)  # a worker is forked per waiting task

    def results(self, todo: list, views) -> list:
        """The files with a package view (the Estimator's programs, often the slowest: tensor2tensor's
        trainer_lib.py, 0.5 s) go right after the largest others, which keep the workers busy while this
        process scans the views: queued after every other file, they finished last, with one worker idle."""
        waiting, others, first = [], [], 0
        for job in sorted(todo, key=lambda job: -len(job[1])):
            if views.has(job[0]):
                waiting.append(job)  # its view is known once the package files are scanned
            elif first < BUSY_WHILE_SCANNING:
                first += len(job[1])
                self.pool.submit(_work, (*job, None))
            else:
                others.append(job)
        views.scan()  # once, here: each worker would scan the package files again
        for job in waiting:
            self.pool.submit(_work, (*job, views.get(job[0])))
        for job in others:
            self.pool.submit(_work, (*job, None))
        return self.pool.collect()


_INHERITED: dict = {}  # what `_Early`'s forked workers inherit


def _prefetch() -> None:
    importlib.import_module("tf2migrate.engine.apply")  # loaded for LibCST, before the workers fork
    active().load()


def _work(job) -> FileResult:
    """One file, pre-check and rewrite, in a worker of `_Early`."""
    with _collector_paused():  # from the pre-pass's `ast` tree to the rewrite's last edit
        return _work_paused(*job)  # which frees the tree, before the collector runs again


def _work_paused(path, data, content_digest, mode, selection, view) -> FileResult:
    src, done = _precheck(path, data, _INHERITED["triggers"], selection.source, lambda: view)
    if done is not None:
        done.digest = content_digest if done.status is Status.UNCHANGED else None
        return done
    return _heavy((path, data, src, content_digest, mode, selection, view))


def _early(options: RunOptions, todo: list) -> bool:
    """Is `_Early` worth it here? Only where forked workers inherit this process (Linux: macOS offers fork
    but its system libraries are not fork-safe)."""
    return options.jobs > 1 and len(todo) >= EARLY_POOL and sys.platform.startswith("linux")


def _precheck(path: str, data: bytes, triggers, source: str, view) -> tuple:
    """`process.precheck`, asked again for a file of a trainer package that the report-only rules' words alone
    would settle (or answer from `ast`): with package neighbours, the Estimator converter reads it whole.
    `view()`: the file's package view (`Views.get`), asked only then."""
    try:
        src, done = retry_deep(precheck, path, data, triggers, source)
        settled = done.status is Status.UNCHANGED if done is not None else src.fast_only
        if settled and src is not None and view() is not None:
            src, done = retry_deep(precheck, path, data, triggers, source, True)
            if src is not None and (done is not None and done.status is Status.UNCHANGED or src.fast_only):
                # a neighbour's helper trained here (`model.get_estimator(...)`) names no TF word: the Estimator
                # converter must still read the file, or its helper's module converts alone (a broken program)
                return dataclasses.replace(src, fast_only=False), None
    except TooDeep:
        return None, too_deep(path, data.decode("utf-8", "replace"))
    return src, done


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
        with _collector_paused():  # a settled file's `ast` tree is gone before the collector runs again
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
        results.append(_heavy(job))
        return None
    return job
