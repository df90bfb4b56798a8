"""What one verify found, in three parts: how the pair was run (`RunFacts`, set by `api.verify` before the
programs start), what each side observed (`observations.PairObserved`, running/pair_runs.py) and what the
comparisons concluded (`Comparison`, report/judge.py); and the exit code each verdict gives."""
from dataclasses import dataclass, field

from tf2migrate.harness.compare.compare import Verdict
from tf2migrate.harness.compare.observations import PairObserved

EXIT_EQUIVALENT, EXIT_DIVERGED, EXIT_USAGE, EXIT_PROGRAM_FAILED = 0, 1, 2, 3


@dataclass
class RunFacts:
    """How the pair was run: what was asked for, and how the run was kept apart."""
    original_path: str
    migrated_path: str
    cluster: str
    mode: str                     # exact | statistical
    rtol: float = None            # as given (None: the tolerance's default; Comparison has the ones used)
    atol: float = None
    tolerance: str = "auto"       # auto | strict | cross-version (tolerance.py)
    rewrite_diagnostics: list = field(default_factory=list)
    accepted_fixes: list = field(default_factory=list)   # codes applied to the original to make the reference
    reference_path: str = ""
    network: str = ""             # how the run was kept off the network, or --allow-network (netns.py)
    module: str = None            # `-m MODULE`: both sides are package roots running this module
    original_args: list = field(default_factory=list)   # each side's sys.argv[1:]
    migrated_args: list = field(default_factory=list)
    cwd: str = None               # the programs' working directory (None: verify's own)
    env_keys: dict = field(default_factory=dict)   # side -> names of the variables set with --env (not values)


@dataclass
class Comparison:
    """What the comparisons concluded (report/judge.py)."""
    verdict: Verdict = None       # None until judged
    reason: str = ""
    rtol: float = None            # the tolerances used, and why (cross-version runs are wider)
    atol: float = None
    tolerance: str = ""
    first_diverged_step: int = None
    max_abs_diff: float = 0.0
    max_rel_diff: float = 0.0
    alignment: str = ""
    failed_side: str = ""         # the side whose program could not run (exit 3)
    details: dict = field(default_factory=dict)
    compared: list = field(default_factory=list)   # what the verdict rests on, one line per kind of check


@dataclass
class VerifyResult:
    facts: RunFacts
    sides: PairObserved = field(default_factory=PairObserved)
    comparison: Comparison = field(default_factory=Comparison)

    @property
    def verdict(self):
        return self.comparison.verdict

    @property
    def reason(self):
        return self.comparison.reason

    @property
    def original(self):
        """The original's run (runner.SideResult; repeat 0 in statistical mode)."""
        return self.sides.original

    @property
    def migrated(self):
        return self.sides.migrated

    @property
    def equivalent(self):
        return self.verdict == Verdict.EQUIVALENT

    @property
    def exit_code(self):
        if self.comparison.failed_side:
            return EXIT_PROGRAM_FAILED
        return EXIT_EQUIVALENT if self.equivalent else EXIT_DIVERGED

    @property
    def ports(self):
        return self.sides.ports
