"""The words that wake each code rule, kept free of LibCST.

The pre-pass settles a file whose code holds none of these words (nor any table rule's) without
importing LibCST, which alone costs about 0.2 s: a pre-commit hook on a clean file must not pay it. Each
rule class names its entry here (`Plugin.wake`), so a rule and the pre-pass cannot disagree; a test checks
that every registered code rule has one.

Per rule: (attribute words, which count on any receiver; symbol words, which count only where they name
TensorFlow through the file's imports).
"""
from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass

# A module must contain one of these to build or fetch a strategy, or to run a replica function.
STRATEGY_WORDS = frozenset({
    "MirroredStrategy", "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "TPUStrategy",
    "ParameterServerStrategy", "CentralStorageStrategy", "CollectiveAllReduceStrategy", "get_strategy",
    "experimental_run_v2", "call_for_each_replica",
})
REPLICA_CALLS = frozenset({"experimental_run_v2", "call_for_each_replica"})
DISTRIBUTED_INPUT = frozenset({"experimental_distribute_dataset", "distribute_datasets_from_function",
                               "experimental_distribute_datasets_from_function"})
ESTIMATORS = frozenset({"Estimator", "DNNRegressor", "DNNClassifier", "LinearRegressor", "LinearClassifier"})

WAKE = {
    "make_dataset_iterator": (frozenset({"make_dataset_iterator"}), frozenset()),
    "call_for_each_replica": (frozenset({"call_for_each_replica"}), frozenset()),
    "auto_shard": (frozenset({"auto_shard"}), frozenset()),
    "reset_state": (frozenset({"reset_states"}), frozenset()),
    "embedding_lookup": (frozenset(), frozenset({"embedding_lookup", "embedding_lookup_sparse"})),
    "loss_scaling": (REPLICA_CALLS, STRATEGY_WORDS),
    "outside_scope": (REPLICA_CALLS, STRATEGY_WORDS),
    "distributed_input": (DISTRIBUTED_INPUT, frozenset()),
    "estimator": (frozenset(), ESTIMATORS),
    "dropout": (frozenset(), frozenset({"dropout"})),
}


@functools.lru_cache(maxsize=None)
def all_words() -> tuple:
    """(attribute words, symbol words) of every rule, the tables' included."""
    t = triggers()
    return t.attrs, t.symbols


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


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
    code_attrs: frozenset  # attribute words of code rules
    names: frozenset  # TF names the tables define (literal `tf.compat.v1...` spellings included)
    modules: frozenset  # modules whose every member the tables report
    hand_written: frozenset  # the names a hand-written table defines: they apply to `tf.compat.v1.X` too
    tf1_only: frozenset  # names acted on only where they mean the TF1 API (`Action.needs_tf1`)
    calls: dict  # name -> (positional arguments beyond which a rule acts, or -1; keywords it acts on)

    def scan(self, text: str) -> tuple:
        """(attribute words, symbol words) present in `text` (comments and strings included)."""
        found = set(_IDENTIFIER.findall(text))
        return found & self.attrs, found & self.symbols

    def wakes(self, word: str, literal, canonical, spelled: str = "", tf1=lambda: True) -> bool:
        """Does this TF name (resolved through the file's imports; `spelled` as written) give a rule work?
        `tf1()`: is the file TF1 code (asked only for names TF2 also has)."""
        if word in self.code_symbols:
            return True
        if ".compat.v1." in spelled:  # written so on purpose: only the hand-written tables act on it
            return literal in self.hand_written or canonical in self.hand_written
        if literal and literal.startswith("tf.compat.v2."):
            canonical = None  # a TF2 name: the TF1 tables do not apply to it
        for name in (literal, canonical):
            if name and name in self.names:
                return name not in self.tf1_only or literal.startswith("tf.compat.v1.") or tf1()
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
            return hit and (name not in self.tf1_only or literal.startswith("tf.compat.v1.") or tf1())
        return False

    def to_json(self) -> list:
        sets = [self.attrs, self.symbols, self.code_symbols, self.code_attrs, self.names, self.modules,
                self.hand_written, self.tf1_only]
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
        return re.compile(r"\b(?:(%s)|(%s))\b" % (_trie(self.code_attrs), _trie(self.code_symbols)))


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
    attrs, symbols, code_symbols, code_attrs = set(tables.triggers()), set(tables.symbol_triggers()), set(), set()
    for a, s in WAKE.values():
        code_attrs |= a
        code_symbols |= s
    attrs |= code_attrs
    symbols |= code_symbols
    calls = tables.call_triggers()
    return Triggers(frozenset(attrs), frozenset(symbols), frozenset(code_symbols), frozenset(code_attrs),
                    frozenset(tables.by_symbol) - set(calls), frozenset(tables.modules), tables.hand_written_names(),
                    tables.tf1_only_names(), calls)


def trigger_pattern() -> "re.Pattern":
    """Words whose absence proves a file needs no LibCST parse at all (see `Triggers.regex`)."""
    return triggers().regex()
