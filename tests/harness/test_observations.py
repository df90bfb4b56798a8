"""An observed fact is declared once (compare/observations.py): the child's recorder writes exactly those fields,
the parent reads them back, and each side's result carries them (issue 20)."""
import dataclasses
import json

from tf2migrate.harness.capture.recorder import Recorder
from tf2migrate.harness.compare.observations import Observed
from tf2migrate.harness.running.runner import SideResult

FIELDS = [f.name for f in dataclasses.fields(Observed)]


def test_the_child_writes_every_observed_field_and_only_those(tmp_path):
    recorder = Recorder({"results": str(tmp_path / "r.json")})
    recorder.add_loss(0.5, "tape")
    recorder.add_variable("dense/kernel:0", (2, 3))
    recorder.add_own_initial("dense/kernel", [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    recorder.pipeline.append("batch(4, drop_remainder=False)")
    recorder.write("ok")
    written = json.loads((tmp_path / "r.json").read_text())
    assert list(written) == FIELDS
    back = Observed.from_json(written)
    assert (back.status, back.losses, back.capture, back.pipeline) == ("ok", [0.5], ["tape"], recorder.pipeline)
    assert back.variables == [{"name": "dense/kernel", "shape": [2, 3]}]
    assert back.own_initial.endswith(".own_init.npz") and back.final_state is None and back.api is None


def test_a_file_cut_short_keeps_the_defaults():
    back = Observed.from_json({"status": "failed", "losses": [1.0]})
    assert back.losses == [1.0] and back.notes == [] and back.own_initial == ""


def test_a_side_result_is_an_observation_plus_what_the_parent_knows():
    assert issubclass(SideResult, Observed)
    own = [f.name for f in dataclasses.fields(SideResult)]
    assert own[:len(FIELDS)] == FIELDS
    assert own[len(FIELDS):] == ["label", "seconds", "stderr_tail", "pids", "python"]
