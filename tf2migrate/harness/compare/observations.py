"""What one program run observed, declared once for both sides of the process boundary.

The child's `Recorder` (capture/recorder.py) is an `Observed` that the capture hooks fill, written as JSON
when the program ends (`to_json`); the parent reads the file back (`from_json`) into each side's
`SideResult` (running/runner.py), which is an `Observed` too, with what only the parent knows. A new fact is
one field here: the child writes it, the parent and the recordings carry it. `PairObserved` holds both sides.
"""
from dataclasses import dataclass, field, fields


@dataclass
class Observed:
    status: str = ""          # ok | failed | timeout | unsupported (the interpreter cannot run it) |
    #                           incomparable (the program cannot run as the cluster: recorder.CannotRunAsCluster)
    error: str = ""
    losses: list = field(default_factory=list)         # one float per training step, in the order seen
    times: list = field(default_factory=list)          # wall time of each step, to merge the tasks of a TF1 cluster
    api: str = ""             # v1 (legacy mode) or v2
    api_reading: str = ""     # `--original-api auto`: why the program ran as `api`, a sentence (capture/legacy.py)
    api_ambiguous: bool = False   # ... it could be TF 1.x or TF2 code, and ran with TF2 behaviour
    versions: dict = field(default_factory=dict)       # python, tensorflow, keras the side ran with
    variables: list = field(default_factory=list)      # [{"name", "shape"}] in creation order
    aligned: list = field(default_factory=list)        # migrated variables that got the original's step-0 value
    capture: list = field(default_factory=list)        # which hooks saw steps: estimator, session, keras, tape
    notes: list = field(default_factory=list)
    ports: list = field(default_factory=list)
    dropouts: list = field(default_factory=list)       # [{"rate", "input", "noise_shape"}] of the first step
    pipeline: list = field(default_factory=list)       # the program's own shuffle/batch/repeat calls, as text
    pipeline_ops: list = field(default_factory=list)   # the same by structure (vocabulary.shuffle_op, ...)
    uncontrolled: list = field(default_factory=list)   # the program's queue shuffles no seed reaches, as called
    initializers: dict = field(default_factory=dict)   # variable name -> initializer name, where known
    init_laws: dict = field(default_factory=dict)      # variable name -> its initializer's law (init_laws.py)
    eval_results: list = field(default_factory=list)   # one {metric: value} per evaluate call
    metric_kinds: dict = field(default_factory=dict)   # metric name -> {"kind", "own"} (metric_kinds.py)
    metric_results: dict = field(default_factory=dict)   # the program's own metrics at the end: {"kind", "value"}
    own_initial: str = ""     # .npz of the program's own step-0 values (before any alignment)
    final_state: str = ""     # .npz of its non-trainable layer state after training
    plain_state: str = ""     # .npz of its own tf.Variables outside Keras layers after training
    optimizers: list = field(default_factory=list)     # hyper-parameters of each optimizer that applied gradients

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(Observed)}

    @classmethod
    def from_json(cls, data: dict) -> "Observed":
        """An observation read back; a key the file lacks (a run that died early) keeps its default."""
        return Observed(**{f.name: data[f.name] for f in fields(Observed) if f.name in data})


@dataclass
class PairObserved:
    """What the two sides of one verify observed, each run an `Observed` (running/runner.SideResult), filled by
    running/pair_runs.py."""
    original: Observed = None     # the original (repeat 0)
    migrated: Observed = None
    original_runs: list = field(default_factory=list)   # statistical mode: every original repeat
    twin: Observed = None         # the original again, slightly off: its own float drift (sensitivity.py)
    retried_ports: bool = False   # a server's port was taken by another process: the pair ran again

    @property
    def ports(self):
        return sorted({p for s in [self.migrated] + self.original_runs if s for p in s.ports})
