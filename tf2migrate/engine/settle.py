"""One file's work, in whichever process does it: the pre-check (asked again for a trainer package's file),
and the rewrite with the cyclic collector paused (engine/runner.py hands files out, engine/pools.py to workers).
"""
from __future__ import annotations

import contextlib
import dataclasses
import gc

from tf2migrate.engine.deep import TooDeep, retry_deep, too_deep
from tf2migrate.engine.process import FileResult, Mode, Status, precheck, transform


@contextlib.contextmanager
def collector_paused():
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


def heavy(job) -> FileResult:
    path, data, src, content_digest, mode, selection, view = job
    try:
        with collector_paused():
            result = retry_deep(transform, path, data, src, mode, selection, view)
    except TooDeep:
        return too_deep(path, src.text)
    if result.status is Status.UNCHANGED or (result.status is Status.CHANGED and mode is not Mode.WRITE):
        result.digest = content_digest  # the file is still this content: the cache may keep the result
    return result


def settled_precheck(path: str, data: bytes, triggers, source: str, view) -> tuple:
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
