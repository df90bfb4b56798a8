"""TF2 code stays TF2: `rewrite` over TensorFlow 2.15's and Keras 2.15's own sources makes no meaning-changing edit.

The installed packages are real TF2 code written by TF's authors. The files are the ones that can matter: those
that spell a call a meaning-changing upgrade knows (`tf.nn.dropout`, `softmax_cross_entropy_with_logits`,
`strings.split`), bounded to keep the test near half a minute.

Keras imports `tensorflow.compat.v2 as tf`, which alone proves TF2. TF2 users write `import tensorflow as tf`,
so a second copy says that instead (the same program in TF2): there only the per-file decision stands between
the calls and an upgrade. Told `--source tf1`, that copy must get the upgrades: the tree does hold such calls,
so the main assertion can fail.
"""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tf2migrate.cli.app import main
from tf2migrate.rules.upgrade import MEANING_CHANGING

_SPEC = importlib.util.find_spec("keras")  # where Keras is installed; importing it would import TensorFlow
SITE = Path(_SPEC.origin).resolve().parent.parent if _SPEC and _SPEC.origin else None
TREES = ("keras/src", "tensorflow/python/keras", "tensorflow/python/ops")
CALLS = re.compile(r"\b(?:nn\.dropout|softmax_cross_entropy_with_logits|strings\.split)\(")
MAX_FILES = 40


def _copy_subset(dest: Path, plain: bool = False) -> int:
    picked = []
    for tree in TREES:
        for path in sorted((SITE / tree).rglob("*.py")):
            text = path.read_text(encoding="utf-8", errors="replace")
            if "import tensorflow" in text and CALLS.search(text):
                picked.append(path)
    for path in picked[:MAX_FILES]:
        target = dest / path.relative_to(SITE)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = path.read_text(encoding="utf-8")
        if plain:
            text = text.replace("import tensorflow.compat.v2 as tf\n", "import tensorflow as tf\n")
        target.write_text(text, encoding="utf-8")
    (dest / "pyproject.toml").write_text("")
    return len(picked[:MAX_FILES])


def _fixes(tree: Path, *options) -> dict:
    report = tree / "report.json"
    result = CliRunner().invoke(main, ["rewrite", "--diff", "--no-cache", "-q", "--report", str(report),
                                       *options, str(tree)])
    assert result.exit_code in (0, 1), result.output
    fixes: dict = {}
    for entry in json.loads(report.read_text())["files"]:
        for diag in entry["diagnostics"]:
            if diag["code"] in MEANING_CHANGING and diag["fixed"]:
                fixes.setdefault(diag["code"], []).append(f"{entry['path']}:{diag['line']}")
    return fixes


@pytest.mark.slow
@pytest.mark.skipif(SITE is None or not (SITE / "tensorflow").is_dir(), reason="needs tensorflow and keras installed")
def test_tf2_sources_get_no_meaning_changing_edit(tmp_path):
    as_installed, plain = tmp_path / "installed", tmp_path / "plain"
    assert _copy_subset(as_installed) >= 5
    assert _copy_subset(plain, plain=True) >= 5
    assert _fixes(as_installed) == {}
    assert _fixes(plain) == {}
    forced = _fixes(plain, "--source", "tf1")  # the control: told it is TF1, the same calls are upgraded
    assert forced, "the subset holds no call a meaning-changing upgrade knows"
