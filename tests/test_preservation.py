"""A rewrite keeps what it does not change: line endings, encoding cookie, BOM and mode bits."""
from __future__ import annotations

import codecs
import os
import stat

from click.testing import CliRunner

from tf2migrate.cli.app import main


def _rewrite(path):
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", str(path)])
    assert result.exit_code == 0, result.output
    return path.read_bytes()


def test_crlf_kept(tmp_path):
    path = tmp_path / "crlf.py"
    path.write_bytes(b"import tensorflow as tf\r\nloss = s.experimental_run_v2(f)\r\n\r\nx = 1\r\n")
    assert _rewrite(path) == b"import tensorflow as tf\r\nloss = s.run(f)\r\n\r\nx = 1\r\n"


def test_cr_only_line_endings_kept_to_the_last_byte(tmp_path):
    path = tmp_path / "cr.py"
    path.write_bytes(b"import tensorflow as tf\rloss = s.experimental_run_v2(f)\r\rx = 1\r")
    assert _rewrite(path) == b"import tensorflow as tf\rloss = s.run(f)\r\rx = 1\r"


def test_crlf_kept_when_an_import_is_added(tmp_path):
    path = tmp_path / "crlf_import.py"
    path.write_bytes(b"import tensorflow.compat.v1 as tf1\r\np = tf1.fixed_size_partitioner(2)\r\n")
    out = _rewrite(path)
    assert b"\n" not in out.replace(b"\r\n", b"")
    assert b"import tensorflow as tf\r\n" in out


def test_mode_bits_kept(tmp_path):
    path = tmp_path / "script.py"
    path.write_text("#!/usr/bin/env python\nloss = s.experimental_run_v2(f)\n")
    os.chmod(path, 0o755)
    _rewrite(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o755


def test_latin1_cookie_kept(tmp_path):
    path = tmp_path / "latin.py"
    src = "# -*- coding: latin-1 -*-\n# auteur: Jos\xe9\nloss = s.experimental_run_v2(f)\n"
    path.write_bytes(src.encode("latin-1"))
    out = _rewrite(path)
    assert out == src.replace("experimental_run_v2", "run").encode("latin-1")


def test_bom_kept(tmp_path):
    path = tmp_path / "bom.py"
    path.write_bytes(codecs.BOM_UTF8 + "# é\nloss = s.experimental_run_v2(f)\n".encode())
    out = _rewrite(path)
    assert out == codecs.BOM_UTF8 + "# é\nloss = s.run(f)\n".encode()


def test_no_temporary_files_left(tmp_path):
    path = tmp_path / "clean.py"
    path.write_text("loss = s.experimental_run_v2(f)\n")
    _rewrite(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clean.py"]


def test_a_suppression_comment_in_a_cr_only_file_silences_its_own_line():
    """The comments were tokenized without universal newlines: in a file whose lines end in a lone \\r, every
    comment was placed on line 1, so `# tf2migrate: skip` silenced nothing (or the wrong line)."""
    from tf2migrate.engine.api import Selection, rewrite_text

    text = "import tensorflow as tf\rx = tf.log(1.0)  # tf2migrate: skip\ry = tf.log(2.0)\r"
    result = rewrite_text(text, "m.py", Selection(source="tf1"))
    assert result.code == "import tensorflow as tf\rx = tf.log(1.0)  # tf2migrate: skip\ry = tf.math.log(2.0)\r"
    assert [(d.line, d.code) for d in result.diagnostics] == [(3, "TFM601")]
