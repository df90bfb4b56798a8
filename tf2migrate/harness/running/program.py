"""How one side's program is started: a script or a module of a package, its arguments and environment.

Real trainers are run as `python -m trainer.task --train-steps 40` from a package root. The harness reads
the program's source (never imports it) to learn what it builds; for a module that is every `.py` file
under the package root, since the Estimator, the strategy or the servers may live in any of them.
"""
import os
import re
from dataclasses import dataclass, field

from tf2migrate.harness.running import topology as topo_lib

_MODULE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_ENV_KEY = re.compile(r"^[A-Za-z_]\w*$")
HARNESS_ENV = ("TF_CONFIG",)   # set per task by the harness (plan.py): a user value would break the cluster


@dataclass(frozen=True)
class Program:
    path: str                  # the script, or the package root in module mode
    module: str = None         # `trainer.task`: run with runpy.run_module from `path`
    args: tuple = ()           # its sys.argv[1:]
    env: dict = field(default_factory=dict)   # on top of the harness's environment, for every task
    home_dir: str = None       # set when a script's copy must import the siblings of the original

    @property
    def home(self):
        """The folder first on the child's sys.path: the package root, or the script's folder."""
        if self.home_dir:
            return self.home_dir
        path = os.path.abspath(self.path)
        return path if self.module else os.path.dirname(path)

    def files(self):
        """The source files the harness reads for its facts."""
        return package_files(self.path) if self.module else [os.path.abspath(self.path)]

    def describe(self):
        what = f"-m {self.module} (in {self.path})" if self.module else self.path
        return " ".join([what, *self.args])


def package_files(root):
    """Every `.py` file under `root` that `tf2migrate rewrite ROOT` would look at (no .git, venvs, ...)."""
    from tf2migrate.engine.files import gather

    return [os.path.abspath(c.path) for c in gather([root]) if not c.symlink]


def facts_of(sources):
    """`topology.SourceFacts` of several files, united. In module mode a file that does not parse (a
    Python 2 leftover next to the package) is skipped; the program itself fails visibly if it imports it."""
    facts = []
    for path, text in sources:
        try:
            facts.append(topo_lib.source_facts(text))
        except SyntaxError:
            if len(sources) == 1:
                raise
    if not facts:
        return topo_lib.source_facts("")
    return topo_lib.SourceFacts(strategies=set().union(*(f.strategies for f in facts)),
                                starts_servers=any(f.starts_servers for f in facts),
                                uses_estimator=any(f.uses_estimator for f in facts),
                                tf1_adam=any(f.tf1_adam for f in facts))


def check_module(root, module, what):
    """A usage error (ValueError) unless `module` can be found under the package root `root`."""
    if not _MODULE.match(module or ""):
        raise ValueError(f"-m {module!r}: not a dotted module name (e.g. trainer.task)")
    if not os.path.isdir(root):
        raise ValueError(f"-m {module}: {what} must be the package root directory, not the file {root}")
    base = os.path.join(root, *module.split("."))
    if not (os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__main__.py"))):
        raise ValueError(f"-m {module}: {what} {root} has no {module.replace('.', '/')}.py "
                         f"(nor {module.replace('.', '/')}/__main__.py)")


def parse_env(items, option="--env"):
    """`KEY=VALUE` strings (or a mapping) -> dict; a usage error (ValueError) for anything else."""
    if items is None:
        return {}
    pairs = items.items() if hasattr(items, "items") else [_split(item, option) for item in items]
    env = {}
    for key, value in pairs:
        if not _ENV_KEY.match(str(key)):
            raise ValueError(f"{option} {key}={value}: not an environment variable name")
        if key in HARNESS_ENV:
            raise ValueError(f"{option} {key}: the harness sets {key} itself for every task of the cluster")
        env[str(key)] = str(value)
    return env


def _split(item, option):
    key, sep, value = str(item).partition("=")
    if not sep:
        raise ValueError(f"{option} {item}: expected KEY=VALUE")
    return key, value
