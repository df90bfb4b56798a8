"""Issue 9 point 6, mutation testing of the proof: every single-mistake mutant of a verified pair's migrated
side (fixtures/mutants/mutants.toml) is DIVERGED or INCOMPARABLE, never EQUIVALENT. The mutation score
(caught/total) is printed at the end of the session (conftest.py)."""
import os
import tomllib

import pytest

from harness_support import MUTANTS, ROOT

MUTANT_DIR = os.path.join(ROOT, "fixtures", "mutants")
with open(os.path.join(MUTANT_DIR, "mutants.toml"), "rb") as _f:
    TABLE = tomllib.load(_f)["mutant"]


def _id(m):
    return f"{m['pair']}-{m['name']}"


def _base(m):
    return os.path.join(ROOT, "fixtures", "programs", m["pair"])


@pytest.mark.parametrize("mutant", TABLE, ids=_id)
def test_a_mutant_is_its_base_with_one_mistake(mutant):
    with open(os.path.join(_base(mutant), "migrated.py")) as f:
        base = f.read()
    with open(os.path.join(MUTANT_DIR, mutant["pair"], f"{mutant['name']}.py")) as f:
        text = f.read()
    assert base.count(mutant["old"]) == 1, "the mistake must be one edit of one place"
    assert text == base.replace(mutant["old"], mutant["new"]) != base
    compile(text, mutant["name"], "exec")


def test_the_suite_covers_the_mistakes_of_issue_9():
    constructs = " | ".join(m["construct"] for m in TABLE)
    for needed in ("dropout rate", "dropout removed", "initializer", "batch-norm", "shuffle", "batch size",
                   "number of steps", "learning rate", "schedule", "optimizer hyperparameter", "reduction",
                   "from_logits", "regularizer removed", "clipping removed", "label smoothing", "class weights"):
        assert needed in constructs, needed
    assert len(TABLE) >= 20
    assert len({m["pair"] for m in TABLE}) >= 3
    assert any(m["pair"].startswith("est_") for m in TABLE) and any(m.get("cluster") == "ps:1,1" for m in TABLE)
    files = {os.path.join(p, n) for p in os.listdir(MUTANT_DIR) if os.path.isdir(os.path.join(MUTANT_DIR, p))
             for n in os.listdir(os.path.join(MUTANT_DIR, p)) if n.endswith(".py")}
    assert files == {os.path.join(m["pair"], f"{m['name']}.py") for m in TABLE}, "a mutant file with no table entry"


@pytest.mark.slow
@pytest.mark.parametrize("mutant", TABLE, ids=_id)
def test_the_proof_catches_the_mutant(mutant, verify):
    result = verify(os.path.join(_base(mutant), "original.py"),
                    os.path.join(MUTANT_DIR, mutant["pair"], f"{mutant['name']}.py"),
                    cluster=mutant.get("cluster", "local"), timeout=300)
    failed = result.comparison.failed_side
    MUTANTS[_id(mutant)] = ("FAILED" if failed else result.verdict, result.reason)
    assert not failed, (f"the {failed} program failed: a mutant must run", result.migrated.stderr_tail)
    assert result.verdict in ("DIVERGED", "INCOMPARABLE"), f"{mutant['construct']} escaped: {result.reason}"
