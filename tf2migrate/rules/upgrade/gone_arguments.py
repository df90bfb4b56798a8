"""TFM658: an argument TF2 dropped, whose TF2 behaviour is one of its TF1 values (`zeros_like(optimize=)`,
`while_loop(return_same_structure=)`, `ctc_beam_search_decoder(merge_repeated=)`)."""
from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from tf2migrate.rules.base import Plugin, RuleInfo
from tf2migrate.rules.upgrade.common import UNKNOWN_SOURCE, literal_bool, tf1_call_by_keyword, tf1_here


@dataclass(frozen=True)
class Gone:
    tf1_args: tuple  # TF1's positional order; None where TF2 has the same argument at the same place
    name: str  # the argument TF2 dropped
    tf2_value: bool  # how TF2 behaves
    tf1_default: bool
    renames: tuple = ()  # (TF1 keyword, TF2 keyword)


GONE = {
    "tf.zeros_like": Gone((None, None, None, "optimize"), "optimize", True, True, (("tensor", "input"),)),
    "tf.ones_like": Gone((None, None, None, "optimize"), "optimize", True, True, (("tensor", "input"),)),
    "tf.while_loop": Gone((None,) * 7 + ("name", "maximum_iterations", "return_same_structure"),
                          "return_same_structure", True, False),
    "tf.nn.ctc_beam_search_decoder": Gone((None,) * 4 + ("merge_repeated",), "merge_repeated", False, True),
}
_TF1_ARGS = {name: gone.tf1_args for name, gone in GONE.items()}


class GoneArguments(Plugin):
    """TF2 dropped a few arguments and always behaves as one of their values: `zeros_like`/`ones_like` as
    `optimize=True`, `while_loop` as `return_same_structure=True`, `ctc_beam_search_decoder` as
    `merge_repeated=False`. Passing that value is dropped; any other value keeps the call on the TF1
    function, `tf.compat.v1.*`, and says so. Where TF1's default differs from TF2's behaviour and the
    argument is not passed (`ctc_beam_search_decoder` merged repeats by default), the call means something
    else in TF2 but reads the same: on TF1 code it is reported (moving it would make the dropped
    `merge_repeated=False` of another call look like TF1's default on the next run), elsewhere TFM650 says
    it was left. (`while_loop` also unpacked a one-element `loop_vars` by default; left as is.) Arguments after a changed position (`while_loop`'s
    `name`, `maximum_iterations`) are passed by keyword."""

    claims = frozenset(GONE)
    infos = (
        RuleInfo(
            code="TFM658",
            name="argument-gone-in-tf2",
            summary="zeros_like(optimize=) / while_loop(return_same_structure=) / ctc_beam_search_decoder("
            "merge_repeated=): dropped, or the call kept on tf.compat.v1",
            message="TF2 dropped this argument and behaves as its other value",
            fix="partial",
            why=__doc__,
            before="import tensorflow as tf\nz = tf.zeros_like(x, optimize=True)\n"
            "decoded, _ = tf.nn.ctc_beam_search_decoder(logits, lengths, merge_repeated=True)\n",
            after="import tensorflow as tf\nz = tf.zeros_like(x)\n"
            "decoded, _ = tf.compat.v1.nn.ctc_beam_search_decoder(logits, lengths, merge_repeated=True)\n",
        ),
        UNKNOWN_SOURCE,
    )

    def leave_call(self, original: cst.Call, updated: cst.Call):
        bound = tf1_call_by_keyword(self.ctx, original, updated, self.claims, _TF1_ARGS)
        if bound is None:
            return updated
        literal, canonical, args = bound
        gone = GONE[canonical]
        given = next((a for a in args if a.keyword is not None and a.keyword.value == gone.name), None)
        keep = decide(self.ctx, original, literal, canonical, given is not None,
                      literal_bool(given.value) if given is not None else None)
        if keep is None:
            return updated
        if keep == "compat_v1":
            return updated.with_changes(func=self.ctx.emit.compat_v1(canonical))
        renames = dict(gone.renames)
        kept = [a.with_changes(keyword=cst.Name(renames[a.keyword.value]))
                if a.keyword is not None and a.keyword.value in renames else a for a in args if a is not given]
        if given is not None and kept and given is args[-1]:
            kept[-1] = kept[-1].with_changes(comma=given.comma)
        if given is None and all(a.deep_equals(b) for a, b in zip(kept, updated.args)):
            return updated
        message = (f"`{gone.name}={gone.tf2_value}` is how TF2 always behaves: dropped" if given is not None else
                   "TF2 names or orders these arguments differently: passed by keyword")
        return updated.with_changes(args=kept) if self.ctx.report(original, "TFM658", message) else updated


def decide(ctx, node, literal: str, canonical: str, given: bool, value) -> str | None:
    """The rule's decision on a call, its findings made: None to leave it, "compat_v1" to keep TF1's function,
    "edit" to drop the argument or pass the others by keyword. `given`: the dropped argument is passed,
    `value`: its literal boolean (else None). Shared with the splice twin (rules/code_splice_rules.py)."""
    gone = GONE[canonical]
    keep_v1 = (value if given else gone.tf1_default) is not gone.tf2_value
    if not given and keep_v1:  # TF1's default is not TF2's behaviour, and the call reads the same
        if canonical == "tf.while_loop":
            keep_v1 = False  # it only unpacked a one-element `loop_vars`: rare, left (its arguments still move)
        else:
            what = f"`{canonical}` without `{gone.name}=`"
            if tf1_here(ctx, node, literal, what):
                ctx.report(node, "TFM658", f"TF1 defaulted to `{gone.name}={gone.tf1_default}`, TF2 "
                           f"behaves as `{gone.name}={gone.tf2_value}`: to keep TF1's results call "
                           f"`tf.compat.v1.{canonical[3:]}`", fixable=False)
            return None  # reported, not moved: the moved call could not be told from TF2 code next time
    if keep_v1:
        message = f"kept as `tf.compat.v1.{canonical[3:]}`: TF2 behaves as `{gone.name}={gone.tf2_value}`"
        return "compat_v1" if ctx.report(node, "TFM658", message) else None
    return "edit"
