"""A rewrite ends every line as the file does, new lines too: a file of CRLF or lone-CR lines is rewritten to
its LF rewrite with those breaks, on every golden fixture and every program pair (bench/fuzz_inputs.py found a
generated docstring that kept its template's \\n in a CRLF file, est_tpu_predict's predict_all)."""
from __future__ import annotations

import tomllib

import pytest

from tf2migrate.engine.api import Selection, rewrite_text
from tf2migrate.engine.line_breaks import kept
from tests.conftest import ROOT

def _golden(path):
    """The reviewed LF rewrite of a fixture or a program pair (tests/test_fixtures.py, test_program_rewrites.py)."""
    if path.name == "original.py":
        return None if (path.parent / "hand_written.txt").exists() else path.with_name("migrated.py")
    return path.with_name(path.name.replace(".before.py", ".after.py"))


FILES = sorted(p for p in [*(p for p in (ROOT / "fixtures").glob("*/*.before.py") if p.parent.name != "programs"),
                           *(ROOT / "fixtures" / "programs").glob("*/original.py")]
               if _golden(p) is not None and _golden(p).exists())  # a file the rewrite leaves has no new lines


def _selection(path) -> Selection:
    options = path.parent / "rewrite.toml"
    return Selection(**tomllib.loads(options.read_text(encoding="utf-8"))) if options.exists() else Selection()


def test_the_files_are_the_rewritten_fixtures_and_programs():
    assert len(FILES) >= 150 and ROOT / "fixtures" / "programs" / "est_tpu_predict" / "original.py" in FILES


@pytest.mark.parametrize("path, newline", [(p, ("\r\n", "\r")[k % 2]) for k, p in enumerate(FILES)],
                         ids=lambda v: f"{v.parent.name}/{v.name}" if hasattr(v, "name") else repr(v))
def test_crlf_and_cr_files_are_rewritten_as_lf_ones_with_their_own_breaks(path, newline):
    """Every other file in CRLF, the others in lone CR (a rule's new line is seldom the file's only one)."""
    text, plain = path.read_text(encoding="utf-8"), _golden(path).read_text(encoding="utf-8")
    got = rewrite_text(text.replace("\n", newline), str(path), _selection(path)).code
    assert got == plain.replace("\n", newline), f"{got.replace(newline, '').count(chr(10))} line breaks of the " \
                                                 "rule's own"


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_new_breaks_inside_a_string_or_after_a_backslash_take_the_files_break(newline):
    text = "import tensorflow as tf{0}x = 1{0}"
    code = 'import tensorflow as tf{0}def f():{0}    """One.{1}    Two."""{0}    return 1 + \\{1}        2{0}x = 1{0}'
    assert kept(text.format(newline), code.format(newline, "\n")) == code.format(newline, newline)


def test_a_file_of_mixed_breaks_and_an_lf_file_are_left_as_the_rewrite_wrote_them():
    code = 'x = 1\n"""a\nb"""\n'
    assert kept("x = 1\r\ny = 2\n", code) == code
    assert kept("x = 1\ny = 2\n", code) == code
