"""Load the declarative rule tables (`rules/*.toml`) into one index, built once per process.

A row is keyed by the canonical TF1 name (`tf.fixed_size_partitioner`) or by a method name on any
receiver (`experimental_run_v2`), so the transformer does one dictionary lookup per node.
"""
from __future__ import annotations

import functools
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules.base import RuleInfo

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@dataclass(frozen=True)
class CallSpec:
    args: tuple = ()  # TF1 positional order
    new_args: tuple = ()  # TF2 positional order
    keywords: dict = field(default_factory=dict)  # old keyword -> new keyword
    drop: dict = field(default_factory=dict)  # keyword -> (literal kept away, code reported otherwise)
    add: dict = field(default_factory=dict)  # keyword -> source of the value added when missing
    wrap: dict = field(default_factory=dict)  # new keyword -> template with {value}
    block: dict = field(default_factory=dict)  # keyword -> why its presence prevents the fix
    guard: Optional[str] = None


@dataclass(frozen=True)
class TableRule:
    info: RuleInfo
    renames: dict  # canonical old name -> canonical new name
    methods: dict  # method name -> new method name
    reports: tuple  # canonical names reported, not fixed
    report_methods: tuple
    call: CallSpec


@dataclass
class Tables:
    rules: list
    by_symbol: dict  # canonical name -> TableRule
    by_method: dict  # method name -> TableRule
    importable: frozenset  # modules that `from M import X` can name

    def triggers(self) -> set:
        return set(self.by_method)

    def symbol_triggers(self) -> set:
        return {name.rsplit(".", 1)[-1] for name in self.by_symbol}


def tables_dir() -> Path:
    """`tf2migrate/_tables` inside a wheel, the repository's `rules/` in a source checkout."""
    here = Path(__file__).resolve().parent.parent
    packaged = here / "_tables"
    return packaged if packaged.is_dir() else here.parent / "rules"


def _rule(raw: dict) -> TableRule:
    info = RuleInfo(
        code=raw["code"],
        name=raw["name"],
        summary=raw["summary"],
        message=raw.get("message", raw["summary"]),
        severity=Severity(raw.get("severity", "warning")),
        fix=raw.get("fix", "automatic"),
        why=raw.get("why", "").strip(),
        before=raw.get("before", "").lstrip("\n"),
        after=raw.get("after", "").lstrip("\n"),
    )
    c = raw.get("call", {})
    drop = {k: (v["keep"], v.get("otherwise")) for k, v in c.get("drop", {}).items()}
    call = CallSpec(
        args=tuple(c.get("args", ())),
        new_args=tuple(c.get("new_args", ())),
        keywords=dict(c.get("keywords", {})),
        drop=drop,
        add=dict(c.get("add", {})),
        wrap=dict(c.get("wrap", {})),
        block=dict(c.get("block", {})),
        guard=c.get("guard"),
    )
    return TableRule(
        info,
        dict(raw.get("renames", {})),
        dict(raw.get("methods", {})),
        tuple(raw.get("reports", ())),
        tuple(raw.get("report_methods", ())),
        call,
    )


@functools.lru_cache(maxsize=None)
def load_tables(directory: Optional[str] = None) -> Tables:
    folder = Path(directory) if directory else tables_dir()
    rules, importable = [], set()
    for path in sorted(folder.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        importable.update(data.get("importable_modules", ()))
        rules.extend(_rule(raw) for raw in data.get("rule", ()))
    by_symbol, by_method = {}, {}
    for rule in rules:
        for name in list(rule.renames) + list(rule.reports):
            by_symbol[name] = rule
        for name in list(rule.methods) + list(rule.report_methods):
            by_method[name] = rule
    return Tables(rules, by_symbol, by_method, frozenset(importable))
