"""Nothing is ever lost: every bad input gets one line with a place, stays byte-identical, and the
run goes on (exit 123) while the good files of the same run are still rewritten."""
from __future__ import annotations

import os
import re

import pytest
from click.testing import CliRunner

from tf2migrate.cli.app import main
from tf2migrate.engine.files import Candidate
from tf2migrate.engine.process import Mode, Status
from tf2migrate.engine.runner import RunOptions, run

TF1 = "import tensorflow as tf\nloss = strategy.experimental_run_v2(step)\n"
BAD = {
    "py2.py": b"import tensorflow as tf\nprint 'loss', strategy.experimental_run_v2(step)\n",
    "latin1_without_cookie.py": b"# caf\xe9\nloss = strategy.experimental_run_v2(step)\n",
    "binary.py": b"\x00\x01\x02experimental_run_v2\x00",
    "bad_cookie.py": b"# -*- coding: no-such-codec -*-\nx = 1\n",
    # codecs Python knows that are not text encodings: `bytes.decode` raised LookupError and ended the run
    "rot13_cookie.py": b"# coding: rot13\nk = 1\n",
    "hex_cookie.py": b"#!/usr/bin/env python\n# -*- coding: hex -*-\nx = 1\n",
    "base64_cookie.py": b"# coding: base64\nx = 1\n",
    "zlib_cookie.py": b"# coding=zlib\nx = 1\n",
    # a text codec whose decoding does not encode back to the same bytes: a rewrite would change other lines
    "unicode_escape_cookie.py": b"# coding: unicode_escape\ns = '\\u00e9'\n",
}
EXPECTED = {
    "py2.py": ("TFM901", 2, 1),
    "latin1_without_cookie.py": ("TFM902", 1, 6),
    "binary.py": ("TFM903", 1, 1),
    "bad_cookie.py": ("TFM902", 1, 1),
    "rot13_cookie.py": ("TFM902", 1, 1),
    "hex_cookie.py": ("TFM902", 2, 1),
    "base64_cookie.py": ("TFM902", 1, 1),
    "zlib_cookie.py": ("TFM902", 1, 1),
    "unicode_escape_cookie.py": ("TFM902", 1, 1),
}


def _invoke(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_untouched_others_rewritten(tmp_path, name):
    bad = tmp_path / name
    bad.write_bytes(BAD[name])
    good = tmp_path / "good.py"
    good.write_text(TF1)
    result = _invoke("rewrite", "--no-cache", str(tmp_path))
    assert result.exit_code == 123, result.output
    assert bad.read_bytes() == BAD[name]
    assert "strategy.run(step)" in good.read_text()
    code, line, col = EXPECTED[name]
    lines = [l for l in result.output.splitlines() if l.startswith(str(bad))]
    assert len(lines) == 1, result.output
    assert re.match(rf"{re.escape(str(bad))}:{line}:{col}: {code} ", lines[0]), lines[0]


def test_symlink_not_followed_nor_written_through(tmp_path):
    target = tmp_path / "outside" / "real.py"
    target.parent.mkdir()
    target.write_text(TF1)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "link.py").symlink_to(target)
    (tree / "good.py").write_text(TF1)
    result = _invoke("rewrite", "--no-cache", str(tree))
    assert result.exit_code == 123
    assert target.read_text() == TF1
    assert os.path.islink(tree / "link.py")
    assert f"{tree / 'link.py'}:1:1: TFM904" in result.output
    assert "strategy.run(step)" in (tree / "good.py").read_text()


def test_symlink_named_explicitly(tmp_path):
    target = tmp_path / "real.py"
    target.write_text(TF1)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    result = _invoke("rewrite", "--no-cache", str(link))
    assert result.exit_code == 123
    assert target.read_text() == TF1


def test_file_that_vanishes_between_listing_and_reading(tmp_path):
    gone, good = tmp_path / "gone.py", tmp_path / "good.py"
    gone.write_text(TF1)
    good.write_text(TF1)
    candidates = [Candidate(str(gone)), Candidate(str(good))]
    gone.unlink()
    results = {r.path: r for r in run(candidates, RunOptions(mode=Mode.WRITE, jobs=1))}
    assert results[str(gone)].status is Status.FAILED
    assert results[str(gone)].diagnostics[0].code == "TFM905"
    assert not gone.exists()
    assert "strategy.run(step)" in good.read_text()


def _with_extra_rule(monkeypatch, leave_call):
    """Run the real rules plus one deliberately broken rule."""
    from tf2migrate.rules import registry

    class Extra:
        def __init__(self, ctx):
            pass

    Extra.leave_call = staticmethod(leave_call)
    real = registry.plugins
    monkeypatch.setattr(registry, "plugins", lambda ctx: real(ctx) + [Extra(ctx)])


def _rewrite_victim(tmp_path):
    path = tmp_path / "victim.py"
    path.write_text(TF1)
    result = _invoke("rewrite", "--no-cache", "-j", "1", str(path))
    assert result.exit_code == 123
    assert path.read_text() == TF1
    return result.output


def test_rewrite_that_does_not_compile_is_never_written(tmp_path, monkeypatch):
    """The safety net under every rule: a broken rule's output is compiled first and refused."""
    import libcst as cst

    _with_extra_rule(monkeypatch, lambda original, updated: updated.with_changes(func=cst.Name("not valid")))
    assert "TFM999" in _rewrite_victim(tmp_path)


def test_crashing_rule_reports_internal_error(tmp_path, monkeypatch):
    def crash(original, updated):
        raise RuntimeError("boom")

    _with_extra_rule(monkeypatch, crash)
    output = _rewrite_victim(tmp_path)
    assert "TFM999" in output and "boom" in output


@pytest.mark.parametrize("source", [
    "if (n := 10) > 5:\n    loss = strategy.experimental_run_v2(step)\n",
    "x = 1\nprint(f'{x=}')\nloss = strategy.experimental_run_v2(step)\n",
    "match command:\n    case 'train':\n        loss = strategy.experimental_run_v2(step)\n",
    "",
    "# only a comment experimental_run_v2\n",
])
def test_modern_and_empty_files(tmp_path, source):
    """tf_upgrade_v2 crashes on the walrus, f"{x=}" and match; we must not."""
    path = tmp_path / "modern.py"
    path.write_text(source)
    result = _invoke("rewrite", "--no-cache", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text() == source.replace("experimental_run_v2(step)", "run(step)")


def test_a_file_name_cannot_forge_a_diagnostic_line(tmp_path):
    """A name holding a line break printed as is would start a line of its own that reads as a finding."""
    forged = "b.py:7:1: TFM101 [*] forged"
    bad = tmp_path / f"a.py\n{forged}\x1b[2K.py"
    bad.write_bytes(b"print 'py2'\n")
    result = _invoke("rewrite", "--no-cache", str(tmp_path))
    assert result.exit_code == 123
    assert not any(line.startswith(forged) for line in result.output.splitlines()), result.output
    assert f"{tmp_path}/a.py\\n{forged}\\x1b[2K.py:1:1: TFM901 " in result.output
    assert "\x1b" not in result.output


NESTED = {
    # valid Python (the interpreter runs both): TFM999 RecursionError before
    "chain.py": "import tensorflow as tf\ny = tf.to_float(x0) + " + " + ".join(f"x{i}" for i in range(1, 350)) + "\n",
    "lists.py": "import tensorflow as tf\ny = " + "[" * 190 + "tf.to_float(1)" + "]" * 190 + "\n",
}


@pytest.mark.parametrize("name", sorted(NESTED))
def test_deep_nesting_is_rewritten(tmp_path, name):
    path = tmp_path / name
    path.write_text(NESTED[name])
    result = _invoke("rewrite", "--no-cache", "-j", "1", str(path))
    assert result.exit_code == 0, result.output
    new = path.read_text()
    assert new == NESTED[name].replace("tf.to_float(x0)", "tf.cast(x0, dtype=tf.float32)").replace(
        "tf.to_float(1)", "tf.cast(1, dtype=tf.float32)")
    assert _invoke("rewrite", "--no-cache", "-j", "1", str(path)).exit_code == 0 and path.read_text() == new


def test_nesting_deeper_than_the_raised_limit_is_one_line_at_its_deepest_bracket(tmp_path, monkeypatch):
    from tf2migrate.engine import deep

    monkeypatch.setattr(deep, "LIMIT", 1000)  # no more room than the first try had
    path = tmp_path / "lists.py"
    # a rule LibCST must run (TFM663): `tf.to_float` and TFM653 are splices now (rules/code_splice.py)
    text = NESTED["lists.py"].replace("tf.to_float(1)", "tf.nn.dilation2d(x, f, s, r, 'SAME')")
    path.write_text(text)
    result = _invoke("rewrite", "--no-cache", "-j", "1", str(path))
    assert result.exit_code == 123, result.output
    assert f"{path}:2:211: TFM908 nested too deeply" in result.output and "Traceback" not in result.output
    assert path.read_text() == text


def test_a_retry_with_room_to_recurse_does_not_parse_again(tmp_path, monkeypatch):
    """LibCST's parse of a long chain is most of its cost (cubic in the chain's length): the retry reuses it."""
    import libcst

    from tf2migrate.engine import apply

    parsed = []
    real = libcst.parse_module
    monkeypatch.setattr(apply.cst, "parse_module", lambda text, *a, **k: parsed.append(len(text)) or real(text, *a, **k))
    path = tmp_path / "chain.py"
    # a rule LibCST must run (TFM615): `tf.to_float` and TFM653 are splices now (rules/code_splice.py)
    text = NESTED["chain.py"].replace("tf.to_float(x0)", "tf.contrib.summary.always_record_summaries()")
    path.write_text(text)
    result = _invoke("rewrite", "--no-cache", "-j", "1", str(path))
    assert result.exit_code == 0, result.output
    assert "tf.compat.v2.summary.record_if(True) + x1" in path.read_text()
    assert parsed == [len(text)]  # twice before: once per try
    assert not apply._FOR_RETRY


@pytest.mark.parametrize("chain", ["tf.nn.dilation2d(x0, f, s, r, 'SAME') + {}", "tf.nn.dilation2d(x0, f, s, r, 'SAME') or {}"])
def test_an_operator_chain_too_long_for_libcst_is_one_line_at_the_chain(tmp_path, chain):
    from tf2migrate.engine.chains import MAX_TERMS

    terms = (" + " if "+" in chain else " or ").join(f"x{i}" for i in range(1, MAX_TERMS + 5))
    text = "import tensorflow as tf\n\n\ndef f():\n    s = 'é'; y = " + chain.format(terms) + "\n"
    path = tmp_path / "chain.py"
    path.write_text(text)
    result = _invoke("rewrite", "--no-cache", "-j", "1", str(path))
    assert result.exit_code == 123, result.output
    assert f"{path}:5:18: TFM909 an operator chain of {MAX_TERMS + 5:,} terms" in result.output, result.output
    assert "Traceback" not in result.output and path.read_text() == text


def test_a_long_chain_where_no_rule_acts_is_not_parsed_by_libcst(tmp_path):
    from tf2migrate.engine.chains import MAX_TERMS

    quiet = "def g():\n" + "".join(f"    v{i} = {i}\n" for i in range(5)) + "    return " + " + ".join(
        f"x{i}" for i in range(MAX_TERMS + 5)) + "\n"
    path = tmp_path / "chain.py"
    path.write_text("import tensorflow as tf\n\n\n" + quiet + "\n\ny = tf.to_float(x)\n")
    result = _invoke("rewrite", "--no-cache", "-j", "1", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_text().endswith("y = tf.cast(x, dtype=tf.float32)\n")
