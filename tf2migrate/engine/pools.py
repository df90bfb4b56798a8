"""How files reach the worker processes: `Pool` for the few files a run's pre-pass leaves to LibCST, `Early` for
a first run on a tree, whose workers pre-check the files too (engine/runner.py decides which).
"""
from __future__ import annotations

import dataclasses
import gc
import importlib

from tf2migrate.engine.process import FileResult, Status
from tf2migrate.engine.rule_set import active
from tf2migrate.engine.settle import collector_paused, heavy, settled_precheck
from tf2migrate.engine.workers import Workers
from tf2migrate.engine.writer import signals_deferred

POOL_THRESHOLD = 4  # fewer files than this needing LibCST: a pool costs more than it saves
BUSY_WHILE_SCANNING = 400_000  # bytes of files handed to `Early`'s workers before the package views are scanned


class Pool:
    """Files that need LibCST go to worker processes as soon as the pre-pass finds them, so the workers
    rewrite while this process is still reading and pre-checking the rest of the tree. The pool starts
    once `POOL_THRESHOLD` such files are found, after this process has imported LibCST and the rules:
    forked workers inherit them instead of importing them once each."""

    def __init__(self, jobs: int) -> None:
        self.jobs, self.waiting, self.pool = jobs, [], None

    def add(self, job) -> None:
        self.waiting.append(job)
        if self.pool is None and self.jobs > 1 and len(self.waiting) >= POOL_THRESHOLD:
            prefetch()  # LibCST and the rules, inherited by forked workers
            self.pool = Workers(self.jobs)
        if self.pool is not None:
            for path, data, src, *rest in self.waiting:
                # an `ast` tree costs more to pickle than to parse again in the worker
                self.pool.submit(heavy, (path, data, dataclasses.replace(src, tree=None), *rest))
            self.waiting = []

    def results(self, done: list) -> None:
        """Onto `done`: each file as it is finished here, then the workers' files."""
        for job in self.waiting:
            with signals_deferred():  # Ctrl-C during its write: the file is counted, then the run stops
                done.append(heavy(job))
        if self.pool is not None:
            done.extend(self.pool.collect())


class Early:
    """Many files the cache does not know (a first run on a tree): worker processes pre-check and rewrite
    them, so the pre-pass is shared between the cores too, not only the LibCST work. LibCST and the rules are
    imported here, once, and the forked workers inherit them (each imported them itself: 0.3 s CPU apiece), with
    the wake words (`_INHERITED`). The files go largest first, with their package views: those that have none
    at once, the others once this process has scanned the views, while the workers rewrite the first ones."""

    def __init__(self, jobs: int, triggers) -> None:
        _INHERITED["triggers"] = triggers
        prefetch()
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


_INHERITED: dict = {}  # what `Early`'s forked workers inherit


def prefetch() -> None:
    importlib.import_module("tf2migrate.engine.apply")  # loaded for LibCST, before the workers fork
    active().load()


def _work(job) -> FileResult:
    """One file, pre-check and rewrite, in a worker of `Early`."""
    with collector_paused():  # from the pre-pass's `ast` tree to the rewrite's last edit
        return _work_paused(*job)  # which frees the tree, before the collector runs again


def _work_paused(path, data, content_digest, mode, selection, view) -> FileResult:
    src, done = settled_precheck(path, data, _INHERITED["triggers"], selection.source, lambda: view)
    if done is not None:
        done.digest = content_digest if done.status is Status.UNCHANGED else None
        return done
    return heavy((path, data, src, content_digest, mode, selection, view))
