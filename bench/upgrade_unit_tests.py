"""tf_upgrade_v2's own unit tests, run against tf2migrate: how many of its expected upgrades we write.

    python bench/upgrade_unit_tests.py PATH/tf_upgrade_v2_test.py [--json OUT.json] [--modes official,tf1,auto]

Snippets that do not bind `tf` get `import tensorflow as tf` (after any `__future__` line), and those that
use Google's bare contrib aliases (`slim.`, `contrib_layers.`, ...) their imports, as tf_upgrade_v2 assumes
them; the lines are taken out of our output again before it is compared.

PATH is tensorflow/tensorflow's `tensorflow/tools/compatibility/tf_upgrade_v2_test.py`, kept outside the
repository (it is TensorFlow's code, not ours). The module is loaded with the installed TensorFlow 2.15
(whose `tensorflow.tools.compatibility` it imports) and each `TestUpgrade` test method is called once per
mode: `official` as written (tf_upgrade_v2 itself, the baseline), then `tf1` and `auto` with `_upgrade` /
`_upgrade_multiple` answered by `rewrite_text(text, "test.py", Selection(source=MODE))`.

A case is one assertion that compares an upgraded text with an expected text: `assertEqual(x, y)` where x
or y is a text `_upgrade` returned in that method, or `assertIn(part, upgraded)` (the headline count of
issue 20: 410). Every assertion is recorded, never raised, so a loop in a test goes on after a miss; the
other assertions (on the report and the error list) are counted apart. Not run: the four tests that walk the
whole TF1 API (testAllAPI, testAllAPIV1, testV1/V2KeywordArgNames: no case of this kind, thousands of calls)
and TestUpgradeFiles (the official tool's file handling). `import_rename=True` has no tf2migrate equivalent
and is ignored in the tf2migrate modes.

A case that differs is classed: (a) tf2migrate left the snippet unchanged with no finding, (b) unchanged
with a finding, (c) a different edit. --json writes every non-exact case with its input, expected text,
our text and findings.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import unittest
from collections import Counter
from pathlib import Path

IMPORT_TESTS = {"test_import_rename_analysis", "test_import_analysis"}  # the official tool's import options
SKIPPED = {"testAllAPI", "testAllAPIV1", "testV1KeywordArgNames", "testV2KeywordArgNames"}
HEADER = "import tensorflow as tf\n"
BINDS_TF = re.compile(r"^\s*(import|from) tensorflow\b.*\bas tf\b", re.M)
ALIASES = {  # the contrib aliases the tests use bare, as Google's code imports them
    "slim": "import tensorflow.contrib.slim as slim\n",
    "contrib_layers": "from tensorflow.contrib import layers as contrib_layers\n",
    "contrib_estimator": "from tensorflow.contrib import estimator as contrib_estimator\n",
    "contrib_framework": "from tensorflow.contrib import framework as contrib_framework\n",
}
ASSERTS = ("assertEqual", "assertIn", "assertNotIn", "assertNotEqual", "assertTrue", "assertFalse",
           "assertEmpty", "assertAllEqual", "fail")


class Lenient(list):
    """An error list whose missing entries read as "": `errors[0]` on an empty list must not end the
    test method (and with it the cases after it)."""

    def __getitem__(self, index):
        try:
            return super().__getitem__(index)
        except IndexError:
            return ""


def load_tests(path: Path):
    spec = importlib.util.spec_from_file_location("tf_upgrade_v2_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TestUpgrade


def tf2migrate_upgrader(source: str):
    """`_upgrade`'s contract, answered by tf2migrate's library call."""
    from tf2migrate.engine.api import Selection, rewrite_text

    def upgrade(text):
        head, body = split_future(text)
        header = "" if BINDS_TF.search(text) else HEADER
        header += "".join(line for name, line in ALIASES.items() if re.search(rf"\b{name}\.", text))
        try:
            result = rewrite_text(head + header + body, "test.py", Selection(source=source))
        except Exception as exc:  # a snippet that does not parse: the official tool reports it too
            return 0, f"Failed to parse: {exc}", Lenient([str(exc)]), text, ["PARSE"]
        code = result.code
        for line in header.splitlines(keepends=True):  # take back the header's lines the rewrite kept
            if line in code[len(head):]:
                at = code.index(line, len(head))
                code = code[:at] + code[at + len(line):]
        code = text if code == text else code
        findings = [f"{d.code} {'[fixed] ' if d.fixed else ''}{d.message}" for d in result.diagnostics]
        errors = Lenient(f for f, d in zip(findings, result.diagnostics) if d.severity.value == "error")
        return len(result.diagnostics), "\n".join(findings), errors, code, findings
    return upgrade


def split_future(text: str):
    """(the leading `from __future__` lines, the rest): the header must come after them."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and lines[n].startswith("from __future__"):
        n += 1
    return "".join(lines[:n]), "".join(lines[n:])


class Recorder:
    """Wraps one test instance: its upgrades and assertions are recorded, its assertions never raise."""

    def __init__(self, test, method, upgrade):
        self.test, self.method, self.upgrade = test, method, upgrade
        self.outputs = {}  # id(upgraded text) -> (input, upgraded, findings); texts kept alive here
        self.cases, self.other, self.depth = [], Counter(), 0
        if upgrade is not None:
            test._upgrade = self._upgrade
            test._upgrade_multiple = lambda texts: [list(self._upgrade(t)) for t in texts]
        else:
            official, official_multiple = test._upgrade, test._upgrade_multiple
            test._upgrade = lambda text, *a, **k: self._keep(text, *official(text, *a, **k), None)
            test._upgrade_multiple = lambda texts: [
                list(self._keep(t, *r, None)) for t, r in zip(texts, official_multiple(texts))]
        for name in ASSERTS:
            setattr(test, name, self._wrap(name, getattr(test, name)))

    def _upgrade(self, text, import_rename=False, upgrade_compat_v1_import=False):
        count, report, errors, code, findings = self.upgrade(text)
        return self._keep(text, count, report, errors, code, findings)

    def _keep(self, text, count, report, errors, code, findings):
        self.outputs[id(code)] = (text, code, findings if findings is not None else [report])
        return count, report, Lenient(errors), code

    def _upgraded(self, value):
        found = self.outputs.get(id(value)) if isinstance(value, str) else None
        return found if found is not None and found[1] is value else None

    def _wrap(self, name, original):
        def wrapper(*args, **kwargs):
            case = None
            if name == "assertEqual" and len(args) >= 2:
                ours = self._upgraded(args[1]) or self._upgraded(args[0])
                if ours is not None:
                    expected = args[0] if ours[1] is args[1] else args[1]
                    case = (ours, expected, expected == ours[1])
            elif name == "assertIn" and len(args) >= 2:
                ours = self._upgraded(args[1])
                if ours is not None:
                    case = (ours, f"... {args[0]} ...", args[0] in ours[1])
            if case is not None:
                (text, code, findings), expected, exact = case
                self.cases.append({"test": self.method, "input": text, "expected": expected,
                                   "ours": code, "findings": findings, "exact": exact,
                                   "kind": name})
                return None
            if self.depth:  # assertIn failing calls self.fail: count the outer assertion only
                return original(*args, **kwargs)
            self.depth += 1
            try:
                original(*args, **kwargs)
                self.other["passed"] += 1
            except Exception:
                self.other["failed"] += 1
            finally:
                self.depth -= 1
        return wrapper


def headline(case) -> bool:
    """Issue 20's 410: whole-text comparisons, outside the tests of tf_upgrade_v2's import options."""
    return case["kind"] == "assertEqual" and case["test"] not in IMPORT_TESTS


def warned(case) -> bool:
    """A finding that asks for a look, not only one that describes an edit made (`[fixed]`)."""
    return any(" [fixed] " not in f for f in case["findings"])


def classify(case) -> str:
    if case["exact"]:
        return "exact"
    if case["ours"] == case["input"]:
        return "b" if case["findings"] else "a"
    return "c"


def run(test_class, mode: str):
    upgrade = None if mode == "official" else tf2migrate_upgrader(mode)
    names = [n for n in unittest.TestLoader().getTestCaseNames(test_class) if n not in SKIPPED]
    cases, other, aborted = [], Counter(), []
    for name in names:
        test = test_class(name)
        recorder = Recorder(test, name, upgrade)
        try:
            getattr(test, name)()
        except Exception as exc:  # anything but an assertion: the method's later cases are lost
            aborted.append(f"{name}: {type(exc).__name__}: {exc}")
        cases += recorder.cases
        other += recorder.other
    for case in cases:
        case["class"] = classify(case)
    return cases, other, aborted


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("test_file", type=Path)
    parser.add_argument("--json", type=Path, help="write every non-exact case here")
    parser.add_argument("--modes", default="official,tf1,auto")
    args = parser.parse_args(argv)
    import tf2migrate
    print(f"tf2migrate from {Path(tf2migrate.__file__).parent}")
    test_class = load_tests(args.test_file)
    report = {}
    for mode in args.modes.split(","):
        cases, other, aborted = run(test_class, mode)
        for label, chosen in (("headline", [c for c in cases if headline(c)]), ("all", cases)):
            counts = Counter(c["class"] for c in chosen)
            told = sum(1 for c in chosen if c["class"] == "c" and warned(c))
            print(f"{mode:8} {label:8} cases {len(chosen)}: exact {counts['exact']}, (a) unchanged, no "
                  f"finding {counts['a']}, (b) unchanged with a finding {counts['b']}, (c) a different "
                  f"edit {counts['c']} ({told} with a finding beyond the edits made)")
        print(f"{mode:8} other assertions (report, errors): passed {other['passed']}, failed {other['failed']}")
        for line in aborted:
            print(f"    aborted {line}")
        report[mode] = [{**c, "headline": headline(c)} for c in cases if not c["exact"]]
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
        print(f"non-exact cases written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
