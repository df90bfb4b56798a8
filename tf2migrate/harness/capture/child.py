"""The code that runs inside each subprocess: apply the harness's patches, then run the user's script
unchanged as `__main__`, and write what was observed to a results file.

Usage (by the runner only): `python -m tf2migrate.harness.capture.child SPEC.json`.
"""
import json
import os
import runpy
import sys
import traceback


class LazyAligner:
    """Waits for the original's step-0 values only when the first variable is created, so the migrated
    program imports TensorFlow and builds its input pipeline while the original is still starting."""

    def __init__(self, spec, path):
        self.spec, self.path, self.inner = spec, path, None

    def take(self, wanted, shape):
        if self.inner is None:
            from tf2migrate.harness.compare.align import Aligner

            self.inner = Aligner.wait_for(self.path, self.spec.get("wait_timeout", 600),
                                          self.spec.get("abort_path"))
        return self.inner.take(wanted, shape)


def main(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    if spec.get("netns"):   # first: setns needs a process with one thread
        from tf2migrate.harness.capture.join_namespace import enter

        enter(spec["netns"])   # goes on in a child forked into the run's PID namespace
    else:   # --allow-network where no namespace can be made: at least die with verify
        from tf2migrate.engine.parent_death import die_with_parent

        die_with_parent()
    if spec.get("serve"):
        from tf2migrate.harness.capture.cluster import serve_forever

        serve_forever(**spec["serve"])
        return 0
    from tf2migrate.harness.capture.recorder import CannotRunAsCluster, Recorder, StepCapReached
    from tf2migrate.harness.capture.versions import Unsupported

    recorder = Recorder(spec)
    try:
        try:
            _prepare(spec, recorder)
        except Unsupported as e:
            recorder.write("unsupported", f"{sys.executable}: {e}")
            return 1
        strategy = spec.get("_strategy")
        sys.argv = [spec["script"]] + list(spec.get("argv", []))
        sys.path.insert(0, spec["home"])
        try:
            if strategy is not None:
                with strategy.scope():
                    _run_program(spec)
            else:
                _run_program(spec)
        except StepCapReached:
            recorder.notes.append(f"stopped after {len(recorder.losses)} steps (--steps)")
        except SystemExit as e:
            if e.code not in (None, 0):
                raise
        except CannotRunAsCluster as e:
            recorder.write("incomparable", str(e))
            return 1
    except BaseException as e:  # noqa: BLE001 - any failure of the user's program is reported, not raised
        traceback.print_exc()
        recorder.write("failed", f"{type(e).__name__}: {e}")
        return 1
    recorder.write("ok")
    return 0


def _run_program(spec):
    """As `python SCRIPT ARGS...` or `python -m MODULE ARGS...` would (run_module sets sys.argv[0] to the
    module's file, as `-m` does)."""
    if spec.get("module"):
        runpy.run_module(spec["module"], run_name="__main__", alter_sys=True)
    else:
        runpy.run_path(spec["script"], run_name="__main__")


def _prepare(spec, recorder):
    from tf2migrate.harness.capture import (adam_rounding, capture_estimator, capture_eval, capture_keras,
                                            capture_session, capture_state, cluster, determinism, init_laws,
                                            legacy, metric_kinds, optimizer_settings, program_state,
                                            versions)

    from tf2migrate.harness.capture.sources import read_sources

    texts = [text for _, text in read_sources(spec.get("sources") or [spec["script"]])]  # the script, or the package
    if any(versions.honour_legacy_switch(text) for text in texts):
        recorder.notes.append("TF_USE_LEGACY_KERAS=1, as the program sets it")
    tf = versions.import_tensorflow()
    versions.check_estimator(tf, spec.get("uses_estimator", False))
    topology = spec.get("topology") or {"kind": "local"}
    cluster.prepare_devices(topology)  # before the runtime starts: `import tensorflow` does not start it
    keras = versions.keras(tf)
    recorder.versions = {"python": sys.version.split()[0], "tensorflow": tf.__version__,
                         "keras": f"{keras.root} {keras.version}"}
    api = spec.get("api", "v2")
    if api == "auto":
        api, why, recorder.api_ambiguous = legacy.choose_api(texts)
        recorder.notes.append(why)
        recorder.api_reading = why
    recorder.api = api
    determinism.apply(spec.get("seed", 0), recorder, share_masks=spec.get("share_masks", True))
    model_dir = spec.get("model_dir") or os.path.join(spec["workdir"], "model")
    source = spec.get("init_in") or spec.get("init_override")
    aligner = LazyAligner(spec, source) if source else None
    capture_estimator.install_estimator(recorder, model_dir, aligner)
    capture_session.install_session(recorder, aligner)
    capture_keras.install(recorder, aligner, keras)
    if spec.get("tf1_adam_rounding"):
        adam_rounding.install(recorder, tf, keras)
    capture_state.install(recorder, keras)
    metric_kinds.install(recorder)
    program_state.install(recorder, tf)
    optimizer_settings.install(recorder, tf, keras)
    if spec.get("nudge_gradients"):   # the drift twin (sensitivity.py): after the tape capture, which it wraps
        from tf2migrate.harness.capture.nudge import nudge_gradients

        nudge_gradients(tf)
    init_laws.install(recorder)
    if keras.major == 2:  # Keras 3 hands its callbacks a copy of the logs: capture_eval.py
        capture_eval.install(recorder, tf)
    if topology["kind"] == "ps" and spec.get("start_servers"):
        spec["_servers"] = cluster.start_in_process_ps(topology, recorder)
    if spec.get("role") == "original":
        legacy.add_aliases()
    if api == "v1":  # last: the patches above must see the real `tensorflow` module
        legacy.enable()
        recorder.notes.append("legacy mode: tensorflow = tensorflow.compat.v1, v2 behaviour disabled")
    if spec.get("wrap_strategy") and api == "v2":
        spec["_strategy"] = cluster.make_strategy(topology)


if __name__ == "__main__":
    code = main(sys.argv[1])
    sys.stdout.flush()
    sys.stderr.flush()
    # In-process servers and PSS coordinator threads never let the interpreter exit on its own.
    os._exit(code)
