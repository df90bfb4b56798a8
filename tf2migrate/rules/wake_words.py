"""The words that wake each code rule, kept free of LibCST.

The pre-pass settles a file whose code holds none of these words (nor any table rule's) without
importing LibCST, which alone costs about 0.2 s: a pre-commit hook on a clean file must not pay it. Each
rule's words are read from its line in `manifest.py`, which the rule list (`registry.py`) is made from too, so
a rule and the pre-pass cannot disagree; `tests/test_manifest.py` checks that they wake what the rule acts on.

Per rule: (attribute words, which count on any receiver; symbol words, which count only where they name
TensorFlow through the file's imports). A symbol written as a dotted name (`tf.strings.split`) wakes only as
that name, spelled so: `split` then needs `tf.strings.split`, not `tf.split`, `ops.split` nor (unless listed
too) `tf.compat.v1.strings.split`, so a common last word does not send every TF file to LibCST. The rules in
`FAST` read only Python's `ast` tree and report (`manifest.Ast.ANSWERS`): a file that only their words wake is
answered from that tree, without LibCST.
"""
from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

from tf2migrate.rules.idle import RUN_CALL  # free of LibCST too
from tf2migrate.rules.manifest import RULES, Acts, Ast

# Per rule: (attribute words, symbol words), from its line in the manifest
WAKE = {rule.name: (rule.attrs, rule.words | rule.wake_names) for rule in RULES}
FAST = frozenset(rule.name for rule in RULES if rule.ast is Ast.ANSWERS)
# the `FAST` rules whose words the Estimator converter shares (`tf.train.SessionRunHook`, `tf.estimator.RunConfig`):
# they count as code words where it may act (`Triggers.code_words`); TFM668's `tf.Session` is no word of it
SHARED = frozenset(rule.name for rule in RULES if rule.shared)
# The custom-loop rules act only where a strategy's `run` is called (rules/idle.py)
RUN_RULES = frozenset(rule.name for rule in RULES if rule.acts is Acts.ON_RUN_CALL)


@functools.lru_cache(maxsize=None)
def all_words() -> tuple:
    """(attribute words, symbol words) of every rule, the tables' included."""
    t = triggers()
    return t.attrs, t.symbols


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LAST: list = [None, frozenset()]  # the last text scanned and its words


def _identifiers(text: str) -> frozenset:
    """Every word of `text`, kept for the last text: the pre-pass, the splice path's code rules and its lines
    to read (`apply._hits`) scan the same text one after the other."""
    if _LAST[0] is not text:
        _LAST[:] = text, frozenset(_IDENTIFIER.findall(text))
    return _LAST[1]


def words_of(text: str) -> frozenset:
    """Every word of `text`, strings and comments included: a rule whose names all hold one of its words
    skips a file that has none (`_identifiers`' scan, already made for this text by the pre-pass)."""
    return _identifiers(text)


@dataclass(frozen=True, eq=False)
class Triggers:
    """What wakes a file, in one combined scan for every rule and table.

    An attribute word counts on any receiver (`strategy.experimental_run_v2`). A symbol word counts only
    where the file's own TensorFlow imports make it a TF name: for a code rule, any TF name ending in it;
    for the tables, a name they define (`tf.Session` wakes, `tf.keras.Session`... or `session.run` do not).
    """

    attrs: frozenset
    symbols: frozenset
    code_symbols: frozenset  # symbol words of code rules: any TF name ending in one wakes
    code_names: frozenset  # dotted names of code rules: only these wake (`tf.compat.v1.X` only if listed so)
    names: frozenset  # TF names the tables define (literal `tf.compat.v1...` spellings included)
    modules: frozenset  # modules whose every member the tables report
    hand_written: frozenset  # the names a hand-written table defines: they apply to `tf.compat.v1.X` too
    tf1_only: frozenset  # names acted on only where they mean the TF1 API (`Action.needs_tf1`)
    fast: frozenset  # symbol words that wake only `FAST` rules (no other rule, no table)
    code_attrs: frozenset  # attribute words of code rules
    reported: frozenset  # symbol words of `FAST` rules, shared or not: a file they alone wake needs no LibCST
    run_words: frozenset  # code symbol words only `RUN_RULES` have: idle in a file without `RUN_CALL`
    shared: frozenset  # symbol words of the `SHARED` rules: they count where the Estimator converter may act
    calls: dict  # name -> (positional arguments beyond which a rule acts, or -1; keywords it acts on)

    def scan(self, text: str) -> tuple:
        """(attribute words, symbol words) present in `text` (comments and strings included)."""
        found = _identifiers(text)
        return found & self.attrs, found & self.symbols

    def code_words(self, text: str, wide: bool = False) -> frozenset:
        """The code rules' symbol words that may give a rule work in this file (rules/idle.py): not the
        custom-loop rules' without a strategy `run` call; the `SHARED` rules' too when `wide`, where the
        Estimator converter, which shares their words, may act (`idle.estimator_may_act`, or a file with
        package neighbours, `engine/package.py`)."""
        words = self.code_symbols if RUN_CALL.search(text) else self.code_symbols - self.run_words
        return words | self.shared if wide else words

    def wakes(self, word: str, literal, canonical, spelled: str = "", tf1=lambda: True, code=None) -> bool:
        """Does this TF name (resolved through the file's imports; `spelled` as written) give a rule work?
        `tf1()`: is the file TF1 code (asked only for names TF2 also has); `code`: the code rules' words
        that count in this file (`Triggers.code_words`; default: all of them)."""
        if word in (self.code_symbols if code is None else code) or literal in self.code_names:
            return True
        if ".compat.v1." in spelled:  # written so on purpose: only the hand-written tables act on it
            return literal in self.hand_written or canonical in self.hand_written
        if literal and literal.startswith("tf.compat.v2."):
            canonical = None  # a TF2 name: the TF1 tables do not apply to it
        for name in (literal, canonical):
            if name and name in self.names:
                return name not in self.tf1_only or (literal or "").startswith("tf.compat.v1.") or tf1()
            while name:
                if name in self.modules:
                    return True
                name = name.rpartition(".")[0]
        return False

    def call_wakes(self, call: ast.Call, literal, canonical, spelled: str = "", tf1=lambda: True) -> bool:
        """A call to a name the tables edit only for some arguments: are they passed here?"""
        if ".compat.v1." in spelled and literal not in self.hand_written and canonical not in self.hand_written:
            return False  # written so on purpose: the generated tables leave it alone
        for name in (literal, canonical):
            entry = self.calls.get(name) if name else None
            if entry is None:
                continue
            keep, keywords = entry
            if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                hit = True
            else:
                hit = 0 <= keep < len(call.args) or any(k.arg in keywords for k in call.keywords)
            return hit and (name not in self.tf1_only or (literal or "").startswith("tf.compat.v1.") or tf1())
        return False

    def to_json(self) -> list:
        sets = [self.attrs, self.symbols, self.code_symbols, self.code_names, self.names, self.modules, self.hand_written,
                self.tf1_only, self.fast, self.code_attrs, self.reported, self.run_words, self.shared]
        calls = [[name, keep, sorted(words)] for name, (keep, words) in sorted(self.calls.items())]
        return [sorted(part) for part in sets] + [calls]

    @classmethod
    def from_json(cls, data) -> "Triggers":
        *sets, calls = data
        return cls(*(frozenset(part) for part in sets), {name: (keep, frozenset(words)) for name, keep, words in calls})

    @functools.lru_cache(maxsize=None)
    def regex(self) -> "re.Pattern":
        """The same words as a regex (a trie, fast to match): group 1 attribute words, group 2 symbol words.
        For finding the lines that hold them (engine/skip.py)."""
        return re.compile(r"\b(?:(%s)|(%s))\b" % (_trie(self.attrs), _trie(self.symbols)))

    @functools.lru_cache(maxsize=None)
    def code_regex(self) -> "re.Pattern":
        """The code rules' words alone (the tables' places are found with `ast`, engine/wake.py)."""
        symbols = self.code_symbols | {name.rsplit(".", 1)[-1] for name in self.code_names}
        return re.compile(r"\b(?:(%s)|(%s))\b" % (_trie(self.code_attrs), _trie(symbols)))


def _trie(words) -> str:
    """An alternation of `words` factored by common prefixes: a flat alternation of 1,000 words makes
    the regex engine try each one at every position (seconds per tree), a trie a few."""
    root: dict = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = "(?:" + "|".join(branches) + ")"
        return body + "?" if "" in node else body

    return emit(root) if words else "(?!)"


@functools.lru_cache(maxsize=None)
def triggers() -> Triggers:
    from tf2migrate.rules.tables import load_tables

    tables = load_tables()
    attrs, symbols, code_symbols = set(tables.triggers()), set(tables.symbol_triggers()), set()
    code_names, code_attrs, reported, shared, by_rule = set(), set(), set(), set(), {}
    for rule, (a, s) in WAKE.items():
        code_attrs |= a
        if rule in FAST:  # ast-only reports: a word of theirs never sends a file to LibCST by itself
            reported |= {name.rsplit(".", 1)[-1] for name in s}
            shared |= {name.rsplit(".", 1)[-1] for name in s} if rule in SHARED else set()
            continue
        code_symbols |= {name for name in s if "." not in name}
        code_names |= {name for name in s if "." in name}
        by_rule[rule] = {name for name in s if "." not in name}
    others = set().union(*(words for rule, words in by_rule.items() if rule not in RUN_RULES))
    run_words = set().union(*(by_rule[rule] for rule in RUN_RULES)) - others
    attrs |= code_attrs
    symbols |= code_symbols | reported | {name.rsplit(".", 1)[-1] for name in code_names}
    calls = tables.call_triggers()
    # a word may be both: an attribute on an object (`ds.make_one_shot_iterator()`) and a TF name a table
    # renames (`tf.data.make_one_shot_iterator`); the pre-pass tells the two apart by the receiver
    return Triggers(frozenset(attrs), frozenset(symbols), frozenset(code_symbols), frozenset(code_names),
                    frozenset(tables.by_symbol) - set(calls), frozenset(tables.modules), tables.hand_written_names(),
                    tables.tf1_only_names(), _fast_words(attrs, tables), frozenset(code_attrs), frozenset(reported),
                    frozenset(run_words), frozenset(shared), calls)


def _fast_words(attrs: set, tables) -> frozenset:
    """The symbol words that wake only `FAST` rules: no other rule's word, no table's."""
    others = set(attrs) | set(tables.symbol_triggers())
    for rule, (a, s) in WAKE.items():
        if rule not in FAST:
            others |= set(a) | {name.rsplit(".", 1)[-1] for name in s}
    return frozenset(w for rule in FAST for w in WAKE[rule][1] if w not in others)


def trigger_pattern() -> "re.Pattern":
    """Words whose absence proves a file needs no LibCST parse at all (see `Triggers.regex`)."""
    return triggers().regex()
