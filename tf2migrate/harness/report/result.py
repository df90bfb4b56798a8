"""What one verify found: the verdict, why, and each side's run; and the exit code each verdict gives."""
from dataclasses import dataclass, field

from tf2migrate.harness.compare.compare import Verdict

EXIT_EQUIVALENT, EXIT_DIVERGED, EXIT_USAGE, EXIT_PROGRAM_FAILED = 0, 1, 2, 3


@dataclass
class VerifyResult:
    """Filled by `api.verify` as the run goes; `report/judge.py` sets the verdict, `report.py` words it."""
    verdict: Verdict                 # None until judged (report/judge.py)
    reason: str
    original_path: str
    migrated_path: str
    cluster: str
    mode: str
    rtol: float
    atol: float
    original: object = None          # runner.SideResult of the original (repeat 0)
    migrated: object = None
    original_runs: list = field(default_factory=list)   # statistical mode: every original repeat
    twin: object = None           # the original again, slightly off: its own float drift (sensitivity.py)
    first_diverged_step: int = None
    max_abs_diff: float = 0.0
    max_rel_diff: float = 0.0
    alignment: str = ""
    failed_side: str = ""
    rewrite_diagnostics: list = field(default_factory=list)
    accepted_fixes: list = field(default_factory=list)   # codes applied to the original to make the reference
    reference_path: str = ""
    retried_ports: bool = False   # a server's port was taken by another process: the pair ran again
    network: str = ""             # how the run was kept off the network, or --allow-network (netns.py)
    tolerance: str = ""           # which rtol/atol were used, and why (cross-version runs are wider)
    module: str = None            # `-m MODULE`: both sides are package roots running this module
    original_args: list = field(default_factory=list)   # each side's sys.argv[1:]
    migrated_args: list = field(default_factory=list)
    cwd: str = None               # the programs' working directory (None: verify's own)
    env_keys: dict = field(default_factory=dict)   # side -> names of the variables set with --env (not values)
    details: dict = field(default_factory=dict)
    compared: list = field(default_factory=list)   # what the verdict rests on, one line per kind of check

    @property
    def equivalent(self):
        return self.verdict == Verdict.EQUIVALENT

    @property
    def exit_code(self):
        if self.failed_side:
            return EXIT_PROGRAM_FAILED
        return EXIT_EQUIVALENT if self.equivalent else EXIT_DIVERGED

    @property
    def ports(self):
        return sorted({p for s in [self.migrated] + self.original_runs if s for p in s.ports})
