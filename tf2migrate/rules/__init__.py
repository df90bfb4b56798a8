"""The rules: declarative tables (`rules/*.toml`, read by `tables.py`) and code rules (one module each).

`tables_dir` lives here, not in `tables.py`: a warm run needs the folder (its files are part of the cache
key) but none of the table machinery.
"""
from pathlib import Path


def tables_dir() -> Path:
    """`tf2migrate/_tables` inside a wheel, the repository's `rules/` in a source checkout."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_tables"
    return packaged if packaged.is_dir() else here.parent / "rules"
