"""The rewrite's worker processes, and Ctrl-C.

Ctrl-C reaches the whole process group. The workers ignore it: this process decides. It raises the stop
flag the workers share, so that a queued file is not started (`_unless_stopped`), cancels what is not yet
handed out, waits for the files being rewritten (each is written whole, or not at all), and reports what was
done (`Interrupted`). Workers also die with this process (parent-death signal): a SIGKILLed run used to
leave them idle forever.
"""
from __future__ import annotations

import signal
import sys

from tf2migrate.engine.parent_death import die_with_parent


class Interrupted(Exception):
    """Ctrl-C: `results` are the files done before it; the others were not started."""

    def __init__(self, results: list) -> None:
        super().__init__(f"interrupted after {len(results)} files")
        self.results = results


_STOPPING = None   # in a worker: the stop flag of its pool
_live: list = []   # in this process: the pools still handing out work


def _worker_start(stopping, parent: int, prefetch) -> None:
    global _STOPPING
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    _STOPPING = stopping
    if prefetch is not None:
        prefetch()


def _unless_stopped(fn, job):
    """`fn(job)` in a worker, or None once the run is stopping: a queued file is not started."""
    if _STOPPING is not None and _STOPPING.is_set():
        return None
    return fn(job)


class Workers:
    """A process pool, forked on Linux (macOS offers fork but its system libraries are not fork-safe)."""

    def __init__(self, jobs: int, prefetch=None) -> None:
        import concurrent.futures
        import multiprocessing
        import os

        context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else multiprocessing
        self.stopping = context.Event()
        self.pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=jobs, mp_context=context if sys.platform.startswith("linux") else None,
            initializer=_worker_start, initargs=(self.stopping, os.getpid(), prefetch))
        self.futures: list = []
        _live.append(self)

    def submit(self, fn, job):
        future = self.pool.submit(_unless_stopped, fn, job)
        self.futures.append(future)
        return future

    def start(self, count: int) -> None:
        """Fork `count` workers now (one per waiting task)."""
        for _ in range(count):
            self.pool.submit(int)

    def collect(self) -> list:
        """Every file's result, in the order submitted; the workers end."""
        try:
            done = [f.result() for f in self.futures]   # Ctrl-C here: the caller calls `stop_all`
        except Exception:
            self.pool.shutdown(cancel_futures=True)
            _live.remove(self)
            raise
        self.pool.shutdown()
        _live.remove(self)
        return done

    def stop(self) -> list:
        """Ctrl-C: queued files are not started; the results of the files that were finished, or are finished now."""
        import concurrent.futures

        self.stopping.set()
        running = [f for f in self.futures if not f.cancel()]   # handed out already: finished, or soon
        concurrent.futures.wait(running)   # (it never counts a future cancel() cancelled as done)
        # joined here: a pool shut down without waiting left its manager thread running, which could close its
        # wake-up pipe just as the interpreter's exit hook wrote to it (`OSError: Bad file descriptor`, a
        # traceback after the summary, 1 run in 10 under load)
        self.pool.shutdown(wait=True, cancel_futures=True)
        if self in _live:
            _live.remove(self)
        return [f.result() for f in running if f.exception() is None and f.result() is not None]


def stop_all() -> list:
    """Stop every pool still at work; what their workers finished."""
    return [r for workers in list(_live) for r in workers.stop()]
