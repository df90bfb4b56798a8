"""The real wheel: build it, install it in a fresh virtualenv, and run its `tf2migrate` there.

The rule tables live in the top-level `rules/` folder and reach the wheel as `tf2migrate/_tables`
(hatchling's force-include); a wheel without them would install fine and then know no rules. So the
installed command must list every code the source tree knows and rewrite a TF1 file with them, in a
virtualenv that has neither this checkout nor TensorFlow on its path.
"""
from __future__ import annotations

import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from tests.conftest import TF1_SAMPLE as TF1_SOURCE

ROOT = Path(__file__).resolve().parent.parent
BIN = "Scripts" if os.name == "nt" else "bin"



def _in_tree_litter() -> set:
    """Build products that must never appear in the checkout."""
    return {p.name for p in ROOT.iterdir() if p.name in ("build", "dist") or p.name.endswith(".egg-info")}


def _run(args, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(args, capture_output=True, text=True, timeout=900, **kw)
    proc.log = f"$ {' '.join(map(str, args))}\nexit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    return proc


@pytest.fixture(scope="module")
def env():
    out = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"):
        out.pop(name, None)
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory, env) -> Path:
    before = _in_tree_litter()
    outdir = tmp_path_factory.mktemp("wheelhouse")
    proc = _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(outdir), str(ROOT)],
                cwd=outdir, env=env)
    assert proc.returncode == 0, proc.log
    assert _in_tree_litter() == before, "building the wheel left build products in the checkout"
    wheels = list(outdir.glob("tf2migrate-*.whl"))
    assert len(wheels) == 1, proc.log
    return wheels[0]


@pytest.fixture(scope="module")
def installed(tmp_path_factory, wheel, env) -> dict:
    """A fresh virtualenv with the wheel (and its dependencies, from the registry) installed."""
    home = tmp_path_factory.mktemp("fresh-venv")
    prefix = home / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(prefix)
    py = prefix / BIN / "python"
    proc = _run([str(py), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", str(wheel)],
                cwd=home, env=env)
    assert proc.returncode == 0, proc.log
    run_env = dict(env, TF2MIGRATE_CACHE_DIR=str(home / "cache"))
    return {"python": py, "tf2migrate": prefix / BIN / "tf2migrate", "home": home, "env": run_env,
            "prefix": prefix}


def _tf2migrate(installed, *args, cwd=None) -> subprocess.CompletedProcess:
    return _run([str(installed["tf2migrate"]), *args], cwd=cwd or installed["home"], env=installed["env"])


def test_wheel_ships_the_rule_tables(wheel):
    rules = ROOT / "rules"  # hand-written tables, and generated/ and differences/ beneath them
    sources = {p.relative_to(rules).as_posix(): p.read_bytes() for p in rules.rglob("*.toml")}
    assert sources, "no rule tables in rules/"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        shipped = {n[len("tf2migrate/_tables/"):]: zf.read(n) for n in names
                   if n.startswith("tf2migrate/_tables/") and n.endswith(".toml")}
        entry_points = next(zf.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert shipped == sources, "tf2migrate/_tables/**.toml in the wheel differ from rules/**.toml"
    assert "tf2migrate = tf2migrate.cli.app:main" in entry_points
    assert "tf2migrate/cli/app.py" in names and "tf2migrate/engine/runner.py" in names
    assert not [n for n in names if n.startswith(("tests/", "fixtures/", "bench/", "rules/"))]
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_installed_package_is_the_wheel_not_the_checkout(installed):
    proc = _run([str(installed["python"]), "-c",
                 "import tf2migrate.rules.tables as t, importlib.util as u; print(t.__file__); print(t.tables_dir());"
                 "print(u.find_spec('tensorflow') is not None)"],
                cwd=installed["home"], env=installed["env"])
    assert proc.returncode == 0, proc.log
    module, tables, has_tf = proc.stdout.split("\n")[:3]
    prefix = str(installed["prefix"].resolve())
    assert module.startswith(prefix), proc.log
    assert tables.startswith(prefix) and tables.endswith(os.path.join("tf2migrate", "_tables")), proc.log
    assert has_tf == "False", "TensorFlow got into the fresh venv: rewrite must not need it"


def test_installed_rules_lists_every_code(installed):
    from tf2migrate.rules.registry import all_infos

    known = sorted(all_infos())
    assert known, "the source tree knows no codes"
    proc = _tf2migrate(installed, "rules")
    assert proc.returncode == 0, proc.log
    listed = [line.split()[0] for line in proc.stdout.splitlines() if line.strip()]
    assert sorted(listed) == known, proc.log


def test_installed_rewrite_diff_uses_the_packaged_tables(installed):
    work = installed["home"] / "project"
    work.mkdir()
    target = work / "train.py"
    target.write_text(TF1_SOURCE)
    proc = _tf2migrate(installed, "rewrite", "--diff", "train.py", cwd=work)
    assert proc.returncode == 1, proc.log  # changes pending
    assert "-out = strategy.experimental_run_v2(step, args=(1.0,))" in proc.stdout, proc.log
    assert "+out = strategy.run(step, args=(1.0,))" in proc.stdout, proc.log
    assert "+partitioner = tf.distribute.experimental.partitioners.FixedShardsPartitioner(" in proc.stdout, proc.log
    assert "TFM101" in proc.stderr and "TFM201" in proc.stderr, proc.log
    assert target.read_text() == TF1_SOURCE  # --diff writes nothing


def test_installed_explain(installed):
    proc = _tf2migrate(installed, "explain", "TFM101")
    assert proc.returncode == 0, proc.log
    assert proc.stdout.startswith("TFM101 "), proc.log
    assert "experimental_run_v2" in proc.stdout and "Before:" in proc.stdout and "After:" in proc.stdout, proc.log
    bad = _tf2migrate(installed, "explain", "TFM000")
    assert bad.returncode == 2, bad.log
