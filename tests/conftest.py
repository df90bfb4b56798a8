"""Shared helpers: the repository root, and a cache directory per test session."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# A small TF1-era file that every rewrite path (CLI, pre-commit hook, installed wheel) must change.
TF1_SAMPLE = '''\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
partitioner = tf.compat.v1.fixed_size_partitioner(3)


def step(x):
    return x * 2


out = strategy.experimental_run_v2(step, args=(1.0,))
'''


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Never read or write the user's real cache from tests."""
    os.environ["TF2MIGRATE_CACHE_DIR"] = str(tmp_path_factory.mktemp("tf2migrate-cache"))
    yield
