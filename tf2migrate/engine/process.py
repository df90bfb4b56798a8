"""One file, start to finish: read, decode, prove cheaply that nothing is to do, or rewrite.

Every way a file can be bad ends here as one diagnostic with a place, and the file untouched.
"""
from __future__ import annotations

import ast
import dataclasses
import enum
import warnings
from dataclasses import dataclass, field
from typing import Optional

from tf2migrate.engine import pieces
from tf2migrate.engine.diagnostics import Diagnostic, Severity, printable
from tf2migrate.engine.ast_index import nodes, spelled_names
from tf2migrate.engine.imports import ImportMap, canonical_tf, is_private
from tf2migrate.engine.lost_names import lost_read
from tf2migrate.engine.rebinding import rebinds_tf
from tf2migrate.engine.rule_set import active
from tf2migrate.engine.source import NEWLINE, DecodeProblem, decode


class Mode(str, enum.Enum):
    WRITE = "write"
    CHECK = "check"
    DIFF = "diff"


class Status(str, enum.Enum):
    UNCHANGED = "unchanged"
    CHANGED = "changed"  # rewritten, or would be with --check/--diff
    FAILED = "failed"


@dataclass
class FileResult:
    path: str
    status: Status
    diagnostics: list = field(default_factory=list)
    diff: str = ""
    digest: Optional[str] = None  # content hash, for the cache
    from_cache: bool = False  # answered by the cache: nothing new to remember

    @property
    def needs_attention(self) -> bool:
        return any(not d.fixed for d in self.diagnostics)


def _fail(path: str, code: str, message: str, line: int = 1, col: int = 1) -> FileResult:
    diag = Diagnostic(path, line, col, code, message, Severity.ERROR)
    return FileResult(path, Status.FAILED, [diag])


def read(path: str):
    """(bytes, None) or (None, a failed result). Only a regular file is read: a FIFO named `x.py` would block
    forever and a device like /dev/zero never ends, so the file is opened without blocking or following a link
    and its kind is checked before a byte is read."""
    from tf2migrate.engine.writer import NotRegular, open_regular

    try:
        with open_regular(path) as handle:
            return handle.read(), None
    except NotRegular as exc:
        return None, _fail(path, "TFM906", f"{exc}: not a regular file, skipped unopened")
    except FileNotFoundError:
        return None, _fail(path, "TFM905", "file vanished before it could be read")
    except IsADirectoryError:
        return None, _fail(path, "TFM905", "is a directory")
    except OSError as exc:
        return None, _fail(path, "TFM905", f"cannot read: {exc.strerror or exc}")


def precheck(path: str, data: bytes, triggers, source: str = "auto", package: bool = False) -> tuple:
    """(source, result): a result when the file is bad or provably needs no change. `triggers`: the
    combined wake words of every rule and table (`rules.wake_words.Triggers`); `package`: the file has
    package neighbours (`Triggers.code_words`)."""
    try:
        src = decode(data)
    except DecodeProblem as exc:
        return None, _fail(path, exc.code, exc.message, exc.line, exc.col)
    attrs, symbols = triggers.scan(src.text)
    fast = symbols & triggers.fast  # words of ast-only report rules (`Ast.ANSWERS` in the manifest) alone
    reported = symbols & triggers.reported  # words of those rules, alone or shared with a table
    words = attrs | symbols
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = pieces.parse(src.text, path)  # cheaper than `compile`, which also generates code
    except SyntaxError as exc:
        hint = " (Python 2 code?)" if _looks_py2(exc) else ""
        return None, _fail(path, "TFM901", f"syntax error: {exc.msg}{hint}", exc.lineno or 1, exc.offset or 1)
    except (ValueError, MemoryError) as exc:
        return None, _fail(path, "TFM901", f"cannot parse: {exc}")
    if not words:
        return src, FileResult(path, Status.UNCHANGED)
    identifiers = spelled_names(tree)
    reports = []  # places where a rule can only report, from `ast` (engine/wake.py)
    if _may_change(tree, attrs, symbols, fast, reported, identifiers, triggers, source, src.text, package, reports):
        return dataclasses.replace(src, tree=tree), None
    if reports and not active().ast_reports_exact(tree):
        return dataclasses.replace(src, tree=tree), None  # only the traversal places them (shape_places.py)
    if reports or reported and _names_public_tf(tree, reported & identifiers) or rebinds_tf(tree):
        return dataclasses.replace(src, tree=tree, fast_only=True), None  # reported from `ast`, never changed
    return src, FileResult(path, Status.UNCHANGED)


def _may_change(tree, attrs: set, symbols: set, fast: set, reported: set, identifiers: set, triggers, source: str,
                text: str, package: bool, reports: list) -> bool:
    """Is there a place where a rule may act (`engine/wake.py`)? Words only in strings and comments are not
    candidates; `estimator_lib.Estimator` from tensorflow_estimator, `tf.constant(x)` and, in TF2 code,
    `tf.argmax(x, 1, out)` are no such place. The report-only rules' words (`fast`, `reported`) count only
    where the Estimator converter, which shares them, may act (rules/idle.py)."""
    from tf2migrate.engine.wake import waking_nodes

    if active().acts_on_imports(tree, attrs | symbols):
        return True  # e.g. an import of tf.contrib is removed or reported, used or not (TFM343)
    imports = ImportMap.from_ast(tree)
    wide = package or bool(reported & triggers.shared & identifiers) and active().shared_words_count(tree, imports)
    attrs, symbols = attrs & identifiers, (symbols if wide else symbols - fast) & identifiers
    if not attrs and not symbols:
        return False
    code = triggers.code_words(text, wide)
    return any(True for _ in waking_nodes(tree, imports, triggers, attrs, symbols, source, code, reports))


def _names_public_tf(tree, symbols: set) -> bool:
    """Does a word of the ast-only report rules name a public TensorFlow symbol through the file's imports
    (`from tensorflow.estimator import X`, `tf1.estimator.X`; never a private `tensorflow.python` name)?"""
    if not symbols:
        return False
    imports = ImportMap.from_ast(tree)
    for node in nodes(tree, ast.ImportFrom, ast.Attribute, ast.Name):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("tensorflow", "tensorflow_estimator"):
            if any(_imports_word(node.module, alias.name, symbols) for alias in node.names):
                return True  # `from tensorflow... import X as y`: y may be used under its alias
        elif isinstance(node, ast.Attribute) and node.attr in symbols or isinstance(node, ast.Name) and node.id in symbols:
            canonical = imports.ast_canonical(node)
            if canonical and not is_private(canonical):  # no rule knows a private name
                return True
    return False


def _imports_word(module: str, name: str, symbols: set) -> bool:
    """`from tensorflow.x import WORD`, or `from tensorflow.estimator import X` (a public module named by a
    word: the names it gives are that rule's); never a private module (`tensorflow.python.*`, or
    tensorflow_estimator's own): no rule knows a private name."""
    path = f"{module}.{name}"
    if canonical_tf(path) is None or is_private(path):
        return False
    return name in symbols or not symbols.isdisjoint(module.split("."))


def _looks_py2(exc: SyntaxError) -> bool:
    text = (exc.text or "").strip()
    return "print" in (exc.msg or "") or text.startswith(("print ", "exec ")) or (
        text.startswith("except") and "," in text) or "ur'" in text or 'ur"' in text


def transform(path: str, data: bytes, src, mode: Mode, selection, package=None) -> FileResult:
    """`package`: the file's `engine.package.PackageView`, when it depends on other modules of the run."""
    import difflib

    from tf2migrate.engine.apply import report_text, rewrite_text
    from tf2migrate.engine.writer import WriteProblem, WriteRefused, write_atomic

    from tf2migrate.engine.chains import TooLong

    try:
        if src.fast_only:
            return FileResult(path, Status.UNCHANGED, report_text(src.text, path, selection, tree=src.tree))
        result = rewrite_text(src.text, path, selection, tree=src.tree, package=package)
    except RecursionError:
        raise  # done again with room to recurse (engine/deep.py)
    except TooLong as exc:
        lines = NEWLINE.split(src.text)
        line = lines[exc.line - 1] if exc.line <= len(lines) else ""
        col = len(line.encode("utf-8")[:exc.col_offset].decode("utf-8", "replace")) + 1  # ast counts bytes
        return _fail(path, "TFM909", str(exc), exc.line, col)
    except Exception as exc:  # a rule crashed: report, never write
        return _fail(path, "TFM999", f"internal error, nothing written: {type(exc).__name__}: {exc}")
    if not result.changed_from(src.text):
        return FileResult(path, Status.UNCHANGED, result.diagnostics)
    try:
        pieces.check_compiles(result.code, path)
    except SyntaxError as exc:
        return _fail(path, "TFM999", f"internal error: the rewrite does not compile ({exc.msg}); nothing written")
    lost = lost_read(src.tree, src.text, result.code)  # a name whose import went, still read (TFM617)
    if lost is not None:
        return _fail(path, "TFM617", lost[2], lost[0], lost[1])
    out = FileResult(path, Status.CHANGED, result.diagnostics)
    if mode is Mode.DIFF:
        out.diff = "".join(difflib.unified_diff(
            src.text.splitlines(True), result.code.splitlines(True), f"a/{printable(path)}", f"b/{printable(path)}"))
    elif mode is Mode.WRITE:
        try:
            write_atomic(path, src.encode(result.code), data)
        except WriteRefused as exc:
            return _fail(path, "TFM907", f"not written: {exc}")
        except (WriteProblem, OSError) as exc:
            return _fail(path, "TFM905", f"not written: {exc}")
    return out
