"""A rewrite keeps what it does not change: line endings, encoding cookie, BOM and mode bits."""
from __future__ import annotations

import codecs
import os
import stat
from pathlib import Path

import pytest
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


def test_a_last_lone_cr_after_lf_lines_is_kept(tmp_path):
    """LibCST drops a last lone \r when the other lines end in \n (found by bench/fuzz_inputs.py)."""
    path = tmp_path / "mixed.py"
    path.write_bytes(b"import tensorflow as tf\nloss = s.experimental_run_v2(f)\ndef f(a):\n    return a\r")
    assert _rewrite(path) == b"import tensorflow as tf\nloss = s.run(f)\ndef f(a):\n    return a\r"


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


# --- writes that respect the file system: owner, group, mode, links, and only regular files -----------------

TF1_LINE = b"import tensorflow as tf\nloss = s.experimental_run_v2(f)\n"
NEW_LINE = b"import tensorflow as tf\nloss = s.run(f)\n"


def _nobody():
    """(uid, gid) of `nobody`, or skip: only root can run a command as another user."""
    import pwd

    if not hasattr(os, "fork") or os.geteuid() != 0:
        pytest.skip("the ownership tests run a rewrite as `nobody`: this needs root (fork, then setuid)")
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user `nobody` on this machine")
    return entry.pw_uid, entry.pw_gid


def _rewrite_as(uid, gid, path) -> tuple:
    """(exit code, output) of `rewrite --no-cache -j 1 PATH` in a forked child that became uid/gid. The child
    imports what the rewrite imports before it gives up root (this venv may be in a folder only root reads)."""
    import tempfile

    import tf2migrate.engine.apply  # noqa: F401
    import tf2migrate.engine.writer  # noqa: F401
    from tf2migrate.rules.tables import load_tables

    load_tables()
    out = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 99
        try:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            result = CliRunner().invoke(main, ["rewrite", "--no-cache", "-j", "1", str(path)])
            out.write(result.output.encode())
            code = result.exit_code
        finally:
            out.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    out.seek(0)
    return os.waitstatus_to_exitcode(status), out.read().decode()


@pytest.fixture
def shared_dir():
    """A folder every user may write (pytest's tmp_path is root's alone)."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="tf2migrate-owner-")
    os.chmod(folder, 0o777)
    yield Path(folder)
    shutil.rmtree(folder)


def test_a_file_of_another_user_keeps_its_owner_group_and_mode(shared_dir):
    """Run as root, the temporary file and rename made every rewritten file root's."""
    uid, gid = _nobody()
    path = shared_dir / "theirs.py"
    path.write_bytes(TF1_LINE)
    os.chown(path, uid, gid)
    os.chmod(path, 0o640)
    assert _rewrite(path) == NEW_LINE
    st = os.stat(path)
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (uid, gid, 0o640)


@pytest.mark.parametrize("mode", [0o644, 0o444])
def test_a_file_this_user_may_not_write_is_never_replaced(shared_dir, mode):
    """As `nobody` in a folder it may write, a root file was replaced through the folder and became nobody's."""
    uid, gid = _nobody()
    path = shared_dir / "roots.py"
    path.write_bytes(TF1_LINE)
    os.chmod(path, mode)
    code, output = _rewrite_as(uid, gid, path)
    assert code == 123, output
    assert f"{path}:1:1: TFM907 not written" in output
    st = os.stat(path)
    assert path.read_bytes() == TF1_LINE and st.st_uid == 0 and stat.S_IMODE(st.st_mode) == mode


def test_a_file_another_user_lets_this_one_write_is_written_in_place(shared_dir):
    """Group-writable for nobody's group: nobody may write it, but not make it its own."""
    uid, gid = _nobody()
    path = shared_dir / "group.py"
    path.write_bytes(TF1_LINE)
    os.chown(path, 0, gid)
    os.chmod(path, 0o664)
    inode = os.stat(path).st_ino
    code, output = _rewrite_as(uid, gid, path)
    assert code == 0, output
    st = os.stat(path)
    assert path.read_bytes() == NEW_LINE
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode), st.st_ino) == (0, gid, 0o664, inode)


def test_hard_links_are_kept(tmp_path):
    """A rename split a hard-linked file: the other name kept the old code."""
    path, other = tmp_path / "model.py", tmp_path / "other_name"
    path.write_bytes(TF1_LINE)
    os.link(path, other)
    assert _rewrite(path) == NEW_LINE
    assert other.read_bytes() == NEW_LINE and os.stat(other).st_ino == os.stat(path).st_ino


def test_a_full_disk_leaves_a_hard_linked_file_whole(tmp_path, monkeypatch):
    """Written in place, a file must not be half overwritten: the room is reserved before the first byte."""
    path = tmp_path / "model.py"
    path.write_bytes(TF1_LINE)
    os.link(path, tmp_path / "other_name")

    def full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", full)
    result = CliRunner().invoke(main, ["rewrite", "--no-cache", str(path)])
    assert result.exit_code == 123 and " TFM905 not written: no room" in result.output, result.output
    assert path.read_bytes() == TF1_LINE


def _special_files(folder: Path) -> list:
    """A FIFO and a socket named like Python files (and a character device like /dev/zero, where allowed)."""
    import socket

    os.mkfifo(folder / "fifo.py")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(folder / "sock.py"))
    sock.close()
    names = ["fifo.py", "sock.py"]
    try:
        os.mknod(folder / "zero.py", 0o644 | stat.S_IFCHR, os.makedev(1, 5))
        names.append("zero.py")
    except PermissionError:
        pass
    return names


@pytest.mark.parametrize("command, named", [("rewrite", False), ("rewrite", True), ("check", False)],
                         ids=["walked", "named", "check"])
def test_fifos_devices_and_sockets_are_skipped_unopened(tmp_path, command, named):
    """A FIFO named x.py hung `rewrite .`, `rewrite x.py` and `check .` forever; a character device was read
    until MemoryError."""
    import subprocess
    import sys

    names = _special_files(tmp_path)
    (tmp_path / "good.py").write_bytes(TF1_LINE)
    paths = [str(tmp_path / n) for n in names + ["good.py"]] if named else [str(tmp_path)]
    run = subprocess.run([sys.executable, "-m", "tf2migrate", command, "--no-cache", *paths],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 123, run.stderr
    for name in names:
        lines = [line for line in run.stderr.splitlines() if line.startswith(str(tmp_path / name))]
        assert len(lines) == 1 and " TFM906 " in lines[0] and "not a regular file" in lines[0], run.stderr
    assert "Traceback" not in run.stderr
    assert (tmp_path / "good.py").read_bytes() == (NEW_LINE if command == "rewrite" else TF1_LINE)
