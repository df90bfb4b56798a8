"""What one program run observed, kept inside the child process and written to a JSON file at exit.

Every capture hook (Estimator, Session, Keras, GradientTape) reports into this one object so the parent
never needs to know which training API the user's script happened to use.
"""
import json
import os
import threading
import time

from tf2migrate.harness.compare.observations import Observed


class StepCapReached(BaseException):
    """Raised to end a training loop that has no clean stop hook once `--steps` is reached.

    A BaseException so that a user's `except Exception:` cannot swallow it.
    """


class CannotRunAsCluster(BaseException):
    """The program cannot run as the cluster it is verified under (e.g. a TF1 Estimator trained with `train()`
    alone, which starts no servers): said at once, instead of tasks that wait for each other until the timeout."""


class Recorder(Observed):
    """The observation of one run as the capture hooks fill it, with the child's own working state."""

    __eq__, __hash__ = object.__eq__, object.__hash__   # one run's live recorder, not a value

    def __init__(self, spec):
        super().__init__(api=None, error=None)
        self.spec = spec
        self.max_steps = spec.get("max_steps")
        self.initial_values = {}    # name -> numpy array (only the original side dumps them)
        self.capture_kinds = set()  # "estimator", "session", "keras", "tape": `capture` when written
        self.lock = threading.Lock()
        self._init_dumped = False
        self.finalizers = []        # run before the results are written (e.g. reading DTensor buffers)
        self.dropout_thread = None
        self.state_vars = {}        # name -> non-trainable layer variable (TF2), read when the run ends
        self.own_arrays = {}        # name -> the program's own step-0 value (before any alignment): `own_initial`
        self.state_arrays = {}      # name -> non-trainable layer state after training: `final_state`
        self.plain_arrays = {}      # "i:name" -> final value of a tf.Variable the program made (program_state.py)

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
        if name not in self.own_arrays:
            self.own_arrays[name] = np.asarray(value)

    # ---- results -----------------------------------------------------------------------------
    def write(self, status, error=None):
        for finalize in self.finalizers + [self._read_state]:
            try:
                finalize()
            except Exception as exc:  # noqa: BLE001 - the run's own status matters more
                self.notes.append(f"could not read captured values at exit: {exc}")
        self.status, self.error, self.capture = status, error, sorted(self.capture_kinds)
        self.own_initial = self._save("own_init", self.own_arrays)
        self.final_state = self._save("state", self.state_arrays)
        self.plain_state = self._save("plain", self.plain_arrays)
        out = self.to_json()
        tmp = self.spec["results"] + ".tmp"
        with open(tmp, "w") as f:
            json.dump(out, f)
        os.replace(tmp, self.spec["results"])

    def _read_state(self):
        """TF2 programs: the non-trainable layer state as training left it (TF1 reads it in its session)."""
        for name, var in self.state_vars.items():
            if name not in self.state_arrays:
                try:
                    self.state_arrays[name] = var.numpy()
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
