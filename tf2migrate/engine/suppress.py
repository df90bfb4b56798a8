"""Suppression comments, resolved here and only here so that no rule can forget them.

    x = strategy.experimental_run_v2(f)  # tf2migrate: skip
    y = tf1.fixed_size_partitioner(3, 1)  # tf2migrate: skip[TFM2,TFM101]
    # tf2migrate: skip-file
"""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

from tf2migrate.engine.diagnostics import code_matches

MARK = "tf2migrate:"
_PATTERN = re.compile(r"#\s*tf2migrate:\s*skip(?P<file>-file)?(?:\[(?P<codes>[^\]]*)\])?")
ALL = frozenset({"ALL"})


@dataclass
class Suppressions:
    whole_file: frozenset = frozenset()
    lines: dict = field(default_factory=dict)  # line -> frozenset of code prefixes

    def covers(self, code: str, first_line: int, last_line: int) -> bool:
        if code_matches(code, self.whole_file):
            return True
        for line in range(first_line, last_line + 1):
            if code_matches(code, self.lines.get(line, ())):
                return True
        return False


def _codes(match: re.Match) -> frozenset:
    raw = match.group("codes")
    if raw is None:
        return ALL
    return frozenset(c.strip() for c in raw.split(",") if c.strip())


def _comments(text: str):
    try:
        # newline=None: a lone \r ends a line too, as for Python's parser (the lines findings are placed on)
        for tok in tokenize.generate_tokens(io.StringIO(text, newline=None).readline):
            if tok.type == tokenize.COMMENT:
                yield tok.start[0], tok.string
    except (tokenize.TokenError, SyntaxError, IndentationError):
        for number, line in enumerate(text.splitlines(), 1):
            if "#" in line:
                yield number, line[line.index("#"):]


def parse_suppressions(text: str) -> Suppressions:
    found = Suppressions()
    if MARK not in text:
        return found
    whole = set()
    for line, comment in _comments(text):
        match = _PATTERN.search(comment)
        if not match:
            continue
        if match.group("file"):
            whole |= _codes(match)
        else:
            found.lines[line] = found.lines.get(line, frozenset()) | _codes(match)
    found.whole_file = frozenset(whole)
    return found
