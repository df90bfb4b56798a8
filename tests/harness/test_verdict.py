"""The verdict is an Enum (issue 20) whose values are the words the CLI prints, `--json` writes and `--junit`
shows, so reports stay what they were when the verdict was a string; the exit code follows the verdict."""
import json
import xml.etree.ElementTree as ET

import pytest

from tf2migrate.harness import api
from tf2migrate.harness.compare import compare
from tf2migrate.harness.compare.compare import Verdict
from tf2migrate.harness.report import report
from tf2migrate.harness.report.result import Comparison, RunFacts, VerifyResult


def _result(verdict, failed_side=""):
    return VerifyResult(RunFacts("o.py", "m.py", "local", "exact"),
                        comparison=Comparison(verdict, "a reason", 1e-5, 1e-5, failed_side=failed_side))


def test_the_verdicts_are_the_three_words():
    assert [v.value for v in Verdict] == ["EQUIVALENT", "DIVERGED", "INCOMPARABLE"]
    assert (compare.EQUIVALENT, compare.DIVERGED, compare.INCOMPARABLE) == tuple(Verdict)
    assert all(isinstance(v, Verdict) for v in (compare.exact([1.0], [1.0]).verdict, compare.exact([1.0], [2.0]).verdict,
                                               compare.exact([], [1.0]).verdict))


@pytest.mark.parametrize("verdict", list(Verdict))
def test_a_verdict_is_written_as_its_word_everywhere(verdict, tmp_path):
    result = _result(verdict)
    assert report.summary_lines(result)[0] == f"verdict: {verdict.value} - a reason"
    assert str(verdict) == f"{verdict}" == "%s" % verdict == verdict.value
    path = tmp_path / "r.json"
    report.write_json(result, path)
    assert f'"verdict": "{verdict.value}"' in path.read_text()
    assert json.loads(path.read_text())["verdict"] == verdict.value
    report.write_junit([result], tmp_path / "r.xml")
    failure = ET.parse(tmp_path / "r.xml").getroot().find("testcase/failure")
    assert (failure is None) == (verdict is Verdict.EQUIVALENT)
    if failure is not None:
        assert failure.get("message") == f"{verdict.value}: a reason"


def test_the_exit_code_follows_the_verdict():
    assert _result(Verdict.EQUIVALENT).exit_code == api.EXIT_EQUIVALENT == 0
    assert _result(Verdict.DIVERGED).exit_code == api.EXIT_DIVERGED == 1
    assert _result(Verdict.INCOMPARABLE).exit_code == api.EXIT_DIVERGED
    assert _result(Verdict.INCOMPARABLE, failed_side="migrated").exit_code == api.EXIT_PROGRAM_FAILED == 3
