"""Diagnostics: one line per finding, `path:line:col: TFM123 [*] message`.

Every rule reports through these types so that output, the JSON report and exit codes agree.
"""
from __future__ import annotations

import enum
import re
from dataclasses import asdict, dataclass

# control characters and line separators: a file named "a.py\nb.py:1:1: TFM101 ..." must not forge a line
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """`text` with every control character written as an escape (`\\n`, `\\x1b`), for one output line."""
    return _UNPRINTABLE.sub(lambda m: repr(m.group())[1:-1], text)


class Severity(str, enum.Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Diagnostic:
    """A finding at a place in a file; `fixed` means the rewrite applied (or would apply) a fix."""

    path: str
    line: int
    col: int
    code: str
    message: str
    severity: Severity = Severity.WARNING
    fixable: bool = False
    fixed: bool = False

    def format(self) -> str:
        mark = "[*] " if self.fixable else ""
        return printable(f"{self.path}:{self.line}:{self.col}: {self.code} {mark}{self.message}")

    def to_json(self) -> dict:
        data = asdict(self)
        data["severity"] = self.severity.value
        return data

    @classmethod
    def from_json(cls, data: dict) -> "Diagnostic":
        return cls(**{**data, "severity": Severity(data["severity"])})


def code_matches(code: str, prefixes) -> bool:
    """`TFM1` selects the whole TFM1xx family, `TFM101` one code, `ALL` everything."""
    return any(p == "ALL" or code.startswith(p) for p in prefixes)
