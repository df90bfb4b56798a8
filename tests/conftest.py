"""Shared helpers: the repository root, and a cache directory per test session."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def _isolated_cache(tmp_path_factory):
    """Never read or write the user's real cache from tests."""
    os.environ["TF2MIGRATE_CACHE_DIR"] = str(tmp_path_factory.mktemp("tf2migrate-cache"))
    yield
