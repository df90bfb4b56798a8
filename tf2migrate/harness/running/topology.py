"""`--cluster` values, parsed without importing TensorFlow, and what a program's source already does
about distribution (used by `auto` and to avoid wrapping a program that builds its own strategy)."""
import ast
import re
from dataclasses import dataclass

_SPEC = re.compile(r"^(local|auto|mirrored:(\d+)|multi-worker:(\d+)|ps:(\d+),(\d+))$")


@dataclass(frozen=True)
class Topology:
    kind: str          # local | mirrored | multi-worker | ps
    replicas: int = 1  # mirrored devices or multi-worker workers
    workers: int = 0   # ps: workers
    ps: int = 0        # ps: parameter servers

    @property
    def deterministic(self):
        """Exact per-step equality is only expected where steps run in a fixed order."""
        return self.kind != "ps" or self.workers == 1

    def __str__(self):
        if self.kind == "local":
            return "local"
        if self.kind == "ps":
            return f"ps:{self.workers},{self.ps}"
        return f"{self.kind}:{self.replicas}"


def parse(spec):
    m = _SPEC.match(spec.strip())
    if not m:
        raise ValueError(f"unknown cluster {spec!r}: use local, mirrored:N, multi-worker:N, ps:W,P or auto")
    if m.group(1) == "auto":
        return "auto"
    if m.group(1) == "local":
        return Topology("local")
    numbers = [int(g) for g in m.groups()[1:] if g is not None]
    if any(n < 1 for n in numbers):
        raise ValueError(f"cluster sizes must be at least 1: {spec!r}")
    kind = m.group(1).split(":")[0]
    if kind == "ps":
        return Topology("ps", workers=numbers[0], ps=numbers[1])
    return Topology(kind, replicas=numbers[0])


@dataclass
class SourceFacts:
    """What a script constructs, read from its syntax tree (never by running it)."""

    strategies: set
    starts_servers: bool
    uses_estimator: bool
    tf1_adam: bool = False   # TF1's AdamOptimizer (capture/adam_rounding.py)


def _task_guarded(tree):
    """Calls inside `if <...>.task_type in ("worker", "ps"):`: code that runs only on a cluster's worker and ps
    tasks (a TF2 ParameterServerStrategy program's servers), not on the coordinator the harness runs."""
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and any(isinstance(n, ast.Attribute) and n.attr == "task_type"
                                            for n in ast.walk(node.test)):
            for stmt in node.body:
                guarded.update(id(n) for n in ast.walk(stmt) if isinstance(n, ast.Call))
    return guarded


def source_facts(source):
    tree = ast.parse(source)
    called = set()
    names = set()
    guarded = _task_guarded(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in guarded:
            f = node.func
            called.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
    return SourceFacts(
        strategies={c for c in called if c.endswith("Strategy")},
        starts_servers="Server" in called,
        uses_estimator=any(n in names for n in ("Estimator", "estimator", "train_and_evaluate")),
        tf1_adam="AdamOptimizer" in names,
    )


def auto_topology(facts_original, facts_migrated):
    """`--cluster auto`: the topology implied by what the programs construct."""
    s = facts_migrated.strategies | facts_original.strategies
    if any("ParameterServer" in x for x in s):
        return Topology("ps", workers=1, ps=1)
    if any("MultiWorker" in x or "CollectiveAllReduce" in x for x in s):
        return Topology("multi-worker", replicas=1)
    if any("Mirrored" in x for x in s):
        return Topology("mirrored", replicas=2)
    return Topology("local")
