"""The shortcuts that make a run fast must give the same answer as the long way round.

- the pre-pass: a trigger word that appears only in a string or a comment proves a file clean
  without LibCST; a file that compiles to an error `ast.parse` accepts is judged by `ast.parse`;
- the cache: a file that `--check` found pending is remembered, reused by the next `--check`
  (same output, same exit code, the paths as given this time), never by `rewrite` or `--diff`;
- a tree the cache settles is answered without importing LibCST or the rule modules.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tf2migrate.engine.process import Status, precheck
from tf2migrate.rules.wake_words import trigger_pattern, triggers

ROOT = Path(__file__).resolve().parent.parent

PENDING = '''\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
out = strategy.experimental_run_v2(lambda: 1)
'''

MENTIONS_ONLY = '''\
"""Call strategy.experimental_run_v2 and tf.compat.v1.fixed_size_partitioner, said the TF1 docs."""
# strategy.experimental_run_v2(fn) is what this module used to do
NOTE = "experimental_run_v2 -> run; fixed_size_partitioner -> FixedShardsPartitioner"
'''


def _pre(text: str):
    return precheck("m.py", text.encode(), triggers())[1]


def test_trigger_words_only_in_strings_and_comments_need_no_libcst():
    assert trigger_pattern().search(MENTIONS_ONLY)  # the text scan alone would have to parse it
    done = _pre(MENTIONS_ONLY)
    assert done is not None and done.status is Status.UNCHANGED and not done.diagnostics


@pytest.mark.parametrize("code", [
    "out = strategy.experimental_run_v2(fn)\n",  # a method
    "from tensorflow.compat.v1 import fixed_size_partitioner as fsp\np = fsp(3)\n",  # an imported name
    "import tensorflow.compat.v1 as tf\np = tf.fixed_size_partitioner(3)\n",
    "def f(strategy):\n    return f'{strategy.experimental_run_v2(g)}'\n",  # inside an f-string
    "if False:\n    out = strategy.experimental_run_v2(fn)\n",  # a dead branch: the compiler keeps its names
    "from __future__ import annotations\ndef f(s: S.experimental_run_v2):\n    pass\n",  # a string annotation
    "import tensorflow as tf\ndef f():\n    s: tf.contrib.distribute.MirroredStrategy = None\n",  # a local's annotation
    "strategy.experimental_run_v2(fn, **{'a': 1})\nreturn 1\n",  # compile refuses, ast accepts
])
def test_trigger_words_in_code_go_to_libcst(code):
    assert _pre(code) is None


@pytest.mark.parametrize("code", [
    "from tensorflow_estimator.python.estimator import estimator as estimator_lib\n"
    "e = estimator_lib.Estimator(model_fn)\n",  # not TensorFlow's own name
    "class Estimator:\n    pass\n\n\nEstimator()\n",  # a local class of the same name
    "import mylib\nmylib.fixed_size_partitioner(3)\n",
])
def test_symbol_words_that_are_not_tensorflow_need_no_libcst(code):
    from tf2migrate.engine.api import rewrite_text

    done = _pre(code)
    assert done is not None and done.status is Status.UNCHANGED
    assert rewrite_text(code).code == code and not rewrite_text(code).diagnostics  # the long way agrees


def test_compile_errors_that_ast_accepts_are_still_clean():
    # `compile` rejects these, `ast.parse` (and LibCST) accept them: the file is judged as before
    for code in ("return 1\n", "def f(a, a):\n    pass\n", "nonlocal x\n"):
        done = _pre(code)
        assert done is not None and done.status is Status.UNCHANGED, code


def test_syntax_errors_report_as_before():
    done = _pre("print 'hello'\n")
    assert done.status is Status.FAILED
    (diag,) = done.diagnostics
    assert diag.code == "TFM901" and "(Python 2 code?)" in diag.message and diag.line == 1


def _cli(*args, cwd, cache):
    env = dict(os.environ, TF2MIGRATE_CACHE_DIR=str(cache))
    proc = subprocess.run([sys.executable, "-m", "tf2migrate", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


def test_cached_check_answers_like_a_fresh_one(tmp_path):
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pyproject.toml").write_text("")
    (project / "pkg" / "train.py").write_text(PENDING)
    (project / "pkg" / "clean.py").write_text("x = 1\n")
    cache = tmp_path / "cache"

    fresh = _cli("check", "--no-cache", "pkg", cwd=project, cache=cache)
    assert fresh[0] == 1 and "would rewrite pkg/train.py" in fresh[2] and "pkg/train.py:4:" in fresh[2]
    assert _cli("check", "pkg", cwd=project, cache=cache) == fresh  # fills the cache
    assert any(cache.iterdir())
    assert _cli("check", "pkg", cwd=project, cache=cache) == fresh  # answered from it

    # the same files spelled differently: the cached diagnostics carry the new spelling
    inside = _cli("check", ".", cwd=project / "pkg", cache=cache)
    assert inside == _cli("check", "--no-cache", ".", cwd=project / "pkg", cache=cache)
    assert "./train.py:4:" in inside[2] and "pkg/" not in inside[2]

    # --diff and rewrite never take the cached answer: they need the rewritten text
    code, out, _ = _cli("rewrite", "--diff", "pkg", cwd=project, cache=cache)
    assert code == 1 and "+out = strategy.run(lambda: 1)" in out
    assert _cli("rewrite", "pkg", cwd=project, cache=cache)[0] == 0
    assert "strategy.run(lambda: 1)" in (project / "pkg" / "train.py").read_text()
    assert _cli("check", "pkg", cwd=project, cache=cache)[0] == 0


def test_a_tree_the_cache_settles_imports_no_libcst(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train.py").write_text(PENDING)
    (tmp_path / "clean.py").write_text(MENTIONS_ONLY)
    cache = tmp_path / "cache"
    probe = (
        "import sys\n"
        "from tf2migrate.cli.app import main\n"
        "try:\n"
        "    main(['check', '-q', '.'])\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] == 'libcst' or m == 'tf2migrate.rules.registry')\n"
        "print(code, heavy[:5])\n"
    )
    env = dict(os.environ, TF2MIGRATE_CACHE_DIR=str(cache))

    def run():
        proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    assert run() != "1 []"  # the first run parses train.py: LibCST and the rules are loaded
    assert run() == "1 []"  # the second is answered from the cache alone


def test_a_clean_file_on_a_first_run_imports_no_libcst(tmp_path):
    """The pre-pass's words come from `wake_words`, not from the rule modules, so a pre-commit run on a clean
    file with no cache folder yet never pays for importing LibCST."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "clean.py").write_text(MENTIONS_ONLY)
    probe = (
        "import sys\n"
        "from tf2migrate.cli.app import main\n"
        "try:\n"
        "    main(['check', '-q', '--no-cache', 'clean.py'])\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'libcst')[:3])\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, TF2MIGRATE_CACHE_DIR=str(tmp_path / "cache")))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "0 []"


def test_every_code_rule_wakes_on_its_declared_words():
    from tf2migrate.rules.manifest import RULES
    from tf2migrate.rules.wake_words import WAKE

    assert [rule.name for rule in RULES] == list(WAKE)   # one entry per rule, none left over
    pattern = trigger_pattern()
    for rule in RULES:
        attrs, symbols = WAKE[rule.name]
        for word in attrs | {name.rsplit(".", 1)[-1] for name in symbols}:  # a dotted name wakes on its last word
            assert pattern.fullmatch(word), (rule.name, word)


def test_a_common_attribute_word_wakes_only_in_its_rules_shape():
    """`.value` is everywhere (`var.value`, `value=`): only `x.shape[i].value` (TFM667) may send a file to
    LibCST, or every TF file of a tree would be parsed twice."""
    plain = "import tensorflow as tf\n\nv = tf.Variable(1.0)\nprint(v.value, dict(value=2), cfg.shape['value'])\n"
    assert _pre(plain) is not None and _pre(plain).status is Status.UNCHANGED
    shaped = "import tensorflow.compat.v1 as tf\n\nn = x.shape[-1].value\n"
    assert _pre(shaped) is None


def test_the_package_pre_pass_parses_nothing_where_no_module_builds_an_estimator(tmp_path, monkeypatch):
    from tf2migrate.engine import package

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    files = {str(tmp_path / "pkg" / f"m{i}.py"): f"from tensorflow_estimator import estimator  # m{i}\n"
             for i in range(3)}
    parsed = []
    monkeypatch.setattr(package, "_read", lambda *a: parsed.append(a) or None)
    assert package.scan(files) == {} and parsed == []
    files[str(tmp_path / "pkg" / "model.py")] = ("import tensorflow as tf\n\n\ndef build_estimator(config):\n"
                                                 "    return tf.estimator.Estimator(model_fn, config=config)\n")
    package.scan(files)
    assert [a[0] for a in parsed] == ["pkg.model"]   # the builder only: no module names it


def test_a_warm_run_over_a_package_parses_no_module(tmp_path, monkeypatch):
    """The package views go into the cache key as the texts of the package's Estimator files, so a run the
    cache settles never scans (parses) the package; an edit of a neighbour still misses the cache."""
    from tf2migrate.engine import package
    from tests.test_cli import invoke

    pkg = tmp_path / "trainer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text("import tensorflow as tf\n\n\ndef build_estimator(config):\n"
                                  "    return tf.estimator.Estimator(model_fn, config=config)\n")
    (pkg / "task.py").write_text("import tensorflow as tf\nfrom trainer import model\n\n"
                                 "estimator = model.build_estimator(None)  # Estimator\n")
    monkeypatch.setenv("TF2MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    scans = []
    real = package.scan
    monkeypatch.setattr(package, "scan", lambda files: scans.append(1) or real(files))
    invoke("check", str(pkg))
    assert scans == [1]
    invoke("check", str(pkg))
    assert scans == [1]   # warm: answered from the cache
    (pkg / "model.py").write_text((pkg / "model.py").read_text() + "# edited\n")
    invoke("check", str(pkg))
    assert scans == [1, 1]
