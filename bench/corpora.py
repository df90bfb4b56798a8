"""The real trees the benchmarks run on: wheels from the package registry, fetched once into bench/corpus/.

Two corpora, measured side by side because they answer different questions:
  - `t2t`: the `tensor2tensor==1.14.0` wheel (512 files, about 150,000 lines of TF1 code, most of which needs
    the upgrade): what a team pays when it upgrades a real TF1 tree; the headline;
  - `estimator`: the `tensorflow-estimator==2.15.0` wheel (116 files, TF2-era library code, 7 of them
    rewritten): the Estimator and distribution constructs, and the source of the one-file measurements.
Only the wheel's `.py` files are extracted; `bench/corpus/` is git-ignored.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"


@dataclass(frozen=True)
class Corpus:
    name: str  # the --corpus choice
    package: str  # the registry's name
    version: str

    @property
    def wheel_prefix(self) -> str:
        return f"{self.package.replace('-', '_')}-{self.version}"

    def tree(self, folder: Path = CORPUS) -> Path:
        """bench/corpus/<package>-<version>/: only the wheel's .py files, fetched once."""
        tree = folder / self.wheel_prefix
        if (tree / ".complete").is_file():
            return tree
        folder.mkdir(parents=True, exist_ok=True)
        wheels = sorted(folder.glob(f"{self.wheel_prefix}-*.whl"))
        if not wheels:
            print(f"downloading {self.package}=={self.version} (no dependencies) into {folder} ...", flush=True)
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
                            "-q", "-d", str(folder), f"{self.package}=={self.version}"], check=True)
            wheels = sorted(folder.glob(f"{self.wheel_prefix}-*.whl"))
        if not wheels:
            sys.exit(f"pip download did not leave a {self.package} {self.version} wheel in {folder}")
        if tree.exists():
            shutil.rmtree(tree)
        with zipfile.ZipFile(wheels[0]) as zf:
            for name in zf.namelist():
                if name.endswith(".py"):
                    zf.extract(name, tree)
        (tree / ".complete").write_text(wheels[0].name + "\n")
        # The corpus is its own project: without this file tf2migrate would find the repository's
        # pyproject.toml, whose [tool.tf2migrate] excludes bench/corpus.
        (folder / "pyproject.toml").write_text("# the benchmark corpus: default tf2migrate settings\n")
        return tree


CORPORA = {c.name: c for c in (Corpus("t2t", "tensor2tensor", "1.14.0"),
                                Corpus("estimator", "tensorflow-estimator", "2.15.0"))}
ESTIMATOR = CORPORA["estimator"]
