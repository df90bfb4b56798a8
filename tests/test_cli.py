"""The command line as a user meets it: modes, exit codes, selection, config, report, cache."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from tf2migrate.cli.app import main
from tf2migrate.rules.registry import all_infos
from tests.conftest import ROOT

TF1 = (
    "import tensorflow.compat.v1 as tf1\n"
    "import tensorflow as tf\n"
    "p = tf1.fixed_size_partitioner(3)\n"
    "loss = strategy.experimental_run_v2(step)\n"
)


def invoke(*args, cwd=None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, list(args))
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(main, list(args))
    finally:
        os.chdir(old)


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_text(TF1)
    (tmp_path / "pkg" / "clean.py").write_text("x = 1\n")
    return tmp_path


def test_check_lists_and_writes_nothing(tree):
    result = invoke("rewrite", "--check", str(tree))
    assert result.exit_code == 1
    assert f"would rewrite {tree / 'pkg' / 'train.py'}" in result.output
    assert "1 file would be rewritten, 1 file unchanged" in result.output
    assert (tree / "pkg" / "train.py").read_text() == TF1


def test_check_command_is_rewrite_check(tree):
    assert invoke("check", str(tree)).exit_code == 1
    assert (tree / "pkg" / "train.py").read_text() == TF1


def test_diff_prints_unified_diff_and_writes_nothing(tree):
    result = invoke("rewrite", "--diff", str(tree))
    assert result.exit_code == 1
    assert "-loss = strategy.experimental_run_v2(step)" in result.output
    assert "+loss = strategy.run(step)" in result.output
    assert (tree / "pkg" / "train.py").read_text() == TF1


def test_rewrite_then_nothing_left(tree):
    first = invoke("rewrite", str(tree))
    assert first.exit_code == 0, first.output
    assert "1 file rewritten" in first.output
    text = (tree / "pkg" / "train.py").read_text()
    assert "FixedShardsPartitioner(3)" in text and "strategy.run(step)" in text
    second = invoke("rewrite", "--check", str(tree))
    assert second.exit_code == 0
    assert "0 files would be rewritten" in second.output


def test_select_family_prefix(tree):
    invoke("rewrite", "--select", "TFM2", str(tree))
    text = (tree / "pkg" / "train.py").read_text()
    assert "FixedShardsPartitioner" in text and "experimental_run_v2" in text


def test_ignore_code(tree):
    invoke("rewrite", "--ignore", "TFM201,TFM999", str(tree))
    text = (tree / "pkg" / "train.py").read_text()
    assert "fixed_size_partitioner" in text and "strategy.run(step)" in text


def test_exclude_glob(tree):
    result = invoke("rewrite", "--exclude", "pkg", str(tree))
    assert result.exit_code == 0
    assert (tree / "pkg" / "train.py").read_text() == TF1


def test_default_excludes_virtualenvs(tree):
    venv = tree / ".venv" / "lib"
    venv.mkdir(parents=True)
    (venv / "dep.py").write_text(TF1)
    invoke("rewrite", str(tree))
    assert (venv / "dep.py").read_text() == TF1


def test_pyproject_config_and_flag_override(tree):
    (tree / "pyproject.toml").write_text('[tool.tf2migrate]\nselect = ["TFM1"]\n')
    invoke("rewrite", str(tree / "pkg"))
    assert "fixed_size_partitioner" in (tree / "pkg" / "train.py").read_text()
    invoke("rewrite", "--select", "TFM2", str(tree / "pkg"))
    assert "FixedShardsPartitioner" in (tree / "pkg" / "train.py").read_text()


def test_pyproject_unknown_key_is_usage_error(tree):
    (tree / "pyproject.toml").write_text('[tool.tf2migrate]\nselekt = ["TFM1"]\n')
    result = invoke("rewrite", str(tree / "pkg"))
    assert result.exit_code == 2
    assert "selekt" in result.output


@pytest.mark.parametrize("setting, says", [
    ('[tool.tf2migrate]\njobs = "abc"\n', "jobs = 'abc': expected a whole number"),
    ('[tool.tf2migrate]\njobs = 0\n', "jobs = 0: expected a whole number"),
    ('[tool.tf2migrate]\nselect = 5\n', "select = 5: expected a list of strings"),
    ('[tool.tf2migrate]\nignore = [1]\n', "ignore = [1]: expected a list of strings"),
    ('[tool.tf2migrate]\nextend-exclude = 3\n', "extend-exclude = 3: expected a list of strings"),
    ('[tool.tf2migrate]\ncache = "no"\n', "cache = 'no': expected true or false"),
    ('[tool.tf2migrate]\nstrategy = "mirorred"\n', "strategy = 'mirorred': expected one of auto"),
    ("[tool]\ntf2migrate = 5\n", "[tool] tf2migrate must be a table"),
])
def test_a_config_value_of_the_wrong_type_is_one_line_naming_the_key(tree, setting, says):
    (tree / "pyproject.toml").write_text(setting)
    result = invoke("rewrite", str(tree / "pkg"))
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    assert (tree / "pkg" / "train.py").read_text() == TF1


def test_a_string_exclude_is_one_pattern(tree):
    (tree / "pyproject.toml").write_text('[tool.tf2migrate]\nexclude = "train.py"\n')
    assert invoke("rewrite", str(tree)).exit_code == 0
    assert (tree / "pkg" / "train.py").read_text() == TF1


def test_a_symlink_loop_named_on_the_command_line_is_one_line(tmp_path):
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop.py")
    result = invoke("rewrite", "--no-cache", str(tmp_path / "loop.py"))
    assert result.exit_code == 123, result.output
    assert f"{tmp_path / 'loop.py'}:1:1: TFM904" in result.output


def test_force_exclude_applies_config_excludes_to_named_files(tree):
    (tree / "pyproject.toml").write_text('[tool.tf2migrate]\nexclude = ["pkg"]\n')
    named = tree / "pkg" / "train.py"
    invoke("rewrite", "--force-exclude", "pkg/train.py", cwd=tree)
    assert named.read_text() == TF1
    invoke("rewrite", "pkg/train.py", cwd=tree)
    assert "strategy.run" in named.read_text()


def test_json_report(tree):
    report = tree / "report.json"
    invoke("rewrite", "--check", "--report", str(report), str(tree))
    data = json.loads(report.read_text())
    files = {os.path.basename(f["path"]): f for f in data["files"]}
    assert files["train.py"]["status"] == "changed"
    assert {d["code"] for d in files["train.py"]["diagnostics"]} == {"TFM101", "TFM201"}
    assert files["clean.py"]["status"] == "unchanged"


def test_a_report_path_that_cannot_be_written_is_refused_before_the_work(tree):
    result = invoke("rewrite", "--report", str(tree / "nodir" / "r.json"), str(tree))
    assert result.exit_code == 2, result.output
    assert "no such folder" in result.output and "Traceback" not in result.output
    assert (tree / "pkg" / "train.py").read_text() == TF1  # nothing rewritten
    result = invoke("rewrite", "--report", str(tree / "pkg"), str(tree))
    assert result.exit_code == 2 and "is a directory" in result.output


def test_a_report_that_fails_while_written_leaves_no_file(tree, monkeypatch):
    """A full disk: the report is written whole or not at all, and the run still ends with its summary."""
    import json as json_module

    def full(*args, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(json_module, "dump", full)
    result = invoke("rewrite", "--report", str(tree / "r.json"), str(tree))
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.output and "1 file rewritten" in result.output
    assert sorted(p.name for p in tree.iterdir()) == ["pkg"]


def test_remaining_error_diagnostic_exits_1(tmp_path):
    path = tmp_path / "axis.py"
    path.write_text("import tensorflow as tf\np = tf.fixed_size_partitioner(3, axis=1)\n")
    result = invoke("rewrite", str(path))
    assert result.exit_code == 1
    assert "TFM204" in result.output
    assert "1 file needing attention" in result.output


def test_missing_path_is_usage_error(tmp_path):
    assert invoke("rewrite", str(tmp_path / "nope.py")).exit_code == 2


def test_rules_lists_every_code():
    result = invoke("rules")
    assert result.exit_code == 0
    listed = {line.split()[0] for line in result.output.splitlines()}
    assert listed == set(all_infos())


@pytest.mark.parametrize("code", sorted(all_infos()))
def test_explain_every_code(code):
    result = invoke("explain", code.lower())
    assert result.exit_code == 0
    assert result.output.startswith(code)
    info = all_infos()[code]
    if info.after:
        assert "Before:" in result.output and "After:" in result.output


def test_explain_unknown_code():
    assert invoke("explain", "TFM000").exit_code == 2


def test_cache_is_keyed_on_content(tree):
    path = tree / "pkg" / "clean.py"
    assert invoke("check", str(tree / "pkg")).exit_code == 1
    invoke("rewrite", str(tree / "pkg"))
    assert invoke("check", str(tree / "pkg")).exit_code == 0  # now served from the cache
    path.write_text("loss = strategy.experimental_run_v2(step)\n")  # same size class, new content
    assert invoke("check", str(tree / "pkg")).exit_code == 1


def test_cached_report_only_diagnostics_are_shown_again(tmp_path):
    path = tmp_path / "axis.py"
    path.write_text("import tensorflow as tf\np = tf.fixed_size_partitioner(3, axis=1)\n")
    first = invoke("check", str(path))
    second = invoke("check", str(path))
    assert "TFM204" in first.output and "TFM204" in second.output
    assert first.exit_code == second.exit_code == 1


CONTRIB = "import tensorflow as tf\ns = tf.contrib.distribute.MirroredStrategy()\n"


def _check_in_a_new_process(path, cache, *flags) -> str:
    """`check` in a process of its own: the rule tables are read from the cache folder once per process."""
    env = {**os.environ, "TF2MIGRATE_CACHE_DIR": str(cache)}
    run = subprocess.run([sys.executable, "-m", "tf2migrate", "check", *flags, str(path)], capture_output=True,
                         text=True, env=env, cwd=ROOT)
    assert "Traceback" not in run.stderr, run.stderr
    return run.stderr


def test_an_emptied_rule_table_entry_of_the_cache_changes_no_answer(tmp_path):
    """A rule-table cache file holding a valid but empty marshal left tf.contrib.distribute.MirroredStrategy
    unconverted (TFM605 instead of TFM105), also with --no-cache."""
    import marshal

    path, cache = tmp_path / "ms.py", tmp_path / "cache"
    path.write_text(CONTRIB)
    assert " TFM105 " in _check_in_a_new_process(path, cache)
    kept = list(cache.glob("table-*.marshal"))
    assert kept
    for entry in kept:
        entry.write_bytes(marshal.dumps({}))
    for flags in [(), ("--no-cache",)]:
        output = _check_in_a_new_process(path, cache, *flags)
        assert " TFM105 " in output and " TFM605 " not in output, output


def test_no_cache_reads_and_writes_nothing(tmp_path):
    path, cache = tmp_path / "ms.py", tmp_path / "cache"
    path.write_text(CONTRIB)
    cache.mkdir()
    assert " TFM105 " in _check_in_a_new_process(path, cache, "--no-cache")
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("saved", ["[1, 2]", '{"key": 5}', "null", "{\"%s\": 7}",
                                   "{\"%s\": [\"%d\", [5], \"changed\"]}"])
def test_a_cache_file_of_another_shape_is_ignored_and_replaced(tmp_path, monkeypatch, saved):
    monkeypatch.setenv("TF2MIGRATE_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "ms.py"
    path.write_text(CONTRIB)
    assert invoke("check", str(path)).exit_code == 1
    (kept,) = (tmp_path / "cache").glob("cache-*.json")
    from tf2migrate.engine.cache import digest

    kept.write_text(saved.replace("%s", str(path)).replace("%d", digest(CONTRIB.encode())))
    result = invoke("check", str(path))
    assert result.exit_code == 1 and " TFM105 " in result.output, result.output
    assert isinstance(json.loads(kept.read_text()), dict)
    assert invoke("check", str(path)).exit_code == 1


def test_a_cache_that_cannot_be_written_leaves_no_temporary_file(tmp_path, monkeypatch):
    """ENOSPC while the cache (or a rule table's parsed data) is written: `*.tmp` files piled up."""
    from tf2migrate.engine import cache as cache_module
    from tf2migrate.rules import table_files

    folder = tmp_path / "cache"
    monkeypatch.setenv("TF2MIGRATE_CACHE_DIR", str(folder))
    (tmp_path / "ms.py").write_text(CONTRIB)

    def full(*args, **kw):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module.json, "dump", full)
    assert invoke("check", str(tmp_path / "ms.py")).exit_code == 1
    table = tmp_path / "t.toml"
    table.write_text('[[rule]]\ncode = "X"\n')
    monkeypatch.setattr(table_files.os, "replace", full)
    assert table_files.read_table(table) == {"rule": [{"code": "X"}]}
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


def test_process_pool_gives_the_same_results(tmp_path):
    for i in range(6):
        (tmp_path / f"m{i}.py").write_text(TF1)
    serial = invoke("rewrite", "--diff", "--no-cache", "-j", "1", str(tmp_path))
    pooled = invoke("rewrite", "--diff", "--no-cache", "-j", "2", str(tmp_path))
    assert serial.output == pooled.output
    assert serial.exit_code == pooled.exit_code == 1


def test_a_first_run_on_a_tree_shares_the_pre_pass_between_workers_with_the_same_results(tmp_path, monkeypatch):
    from tf2migrate.engine import runner

    kinds = [TF1, "import tensorflow as tf\nx = tf.constant(1)\n", "x = (\n",  # changed, clean, a syntax error
             "import tensorflow as tf\nclass H(tf.train.SessionRunHook):\n    pass\n"]  # reported from ast
    for i in range(runner.EARLY_POOL + 4):
        (tmp_path / f"m{i:02d}.py").write_text(kinds[i % len(kinds)])
    started = []
    real = runner._Early.__init__
    monkeypatch.setattr(runner._Early, "__init__", lambda self, *a: started.append(1) or real(self, *a))
    serial = invoke("rewrite", "--diff", "--no-cache", "-j", "1", str(tmp_path))
    pooled = invoke("rewrite", "--diff", "--no-cache", "-j", "2", str(tmp_path))
    assert started == [1]  # the workers pre-checked the files (the serial run did not start them)
    assert serial.output == pooled.output and "TFM901" in pooled.output and "TFM351" in pooled.output
    assert serial.exit_code == pooled.exit_code == 123  # a file could not be parsed


def test_real_subprocess_never_imports_tensorflow(tree):
    probe = (
        "import sys, runpy\n"
        "sys.argv = ['tf2migrate', 'rewrite', '--no-cache', sys.argv[1]]\n"
        "try:\n"
        "    runpy.run_module('tf2migrate', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "assert 'tensorflow' not in sys.modules, 'rewrite imported tensorflow'\n"
        "print('exit', code)\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe, str(tree)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "exit 0" in proc.stdout
    assert "1 file rewritten" in proc.stderr
    assert "strategy.run(step)" in (tree / "pkg" / "train.py").read_text()


def test_a_worker_that_dies_leaves_the_files_to_this_process(tmp_path, monkeypatch):
    from concurrent.futures.process import BrokenProcessPool

    from tf2migrate.engine import runner

    for i in range(runner.EARLY_POOL + 2):
        (tmp_path / f"m{i:02d}.py").write_text(TF1)
    serial = invoke("rewrite", "--diff", "--no-cache", "-j", "1", str(tmp_path))

    def broken(self, todo, views):
        raise BrokenProcessPool("a worker was killed")

    monkeypatch.setattr(runner._Early, "results", broken)
    pooled = invoke("rewrite", "--diff", "--no-cache", "-j", "2", str(tmp_path))
    assert pooled.output == serial.output and pooled.exit_code == serial.exit_code == 1
