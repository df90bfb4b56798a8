"""A large module parsed and compiled a piece at a time (engine/pieces.py) gives exactly the whole text's answer.

Each fixture and program is parsed with pieces of one character (so a cut is tried before every line that may
start one) and compared with `ast.parse` of the whole text, node positions included; so are shapes where a cut
is easy to get wrong: a name at column 0 inside a string, brackets or after a backslash, `else`/`except`
continuing a statement, decorators, CRLF and lone-CR line endings, a syntax error in a later piece.
"""
from __future__ import annotations

import ast

import pytest

from tf2migrate.engine import pieces
from tests.conftest import ROOT

SOURCES = sorted([*(ROOT / "fixtures").glob("*/*.before.py"), *(ROOT / "fixtures" / "programs").glob("*/**/*.py")])

SHAPES = {
    "string": "x = 1\ns = '''\ny = 2\nz = 3\n'''\nw = 4\n",
    "brackets": "t = [\nx,\ny,\n]\nd = {\na: 1,\n}\nf(\nk=1)\n",
    "backslash": "x = 1 + \\\ny\nz = 2\n",
    "blocks": "if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\ntry:\n    y = 1\nexcept E:\n    y = 2\n"
              "finally:\n    z = 3\nfor i in r:\n    pass\nelse:\n    q = 1\n",
    "decorators": "@dec\ndef f():\n    pass\n\n@dec\n\nclass C:\n    x = 1\n@a\n@b\ndef g(): pass\n",
    "crlf": "x = 1\r\ns = '''\r\ny = 2\r\n'''\r\nz = 3\r\n",
    "lone_cr": "x = 1\ry = 2\rz = 3\n",
    "mixed": "a = 1\rb = 2\nc = 3\r\nd = 'é'\n\tif x:\n",
    "future": '"""doc"""\nfrom __future__ import annotations\nx = 1\n',
    "fstring": "x = f'''{\ny}\nz = 2\n'''\nw = 1\n",
    "match": "match x:\n    case 1:\n        y = 1\n    case _:\n        y = 2\nz = 3\n",
}


def _dump(tree) -> str:
    return ast.dump(tree, include_attributes=True)


def _same_parse(text: str) -> None:
    try:
        whole = ast.parse(text, filename="f.py")
    except SyntaxError as exc:
        with pytest.raises(SyntaxError) as got:
            pieces.parse(text, "f.py", piece=1, large=0)
        assert (got.value.msg, got.value.lineno, got.value.offset) == (exc.msg, exc.lineno, exc.offset)
        return
    assert _dump(pieces.parse(text, "f.py", piece=1, large=0)) == _dump(whole)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_source_parses_in_pieces_as_whole(path):
    _same_parse(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_shapes_parse_in_pieces_as_whole(name):
    _same_parse(SHAPES[name])


@pytest.mark.parametrize("text", ["x = 1\ny = (\nz = 2\n", "x = 1\ndef f(:\n    pass\ny = 2\n",
                                  "x = 1\ny = 2\n  z = 3\n", "x = 1\nelse:\n    y = 2\n"])
def test_a_syntax_error_is_the_whole_texts(text):
    _same_parse(text)


def test_a_large_text_is_parsed_in_pieces_with_its_lines():
    text = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(2000))
    assert _dump(pieces.parse(text, "f.py", piece=1000, large=0)) == _dump(ast.parse(text))


@pytest.mark.parametrize("text, ok", [
    ("x = 1\ny = 2\n", True),
    ("x = 1\nfrom __future__ import annotations\n", False),  # the compiler's check, across pieces
    ("def f():\n    return 1\nreturn 2\n", False),
    ("x = 1\ny = (\n", False),
    ('"""doc"""\nfrom __future__ import annotations\nx: int = 1\n', True),
])
def test_compiles_in_pieces_as_whole(text, ok):
    if ok:
        pieces.check_compiles(text, "f.py", piece=1, large=0)
    else:
        with pytest.raises(SyntaxError):
            pieces.check_compiles(text, "f.py", piece=1, large=0)
