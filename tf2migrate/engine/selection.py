"""Which codes a run enables, and the rewrite's choices.

Kept apart from `context` (which needs LibCST) so that the CLI and the runner can answer a run that
the cache or the pre-pass settles without importing LibCST at all.
"""
from __future__ import annotations

from dataclasses import dataclass

from tf2migrate.engine.diagnostics import code_matches


@dataclass(frozen=True)
class Selection:
    """Which codes run (prefix match), plus the rewrite's choices (`strategy`: auto, none, ...;
    `source`: auto, tf1 or tf2, what the files are written for, see `engine/tf_version.py`; `target`: the
    Keras the output is written for, keras3 or tf-keras)."""

    select: tuple = ("ALL",)
    ignore: tuple = ()
    strategy: str = "auto"
    source: str = "auto"
    target: str = "keras3"

    def enabled(self, code: str) -> bool:
        return code_matches(code, self.select) and not code_matches(code, self.ignore)


def parse_codes(values) -> tuple:
    """`("tfm1,TFM204", "TFM3")` -> `("TFM1", "TFM204", "TFM3")`: what `--select`, `--ignore`, the config file
    and `verify --accept-fix` accept."""
    out = []
    for value in values or ():
        out.extend(c.strip().upper() for c in str(value).split(",") if c.strip())
    return tuple(out)
