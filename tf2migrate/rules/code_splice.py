"""Code rules on the splice path (rules/table_splice.py): the TF1 -> TF2 call upgrades that only edit the call
they match, answered from `ast` and written as text splices, so a file they wake needs no LibCST (issue 20).

Each function makes the same decision as the rule's `leave_call` (named beside it), reports the same findings at
the same places, and writes what LibCST's code generation would print for the new call. The rules rebuild the
arguments they touch (`keyword_arg`), which drops the blanks between a value and its comma: such a call, or any
other shape the text cannot promise (parentheses or comments between arguments, a trailing comma where one is
added, a new import), is `NotSure` and the file goes to LibCST. tests/test_table_splice.py compares the two
paths on every fixture and rule example; bench/splice_agrees.py on a corpus.
"""
from __future__ import annotations

import ast

from tf2migrate.engine.text_edits import NotSure
from tf2migrate.rules import arg_splice

# the `wake_words.WAKE` entries of the rules answered here (and of module_twins.REPORT_ONLY's)
RULES = frozenset({"casts", "dropout", "iterators", "name_scope", "gone_arguments", "image_resize", "device_function",
                   "initializers", "softmax_labels", "regularizers", "learning_phase"})


class Call:
    """One call's arguments and text, as the rules read them (`positional`, `keyword`, a value's text)."""

    def __init__(self, p, call: ast.Call) -> None:
        self.p, self.node, self.text = p, call, p.text
        self.args = arg_splice.call_args(p.text, call)
        self._parens = None

    @property
    def close_at(self) -> int:
        """Where the call's `)` is; NotSure unless only blanks and commas stand between its arguments (asked
        before any edit: reading a call needs no more)."""
        if self._parens is None:
            self._parens = arg_splice._parens(self.text, self.node, self.args)
        return self._parens[1]

    def positional(self):
        if any(a.star for a in self.args):
            return None
        return [a for a in self.args if a.keyword is None]

    def keyword(self, name: str):
        return next((a for a in self.args if a.keyword == name), None)

    def value_text(self, a) -> str:
        """The value as LibCST holds it (its own parentheses included), with the edits made inside it."""
        self.close_at  # noqa: B018 - the shape is checked
        if a.keyword is None:
            return self.text.render(a.start, a.end)
        if a.value_start < 0:
            raise NotSure("a keyword's value not found")
        return self.text.render(a.value_start, a.end)

    def parenthesized(self, a) -> bool:
        return a.keyword is not None and self.text.offset(a.value.lineno, a.value.col_offset) > a.value_start

    def one_minus(self, a) -> str:
        """`common.one_minus`: `1 - (x)`, `x` in parentheses unless it has its own (as tf_upgrade_v2 writes it)."""
        text = self.value_text(a)
        start = a.value_start if a.keyword is not None else a.start
        own = self.text.offset(a.value.lineno, a.value.col_offset) > start
        return f"1 - {text}" if own else f"1 - ({text})"

    def rebuilt(self, a) -> None:
        """The rule builds a new argument here: LibCST drops the blanks between the value and its comma."""
        self.close_at  # noqa: B018 - the shape is checked
        if self.text.text[a.end:a.end + 1] not in (",", ")"):
            raise NotSure("blanks after an argument a rule rebuilds")

    def to_keywords(self, names) -> None:
        """`common.to_keywords`, written: positional argument i past the kept ones gets `names[i]=`."""
        i = 0
        for a in self.args:
            if a.keyword is None and i < len(names) and names[i] is not None:
                self.rebuilt(a)
                self.text.replace(a.start, a.start, f"{names[i]}=")
            i += a.keyword is None

    def append(self, name: str, value: str) -> None:
        close_at = self.close_at
        arg_splice._append(self.text, self.args, [[None, name, value]], self._parens[0], close_at)


def called(p, call: ast.Call, names: frozenset) -> tuple:
    """`common.called`: (literal, canonical) when `call` calls one of `names`."""
    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if last is None or not any(name.endswith("." + last) for name in names):
        return None, None
    literal, canonical = p.resolve(func)
    return (literal, canonical) if canonical in names else (None, None)


def compat_v1(p, canonical: str) -> str:
    """`NameEmitter.compat_v1`, as text."""
    local = next((b.local for b in p.ctx.imports.bindings.values() if b.target == "tensorflow.compat.v1"), None)
    return f"{local}.{canonical[3:]}" if local is not None else f"{p.alias()}.compat.v1.{canonical[3:]}"


def run(p, call: ast.Call) -> None:
    """Every rule answered here, on one call, in the registry's order (`code_splice_rules.BY_LAST_WORD`): at most
    one of them matches a call."""
    from tf2migrate.rules import code_splice_rules as rules

    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    for words, rule in rules.BY_LAST_WORD:
        if last in words:
            rule(p, call)
