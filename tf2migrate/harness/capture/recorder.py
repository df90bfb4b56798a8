"""What one program run observed, kept inside the child process and written to a JSON file at exit.

Every capture hook (Estimator, Session, Keras, GradientTape) reports into this one object so the parent
never needs to know which training API the user's script happened to use.
"""
import json
import os
import threading
import time


class StepCapReached(BaseException):
    """Raised to end a training loop that has no clean stop hook once `--steps` is reached.

    A BaseException so that a user's `except Exception:` cannot swallow it.
    """


class CannotRunAsCluster(BaseException):
    """The program cannot run as the cluster it is verified under (e.g. a TF1 Estimator trained with `train()`
    alone, which starts no servers): said at once, instead of tasks that wait for each other until the timeout."""


class Recorder:
    """Per-step losses, the trainable variables and alignment notes of one run."""

    def __init__(self, spec):
        self.spec = spec
        self.max_steps = spec.get("max_steps")
        self.losses = []            # one float per training step, in the order seen
        self.variables = []         # [{"name", "shape"}] in creation order
        self.initial_values = {}    # name -> numpy array (only the original side dumps them)
        self.aligned = []           # names of migrated variables that got the original's value
        self.capture_kinds = set()  # "estimator", "session", "keras", "tape"
        self.notes = []
        self.api = None
        self.versions = {}          # python, tensorflow, keras of this interpreter
        self.times = []             # wall time of each step, to merge the tasks of a TF1 cluster
        self.ports = []
        self.lock = threading.Lock()
        self._init_dumped = False
        self.finalizers = []        # run before the results are written (e.g. reading DTensor buffers)
        self.dropouts = []          # [{"rate", "input", "noise_shape"}] of the first training step
        self.dropout_thread = None
        self.pipeline = []          # the program's own shuffle/batch/repeat calls before its first step
        self.pipeline_ops = []      # the same calls by structure: {"op": "shuffle", "buffer", "seed", ...}
        self.own_initial = {}       # name -> the program's own step-0 value (before any alignment)
        self.initializers = {}      # name -> the initializer's name, where known
        self.init_laws = {}         # name -> what its initializer draws from (init_laws.spec), where known
        self.state_vars = {}        # name -> non-trainable layer variable (TF2), read when the run ends
        self.final_state = {}       # name -> value of non-trainable layer state after training
        self.eval_results = []      # one {metric: value} per evaluate call of the program
        self.plain_state = {}       # "i:name" -> final value of a tf.Variable the program made itself (plain_state.py)
        self.metric_results = {}    # name -> {"kind", "value"}: result() of a metric the program made itself
        self.metric_kinds = {}      # metric name -> {"kind": what it computes, "own": asked for by the program}

    # ---- steps -------------------------------------------------------------------------------
    def add_loss(self, value, kind):
        with self.lock:
            self.capture_kinds.add(kind)
            self.losses.append(float(value))
            self.times.append(time.time())

    def cap_reached(self):
        return self.max_steps is not None and len(self.losses) >= self.max_steps

    # ---- variables ---------------------------------------------------------------------------
    def add_variable(self, name, shape):
        name = clean_name(name)
        if not any(v["name"] == name for v in self.variables):
            self.variables.append({"name": name, "shape": [int(d) for d in shape]})

    def dump_initial_values(self, named_values):
        """Write the step-0 values (original side) where the migrated child waits for them."""
        if self._init_dumped:
            return
        self._init_dumped = True
        import numpy as np

        for name, value in named_values:
            self.add_variable(name, np.shape(value))
            self.initial_values[clean_name(name)] = np.asarray(value)
        path = self.spec.get("init_out")
        if path:
            from tf2migrate.harness.compare.align import save_values

            save_values(path, [(v["name"], self.initial_values[v["name"]]) for v in self.variables
                               if v["name"] in self.initial_values])

    def add_own_initial(self, name, value):
        import numpy as np

        name = clean_name(name)
        if name not in self.own_initial:
            self.own_initial[name] = np.asarray(value)

    # ---- results -----------------------------------------------------------------------------
    def write(self, status, error=None):
        for finalize in self.finalizers + [self._read_state]:
            try:
                finalize()
            except Exception as exc:  # noqa: BLE001 - the run's own status matters more
                self.notes.append(f"could not read captured values at exit: {exc}")
        out = {
            "status": status,
            "error": error,
            "losses": self.losses,
            "times": self.times,
            "api": self.api,
            "versions": self.versions,
            "variables": self.variables,
            "aligned": self.aligned,
            "capture": sorted(self.capture_kinds),
            "notes": self.notes,
            "ports": self.ports,
            "dropouts": self.dropouts,
            "pipeline": self.pipeline,
            "pipeline_ops": self.pipeline_ops,
            "initializers": self.initializers,
            "init_laws": self.init_laws,
            "eval_results": self.eval_results,
            "metric_kinds": self.metric_kinds,
            "metric_results": self.metric_results,
            "own_initial": self._save("own_init", self.own_initial),
            "final_state": self._save("state", self.final_state),
            "plain_state": self._save("plain", self.plain_state),
        }
        tmp = self.spec["results"] + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f)
        os.replace(tmp, self.spec["results"])

    def _read_state(self):
        """TF2 programs: the non-trainable layer state as training left it (TF1 reads it in its session)."""
        for name, var in self.state_vars.items():
            if name not in self.final_state:
                try:
                    self.final_state[name] = var.numpy()
                except Exception:  # noqa: BLE001 - e.g. a variable on a server that has gone
                    self.notes.append(f"could not read the final value of {name}")

    def _save(self, kind, values):
        """Arrays go to an .npz next to the results (version-neutral); the JSON holds its path."""
        if not values:
            return None
        from tf2migrate.harness.compare.align import save_values

        path = f"{self.spec['results']}.{kind}.npz"
        save_values(path, list(values.items()))
        return path


def clean_name(name):
    """`dense/kernel:0` -> `dense/kernel`, the form both TF1 and Keras names share."""
    name = str(name)
    if ":" in name:
        name = name.rsplit(":", 1)[0]
    return name
