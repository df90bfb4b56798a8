"""Load the declarative rule tables (`rules/*.toml`, then `rules/generated/*.toml`) into one index.

Every name the tables know (`tf.fixed_size_partitioner`, a method name such as `experimental_run_v2`,
a module such as `tf.contrib.rnn`) maps to the `Action`s the rules take on it, so the transformer does
one dictionary lookup per node however many rows there are.

Precedence is explicit (`LEVELS`): a name that a hand-written table defines is taken from it alone, and
the generated tables (made from TensorFlow's own upgrade data by `tools/gen_upgrade_tables.py`) fill in
the rest. Inside one level a name may be defined once: a second definition is a load error naming both
files, never "the last file wins".
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from tf2migrate.engine.diagnostics import Severity
from tf2migrate.rules import tables_dir  # noqa: F401 - still importable from here
from tf2migrate.rules.base import RuleInfo
from tf2migrate.rules.table_files import read_table

LEVELS = (("hand-written", "*.toml"), ("generated", "generated/*.toml"))  # first wins


class TableError(ValueError):
    """The tables contradict themselves (a name defined twice in one precedence level)."""


@dataclass(frozen=True)
class CallSpec:
    args: tuple = ()  # TF1 positional order ("" for a position that stays positional)
    keep: Optional[int] = None  # leading positional arguments kept as they are (default: from new_args)
    new_args: tuple = ()  # TF2 positional order
    keywords: dict = field(default_factory=dict)  # old keyword -> new keyword
    drop: dict = field(default_factory=dict)  # keyword -> (literal kept away, code reported otherwise)
    remove: tuple = ()  # keywords removed whatever their value (TF2 behaves as the TF1 default)
    add: dict = field(default_factory=dict)  # keyword -> source of the value added when missing
    wrap: dict = field(default_factory=dict)  # new keyword -> template with {value}
    block: dict = field(default_factory=dict)  # keyword -> why its presence prevents the fix
    guard: Optional[str] = None

    def __bool__(self) -> bool:
        return any((self.args, self.keep is not None, self.new_args, self.keywords, self.drop, self.remove, self.add, self.wrap,
                    self.block, self.guard))


@dataclass(frozen=True)
class TableRule:
    info: RuleInfo
    renames: dict  # canonical old name -> canonical new name
    methods: dict  # method name -> new method name
    reports: tuple  # canonical names reported, not fixed
    report_methods: tuple
    call: CallSpec


@dataclass(frozen=True)
class Action:
    """What one rule does to one name: rename it, edit the arguments of a call to it, or report it."""

    rule: TableRule
    new: Optional[str] = None  # new canonical name (new method name for a method); None keeps the name
    call: Optional[CallSpec] = None  # argument edits when the name is called
    report: bool = False  # a finding only, nothing changed
    message: Optional[str] = None  # this name's own message; `{name}` is the name as written
    severity: Optional[Severity] = None
    on_call: bool = False  # acts only where the name is called (keyword and positional edits)
    warn: tuple = ()  # (keyword, position or -1, message, severity): a finding when that argument is passed
    needs_tf1: bool = False  # the name is also a TF2 name (maybe meaning something else): TF1 files only
    generated: bool = False  # from the generated tables: not applied to an explicit `tf.compat.v1.X`

    def role(self) -> str:
        return "rename" if self.new is not None else "report" if self.report else "warn" if self.warn else "call"


@dataclass
class Tables:
    rules: list
    by_symbol: dict  # canonical (or literal `tf.compat.v1...`) name -> tuple of Actions
    by_method: dict  # method name -> tuple of Actions
    modules: dict  # module name (`tf.contrib.rnn`) -> Action: every member is reported
    importable: frozenset  # modules that `from M import X` can name

    def triggers(self) -> set:
        """Attribute words (any receiver). A method whose only change is to keyword arguments
        (`minimize(colocate_gradients_with_ops=...)`) wakes on those keywords, not on its common name."""
        words = set()
        for method, actions in self.by_method.items():
            keywords = _keywords_only(actions)
            words.update(keywords if keywords else (method,))
        return words

    def call_triggers(self) -> dict:
        """Names the tables only act on where called with particular arguments: name -> (positional
        arguments beyond which it acts, or -1 for none; the keywords it acts on). `tf.constant(x)` has
        nothing to do; `tf.constant(x, verify_shape=True)` has."""
        out = {}
        for name, actions in self.by_symbol.items():
            if not all(a.on_call and not a.report for a in actions):
                continue
            keep, keywords = -1, set()
            for a in actions:
                c = a.call
                keywords.update(w[0] for w in a.warn)
                if c is None:
                    continue
                if c.add or c.wrap or c.guard or (c.args and c.keep is None):
                    keep = 0  # acts on every call
                elif c.args:
                    keep = c.keep if keep < 0 else min(keep, c.keep)
                keywords.update(c.keywords, c.remove, c.drop, c.block)
            out[name] = (keep, frozenset(keywords))
        return out

    def tf1_only_names(self) -> frozenset:
        """Names whose upgrades run only where they mean the TF1 API (`Action.needs_tf1`)."""
        return frozenset(n for n, actions in self.by_symbol.items() if all(a.needs_tf1 for a in actions))

    def hand_written_names(self) -> frozenset:
        """Names a hand-written table acts on, also when spelled `tf.compat.v1.X` (a plain rename into
        `tf.compat.v1`, TFM608/TFM609, has nothing to do there: that spelling is its own output)."""
        return frozenset(n for n, actions in self.by_symbol.items() if any(
            not a.generated and not (a.new and a.new.startswith("tf.compat.v1.") and a.call is None and not a.report)
            for a in actions))

    def symbol_triggers(self) -> set:
        return {name.rsplit(".", 1)[-1] for name in list(self.by_symbol) + list(self.modules)}

    def knows(self, literal: Optional[str], canonical: Optional[str]) -> bool:
        """The tables act on this TF name (or on a module above it)."""
        for name in (literal, canonical):
            if name and (name in self.by_symbol or self.module_of(name) is not None):
                return True
        return False

    def module_of(self, name: str) -> Optional[str]:
        """The most specific reported module that `name` is (or is inside)."""
        while name:
            if name in self.modules:
                return name
            name = name.rpartition(".")[0]
        return None


def _keywords_only(actions: tuple) -> tuple:
    """The keywords that are all these actions act on, or () when they act on more."""
    words = []
    for a in actions:
        c = a.call
        if a.new is not None or a.report or a.warn or c is None or c.args or c.add or c.wrap or c.guard:
            return ()
        words += list(c.keywords) + list(c.remove) + list(c.drop) + list(c.block)
    return tuple(words)


def _call(c: dict) -> CallSpec:
    drop = {k: (v["keep"], v.get("otherwise")) for k, v in c.get("drop", {}).items()}
    return CallSpec(
        args=tuple(c.get("args", ())),
        keep=c.get("keep"),
        new_args=tuple(c.get("new_args", ())),
        keywords=dict(c.get("keywords", {})),
        drop=drop,
        remove=tuple(c.get("remove", ())),
        add=dict(c.get("add", {})),
        wrap=dict(c.get("wrap", {})),
        block=dict(c.get("block", {})),
        guard=c.get("guard"),
    )


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
    return TableRule(info, dict(raw.get("renames", {})), dict(raw.get("methods", {})),
                     tuple(raw.get("reports", ())), tuple(raw.get("report_methods", ())), _call(raw.get("call", {})))


def _note(note) -> tuple:
    """A per-name note: a message, or {message, severity}."""
    if isinstance(note, str):
        return note, None
    return note.get("message"), Severity(note["severity"]) if "severity" in note else None


def _actions(rule: TableRule, raw: dict, also_tf2: frozenset, generated: bool) -> tuple:
    """(symbol actions, method actions, module actions) of one rule, each a list of (name, Action)."""
    symbols, methods, modules = _rule_actions(rule, raw)
    if generated:
        symbols = [(n, replace(a, generated=True)) for n, a in symbols]
    if also_tf2:
        symbols = [(n, replace(a, needs_tf1=True) if n in also_tf2 else a) for n, a in symbols]
        methods = [(n, replace(a, needs_tf1=True) if "*." + n in also_tf2 else a) for n, a in methods]
    return symbols, methods, modules


def _rule_actions(rule: TableRule, raw: dict) -> tuple:
    call = rule.call or None
    notes = raw.get("notes", {})
    symbols, methods, modules = [], [], []
    for old, new in rule.renames.items():
        symbols.append((old, Action(rule, new=new, call=call, message=_note(notes[old])[0] if old in notes else None)))
    for old, spec in raw.get("calls", {}).items():
        symbols.append((old, Action(rule, call=_call(spec), on_call=True)))
    for old in rule.reports:
        message, severity = _note(notes[old]) if old in notes else (None, None)
        symbols.append((old, Action(rule, report=True, message=message, severity=severity)))
    for old in raw.get("call_reports", ()):
        message, severity = _note(notes[old]) if old in notes else (None, None)
        symbols.append((old, Action(rule, report=True, message=message, severity=severity, on_call=True)))
    for old, new in rule.methods.items():
        methods.append((old, Action(rule, new=new, call=call)))
    for old, spec in raw.get("method_calls", {}).items():
        methods.append((old, Action(rule, call=_call(spec), on_call=True)))
    for old in rule.report_methods:
        message, severity = _note(notes[old]) if old in notes else (None, None)
        methods.append((old, Action(rule, report=True, message=message, severity=severity, on_call=True)))
    for old, warnings in raw.get("warn", {}).items():
        warn = tuple((w["keyword"], w.get("position", -1), w["message"], Severity(w.get("severity", "warning")))
                     for w in warnings)
        symbols.append((old, Action(rule, warn=warn, on_call=True)))
    for old in raw.get("modules", ()):
        message, severity = _note(notes[old]) if old in notes else (None, None)
        modules.append((old, Action(rule, report=True, message=message, severity=severity)))
    return symbols, methods, modules


@functools.lru_cache(maxsize=None)
def load_tables(directory: Optional[str] = None) -> Tables:
    folder = Path(directory) if directory else tables_dir()
    rules, importable = [], set()
    by_symbol, by_method, modules = {}, {}, {}
    owner: dict = {}  # (kind, name) -> (file, level) of the definition that holds it
    for level, pattern in LEVELS:
        this_level: dict = {}
        for path in sorted(folder.glob(pattern)):
            data = read_table(path)
            importable.update(data.get("importable_modules", ()))
            also_tf2 = frozenset(data.get("also_tf2", ()))
            for raw in data.get("rule", ()):
                rule = _rule(raw)
                rules.append(rule)
                for kind, pairs, index in zip(("symbol", "method", "module"), _actions(rule, raw, also_tf2, level == "generated"),
                                              (by_symbol, by_method, modules)):
                    for name, action in pairs:
                        if (kind, name) in owner:
                            continue  # a higher level defines this name: it alone decides
                        first = this_level.setdefault((kind, name), (path.name, rule.info.code))
                        if first[0] != path.name:
                            raise TableError(f"{kind} `{name}` is defined twice in the {level} tables: "
                                             f"{first[0]} ({first[1]}) and {path.name} ({rule.info.code})")
                        if kind == "module":
                            if name in index:
                                raise TableError(f"module `{name}` is defined twice in {path.name}")
                            index[name] = action
                        else:
                            _check_once(index.get(name, ()), action, kind, name, path.name)
                            index[name] = index.get(name, ()) + (action,)
        owner.update(this_level)
    return Tables(rules, by_symbol, by_method, modules, frozenset(importable))


def _check_once(actions: tuple, action: Action, kind: str, name: str, where: str) -> None:
    """One file may say several things about a name (rename it, edit its calls, report it), each once."""
    for other in actions:
        if other.role() == action.role():
            raise TableError(f"{kind} `{name}` is defined twice in {where} "
                             f"({other.rule.info.code} and {action.rule.info.code}: both {action.role()})")
