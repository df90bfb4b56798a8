"""Lay `tf2migrate/rules/estimator/` out in rooms by phase (issue 17, point 0): moves and renames only.

The Estimator converter grew to one folder of flat modules. This script moves each module into the room (sub-package)
its line of `TABLE` names, under the name that line gives, and rewrites every import of it across the repository
(absolute and relative, with LibCST: a renamed module's local name is renamed where that import binds it, by scope).
No content is merged or split, so branches that edited the flat modules merge with git's rename detection.

It is deterministic and re-runnable: a module already in its room is left there, a second run changes nothing. It
fails, changing nothing, when a flat module of the package has no line in `TABLE` (add one line per new module and
run again), when two lines give one place, or when an import cannot be rewritten safely (listed).

Steps for the lead, at the end, on the merged main. Merge the other branches first, then only this script's
commits of branch est-layout (the tool commits come before the commit of the moved tree; `git log est-layout`), so
the move is made again on the tree as merged rather than merged over the others' edits:

    git merge --no-ff <last tools commit of est-layout>       # tools/layout_estimator.py, tools/compare_rewrites.py
    . ~/.cache/tf2migrate/venv/bin/activate && export PYTHONPATH=$PWD
    python tools/compare_rewrites.py snapshot /tmp/before.json /work/survey/programs/*/   # before the move
    python tools/layout_estimator.py --arrows          # arrows and cycles, the flat tree read through TABLE
    python tools/layout_estimator.py                   # fails listing new flat modules: add a TABLE line each
    python tools/layout_estimator.py                   # moves, rewrites, lists mentions to check by eye
    python tools/layout_estimator.py --check           # a second run: "nothing to do", exit 0
    python tools/layout_estimator.py --arrows          # after: the same arrows, now between rooms
    python tools/compare_rewrites.py snapshot /tmp/after.json /work/survey/programs/*/
    python tools/compare_rewrites.py diff /tmp/before.json /tmp/after.json                # 0 cases differ
    python -m pytest -m "not slow" -q -x -p no:cacheprovider
    git add -A tf2migrate tests tools bench && git commit
    git cherry-pick <README commit of est-layout>      # README's paragraph on estimator/ (names the new places)

Merging all of est-layout (the moved tree too) also works when the others' edits follow git's rename detection;
after that merge, run the script again: it places new flat modules (one TABLE line each) and rewrites imports that
still name old places. A modify/delete conflict on a module: keep the other branch's flat file, remove the moved
copy, and run the script.

`--check` says what a run would do and exits 1 if anything is to move.
"""
from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, ScopeProvider

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "tf2migrate.rules.estimator"
FOLDER = ROOT / "tf2migrate" / "rules" / "estimator"

# The rooms, in the order a conversion goes through them, with what belongs in each (each room's __init__ docstring).
ROOMS = {
    "": "Estimator -> Keras + Strategy (TFM3xx): the structural migration, laid out in rooms by phase.\n\n"
        "`plugin.py` is the entry point: it finds the program (program/; the readers of TF1 shapes are in\n"
        "reading/) and converts it in three steps (`convert.py`): the plan (`program_plan.py`: the model's path,\n"
        "the strategy, the Keras target, the writer; one module per TF1 concept in planning/, one room per model\n"
        "path: idiomatic/, shim_path/, default_path/), the rendering of each statement and the splice of the new\n"
        "body (writing/). package/ holds the helper's side of a program spread over modules; syntax/ the LibCST\n"
        "helpers every phase uses. Either the whole program is converted or nothing is (`failures.py`); `codes.py`\n"
        "and `examples.py` document TFM3xx. Imports go down this list: package, writing, program, the paths,\n"
        "planning, reading, syntax (`python tools/layout_estimator.py --arrows` counts those that do not).",
    "syntax": "LibCST helpers every phase uses: a call's arguments bound to its TF1 signature, the respelled source\n"
              "of kept expressions, generated code built from templates. Nothing Estimator-specific is decided here.",
    "reading": "Reading TF1 shapes as written, deciding nothing: the uses of a program's names, a model_fn's spec and\n"
               "modes, where a statement stands, and where an Estimator is built (`main()`, an if/else, a builder\n"
               "function, a model_fn closure).",
    "planning": "What each TF1 concept becomes in Keras, one module per concept (optimizers, schedules, losses,\n"
                "metrics, hooks and callbacks, exporters, TPU, strategy, canned estimators), the plan's types\n"
                "(`plan_types.py`) and the notes a converted program reports.",
    "idiomatic": "The idiomatic path: a model_fn read as a chain of layers, written as a compiled `tf.keras.Sequential`.",
    "shim_path": "The shim path: a forward pass kept verbatim in a Keras layer under `track_tf1_style_variables`, and what\n"
            "it needs to run as the model_fn ran (layer names, the `training` flag).",
    "default_path": "The default (general) path: a `tf.keras.Model` subclass that keeps the model_fn's own statements,\n"
               "split into the forward pass, train_step, test_step and predict_step.",
    "program": "The Estimator program found and read whole: its `Estimator(...)` call and everything it is built from\n"
               "or used by, in this module or, for a package, in the module whose helper builds it.",
    "writing": "Writing the Keras program from the plan: the model builder (`keras_source.py`), each top-level\n"
               "statement's replacement, the runs, the splice of the new body, and the check of the output before it\n"
               "is written.",
    "package": "The helper's side of a program spread over a package (`model.py`'s builder, converted with the\n"
               "`task.py` that trains it), and the finding when the two cannot convert together.",
}

# Module (as named in the flat folder) -> "room/new_name" ("new_name" alone: stays in the package's top level).
TABLE = {
    "plugin": "plugin",
    "convert": "convert",
    "conversion": "program_plan",
    "failures": "failures",
    "codes": "codes",
    "examples": "examples",
    "args": "syntax/args",
    "render": "syntax/kept_source",
    "templates": "syntax/templates",
    "uses": "reading/uses",
    "spec": "reading/spec",
    "optimize_loss": "reading/optimize_loss",
    "modes": "reading/modes",
    "statement_paths": "reading/statement_paths",
    "scope": "reading/main_body",
    "switch": "reading/switch",
    "builders": "reading/builders",
    "closures": "reading/closures",
    "plans": "planning/plan_types",
    "strategy": "planning/strategy",
    "target": "planning/target",
    "tpu": "planning/tpu",
    "cross_shard": "planning/cross_shard",
    "optimizers": "planning/optimizers",
    "schedules": "planning/schedules",
    "losses": "planning/losses",
    "regularization": "planning/regularization",
    "metrics": "planning/metrics",
    "metric_fn": "planning/metric_fn",
    "inline_metrics": "planning/inline_metrics",
    "hooks": "planning/hooks",
    "callbacks": "planning/callbacks",
    "exporters": "planning/exporters",
    "canned": "planning/canned",
    "built_columns": "planning/built_columns",
    "result_reads": "planning/result_reads",
    "notes": "planning/notes",
    "model_fn": "idiomatic/model_fn",
    "model_fn_spec": "idiomatic/model_fn_spec",
    "forward": "idiomatic/forward",
    "chain": "idiomatic/chain",
    "layers": "idiomatic/layers",
    "shim": "shim_path/kept_forward",
    "shim_guards": "shim_path/guards",
    "training_flag": "shim_path/training_flag",
    "general": "default_path/model_subclass",
    "general_read": "default_path/kept_statements",
    "general_setup": "default_path/setup_statements",
    "general_metrics": "default_path/metric_ops",
    "train_op": "default_path/train_op",
    "gradients": "default_path/gradients",
    "tf1_style": "default_path/tf1_style",
    "analyze": "program/analyze",
    "program_parts": "program/parts",
    "other_module": "program/built_elsewhere",
    "other_model_fn": "program/model_fn_elsewhere",
    "emit": "writing/keras_source",
    "program_render": "writing/program_statements",
    "assemble": "writing/body_pieces",
    "general_render": "writing/model_subclass_source",
    "splice": "writing/splice",
    "runs": "writing/runs",
    "run_blocks": "writing/run_blocks",
    "numpy_input": "writing/numpy_input",
    "output_check": "writing/output_check",
    "helper_module": "package/helper_side",
    "other_module_report": "package/not_converted_report",
    "branch_config": "planning/branch_config",
    "canned_combined": "planning/canned_combined",
    "canned_results": "planning/canned_results",
    "linear_columns": "planning/linear_columns",
    "keras_estimator": "planning/keras_estimator",
    "estimator_wrappers": "planning/estimator_wrappers",
    "keras_metric_objects": "planning/keras_metric_objects",
    "params_optimizer": "planning/params_optimizer",
    "contrib_gone": "planning/contrib_gone",
    "horovod": "planning/horovod",
    "choice_chain": "reading/choice_chain",
    "branch_outside": "reading/branch_outside",
    "builder_chain": "reading/builder_chain",
    "undefined_input": "reading/undefined_input",
    "best_exporter": "planning/best_exporter",
    "unused_estimator": "program/unused_estimator",
    "general_tpu": "default_path/tpu_steps",
    "keras_once": "default_path/keras_once",
    "made_once": "default_path/made_once",
    "mode_twins": "default_path/mode_twins",
    "imported_model_fn": "program/imported_model_fn",
    "replicate": "planning/replicate",
    "foreign_hooks": "planning/foreign_hooks",
    "serving_inputs": "writing/serving_inputs",
    "closure_elsewhere": "program/closure_elsewhere",
    "star_import": "program/star_import",
    "model_fn_users": "package/model_fn_users",
    "input_modules": "writing/input_modules",
    "input_side": "package/input_side",
    "mode_steps": "default_path/mode_steps",
    "unpacked_columns": "planning/unpacked_columns",
    "whole_results": "planning/whole_results",
    "idle_neighbours": "package/idle_neighbours",
    "walk": "syntax/walk",
    "estimator_calls": "writing/estimator_calls",
    "subclass_steps": "writing/subclass_steps",
    "prediction_source": "writing/prediction_source",
    "returned_datasets": "writing/returned_datasets",
    "canned_source": "writing/canned_source",
    "model_fn_statements": "idiomatic/model_fn_statements",
    "setup_values": "default_path/setup_values",
}

SCANNED = ("tf2migrate", "tests", "tools", "bench", "examples")  # Python whose imports are rewritten
TEXTS = ("README.md", "bench/README.md", "rules", "fixtures/programs/README.md")  # docs naming module paths


class LayoutError(Exception):
    pass


def _dotted(place: str) -> str:
    return PACKAGE + "." + place.replace("/", ".")


def _moves() -> dict:
    """Old dotted module -> new dotted module, for every line of TABLE."""
    return {f"{PACKAGE}.{old}": _dotted(new) for old, new in TABLE.items()}


def new_name(dotted: str, moves: dict) -> str:
    """`...estimator.emit` or `...estimator.emit.X` -> its new place; anything else unchanged."""
    for old, new in moves.items():
        if dotted == old or dotted.startswith(old + "."):
            return new + dotted[len(old):]
    return dotted


def check_table() -> list:
    """(old path, new path) of every module still to move; raises when the folder and the table disagree."""
    problems = []
    places = {}
    for old, new in TABLE.items():
        if new in places:
            problems.append(f"{old} and {places[new]} both go to {new}")
        places[new] = old
    for room in {new.split("/")[0] for new in TABLE.values() if "/" in new}:
        if room not in ROOMS:
            problems.append(f"room {room} has no docstring in ROOMS")
    for name in set(ROOMS) | {new for new in TABLE.values() if "/" not in new}:
        if name in TABLE and TABLE[name] != name:  # `estimator.x` would mean both the old module and the new place
            problems.append(f"{name} is both a module that moves and a new place: choose another name")
    flat = sorted(p.stem for p in FOLDER.glob("*.py") if p.stem != "__init__")
    unplaced = [m for m in flat if m not in TABLE and m not in places]
    if unplaced:
        problems.append("modules with no line in TABLE (add one line each, e.g. \"name\": \"room/name\"): "
                        + ", ".join(unplaced))
    todo = []
    for old, new in TABLE.items():
        source, dest = FOLDER / f"{old}.py", FOLDER / f"{new}.py"
        if source == dest:
            if not source.exists():
                problems.append(f"{old}: not found")
        elif source.exists() and dest.exists():
            problems.append(f"{old}: both {source.relative_to(ROOT)} and {dest.relative_to(ROOT)} exist")
        elif source.exists():
            todo.append((source, dest))
        elif not dest.exists():
            problems.append(f"{old}: neither {source.relative_to(ROOT)} nor {dest.relative_to(ROOT)} exists")
    if problems:
        raise LayoutError("\n".join(problems))
    return todo


# ---- imports -------------------------------------------------------------------------------------------------------

def _module_of(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package_of(path: Path) -> str:
    """The package a relative import in `path` starts from."""
    module = _module_of(path)
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _attr(dotted: str) -> cst.BaseExpression:
    parts = dotted.split(".")
    node = cst.Name(parts[0])
    for part in parts[1:]:
        node = cst.Attribute(node, cst.Name(part))
    return node


def _dotted_of(node) -> str:
    if node is None:
        return ""
    if isinstance(node, cst.Name):
        return node.value
    return _dotted_of(node.value) + "." + node.attr.value


def _relative(target: str, package: str) -> tuple:
    """(level, module or "") to reach `target` from `package` with a relative import."""
    t, p = target.split("."), package.split(".")
    common = 0
    while common < min(len(t), len(p)) and t[common] == p[common]:
        common += 1
    if common == 0:
        raise LayoutError(f"{target} is not reachable relatively from {package}")
    return len(p) - common + 1, ".".join(t[common:])


def _is_module(dotted: str, moves: dict) -> bool:
    return dotted in moves.values() or dotted in moves


class _Imports(cst.CSTTransformer):
    """Rewrites the imports of one file; collects the local names a renamed module's import binds."""

    def __init__(self, path: Path, package_before: str, package_after: str, moves: dict):
        super().__init__()
        self.path, self.before, self.after, self.moves = path, package_before, package_after, moves
        self.renamed = []  # (import alias node, old local name, new local name)
        self.problems = []
        self.names = {}  # id(Name node) -> new value: the uses of a renamed module's local name
        self.touched = False  # an import was rewritten: the package's import lines are put back in order

    def leave_Module(self, original, updated):
        return updated.with_changes(body=self._in_order(updated.body)) if self.touched else updated

    def leave_IndentedBlock(self, original, updated):
        return updated.with_changes(body=self._in_order(updated.body)) if self.touched else updated

    @staticmethod
    def _in_order(body) -> list:
        """Each run of consecutive `from tf2migrate.rules.estimator... import` lines sorted by module (a blank line
        or a comment ends a run), as they were sorted by their old names."""
        def key(stmt):
            if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
                return None
            node = stmt.body[0]
            if not isinstance(node, cst.ImportFrom) or node.relative or not _dotted_of(node.module).startswith(PACKAGE):
                return None
            return _dotted_of(node.module)

        out, run = [], []
        for stmt in list(body) + [None]:
            k = key(stmt) if stmt is not None else None
            if k is not None and (not run or not stmt.leading_lines):
                run.append(stmt)
                continue
            if run:
                head = run[0].leading_lines
                ordered = sorted(run, key=key)
                out += [st.with_changes(leading_lines=head if i == 0 else []) for i, st in enumerate(ordered)]
            run = [stmt] if k is not None else []
            if k is None and stmt is not None:
                out.append(stmt)
        return out

    def leave_Name(self, original, updated):
        new = self.names.get(id(original))
        return updated.with_changes(value=new) if new else updated

    def _absolute(self, node: cst.ImportFrom) -> str:
        level = len(node.relative)
        module = _dotted_of(node.module)
        if not level:
            return module
        base = self.before.split(".")
        base = base[: len(base) - level + 1]
        return ".".join(base + ([module] if module else []))

    def _module_expr(self, target: str, relative: bool):
        if not relative:
            return [], _attr(target)
        level, module = _relative(target, self.after)
        return [cst.Dot()] * level, (_attr(module) if module else None)

    def leave_SimpleStatementLine(self, original, updated):
        froms = [s for s in updated.body if isinstance(s, cst.ImportFrom)]
        imports = [s for s in updated.body if isinstance(s, cst.Import)]
        for imp in imports:
            for alias in imp.names:
                name = _dotted_of(alias.name)
                if new_name(name, self.moves) != name:
                    self.problems.append(f"{self.path}: `import {name}`: rewrite by hand (attribute chains)")
        if not froms:
            return updated
        if len(updated.body) != 1:
            if any(self._groups(s) is not None for s in froms):
                self.problems.append(f"{self.path}: an import to rewrite shares its line with other statements")
            return updated
        groups = self._groups(froms[0])
        if groups is None:
            return updated
        self.touched = True
        lines = []
        for i, (target, names) in enumerate(groups):
            relative, module = self._module_expr(target, bool(froms[0].relative))
            stmt = froms[0].with_changes(relative=relative, module=module, names=names)
            if len(groups) > 1:
                stmt = stmt.with_changes(lpar=None, rpar=None)
            line = updated.with_changes(body=[stmt])
            if i:
                line = line.with_changes(leading_lines=[])
            lines.append(line)
        return cst.FlattenSentinel(lines) if len(lines) > 1 else lines[0]

    def _groups(self, node: cst.ImportFrom):
        """None when unchanged, else [(target module, names)] in the order of first appearance."""
        source = self._absolute(node)
        moved = self.after != self.before and node.relative
        target = new_name(source, self.moves)
        if target != source or isinstance(node.names, cst.ImportStar):
            return None if target == source and not moved else [(target, node.names)]
        groups = {}
        changed = False
        for alias in node.names:
            name = _dotted_of(alias.name)
            full = f"{source}.{name}"
            new_full = new_name(full, self.moves)
            if new_full == full:
                groups.setdefault(source, []).append(alias)
                continue
            changed = True
            parent, _, leaf = new_full.rpartition(".")
            if leaf != name:
                new_alias = alias.with_changes(name=cst.Name(leaf))
                if alias.asname is None:
                    self.renamed.append((alias, name, leaf))
            else:
                new_alias = alias
            groups.setdefault(parent, []).append(new_alias)
        if not changed and not moved:
            return None
        if len(groups) == 1:  # one statement: the names keep their commas and layout
            (parent, aliases), = groups.items()
            return [(parent, aliases)]
        out = []
        for parent, aliases in groups.items():
            last = aliases[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
            out.append((parent, [a.with_changes(comma=comma) for a in aliases[:-1]] + [last]))
        return out


def _renamed_uses(module: cst.Module, imports: _Imports) -> None:
    """Finds, by scope, every use of a local name that the import of a renamed module binds (`from . import emit`
    then `emit.x`): `imports.names` gets them, so the rewrite renames them with the import."""
    scopes = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    wanted = []

    class Find(cst.CSTVisitor):
        def visit_ImportFrom(self, node):
            groups = imports._groups(node)
            wanted.extend((node, alias, old, new) for alias, old, new in imports.renamed)
            imports.renamed.clear()
            return False

    module.visit(Find())
    for node, alias, old, new in wanted:
        scope = scopes.get(alias) or scopes.get(node)
        if scope is None:
            imports.problems.append(f"{imports.path}: no scope for the import of `{old}`")
            continue
        if scope[new]:
            imports.problems.append(f"{imports.path}: `{new}` (the new name of module `{old}`) is already bound")
        for assignment in scope[old]:
            if getattr(assignment, "node", None) not in (node, alias):
                continue
            for access in assignment.references:
                if isinstance(access.node, cst.Name):
                    imports.names[id(access.node)] = new
                else:
                    imports.problems.append(f"{imports.path}: a use of `{old}` that is not a plain name")


def rewrite_imports(path: Path, path_after: Path, moves: dict) -> tuple:
    """(new text or None when unchanged, problems) for one Python file."""
    text = path.read_text(encoding="utf-8")
    if PACKAGE.rpartition(".")[2] not in text and "from ." not in text:
        return None, []
    module = cst.parse_module(text)
    imports = _Imports(path.relative_to(ROOT), _package_of(path), _package_of(path_after), moves)
    _renamed_uses(module, imports)
    if imports.problems:
        return None, imports.problems
    new = module.visit(imports)
    if imports.problems:
        return None, imports.problems
    return (new.code if new.code != text else None), []


# ---- mentions in docstrings, comments and docs -----------------------------------------------------------------------

def _text_moves() -> list:
    """(pattern, replacement) for module paths written in text: `rules/estimator/emit.py` and the dotted name."""
    out = []
    for old, new in TABLE.items():
        if old != new:
            out.append((re.compile(rf"\brules/estimator/{old}\.py\b"), f"rules/estimator/{new}.py"))
            out.append((re.compile(rf"\b{re.escape(PACKAGE)}\.{old}\b"), _dotted(new)))
    return out


def _renames() -> list:
    """(old, new) module names of the modules whose name changes."""
    return [(old, new.rpartition("/")[2]) for old, new in TABLE.items() if old != new.rpartition("/")[2]]


def _file_mentions(renames: list) -> list:
    """(pattern, replacement) for `emit.py` written as a file name."""
    return [(re.compile(rf"(?<![\w/.]){old}\.py\b"), f"{new}.py") for old, new in renames]


def _attribute_mentions(renames: list) -> list:
    """(pattern, replacement) for `emit.Writer` written in the package's own docstrings and comments."""
    return [(re.compile(rf"(?<![\w/.]){old}\.(?=[A-Za-z_])"), f"{new}.") for old, new in renames]


def _subs(text: str, patterns: list) -> str:
    for pattern, replacement in patterns:
        text = pattern.sub(replacement, text)
    return text


def rewrite_mentions(text: str, patterns: list, prose: list = ()) -> str:
    """The same text with `patterns` applied inside string and comment tokens only, and `prose` inside comments and
    triple-quoted strings (docstrings) only."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    edits = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.STRING, tokenize.COMMENT) or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            new = _subs(tok.string, patterns)
            if tok.type == tokenize.COMMENT or tok.string.endswith(('"""', "'''")):
                new = _subs(new, prose)
            if new != tok.string:
                begin = starts[tok.start[0] - 1] + tok.start[1]
                end = starts[tok.end[0] - 1] + tok.end[1]
                edits.append((begin, end, new))
    for begin, end, new in sorted(edits, reverse=True):
        text = text[:begin] + new + text[end:]
    return text


def leftover_mentions(files: list) -> list:
    """`path:line: text` of the old names of renamed modules still written as `old.py` or `` `old.x` `` (docs to
    check by eye: such a name may mean another module)."""
    olds = [old for old, _ in _renames()]
    pattern = re.compile(rf"(?<![\w/.])(?:{'|'.join(olds)})\.py\b|`(?:{'|'.join(olds)})\.\w")
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:110]}")
    return found


# ---- the run ---------------------------------------------------------------------------------------------------------

def _python_files() -> list:
    return sorted(p for top in SCANNED if (ROOT / top).exists() for p in (ROOT / top).rglob("*.py")
                  if "__pycache__" not in p.parts and p != Path(__file__).resolve())


def _text_files() -> list:
    out = []
    for name in TEXTS:
        path = ROOT / name
        out += sorted(p for p in path.rglob("*") if p.suffix in (".md", ".toml")) if path.is_dir() else (
            [path] if path.exists() else [])
    return out


def _docstring(text, doc: str) -> str:
    """`text` (None: a new module) with its docstring set to `doc`."""
    new = '"""' + doc + '\n"""\n'
    if text is None:
        return new
    tree = ast.parse(text)
    if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant) \
            and isinstance(tree.body[0].value.value, str):
        lines = text.splitlines(keepends=True)
        first = tree.body[0]
        return "".join(lines[: first.lineno - 1]) + new + "".join(lines[first.end_lineno:])
    return new + text


def plan() -> tuple:
    """(moves still to do, {path: new text}, room __init__ texts {path: text}); raises LayoutError."""
    todo = check_table()
    moved = dict(todo)
    moves = _moves()
    texts, problems = {}, []
    paths = _text_moves()
    renamed = _file_mentions(_renames()) + _attribute_mentions(_renames())
    # outside the package, `general.py` in a docstring or comment is renamed only when no other file has that name
    elsewhere = {p.name for p in _python_files() if FOLDER not in p.parents}
    unique = _file_mentions([(old, TABLE[old]) for old, _ in _renames() if f"{old}.py" not in elsewhere])
    for path in _python_files():
        new, found = rewrite_imports(path, moved.get(path, path), moves)
        problems += found
        text = new if new is not None else path.read_text(encoding="utf-8")
        inside = FOLDER in path.parents
        text = rewrite_mentions(text, paths + (renamed if inside else []), [] if inside else unique)
        if text != path.read_text(encoding="utf-8"):
            texts[path] = text
    for path in _text_files():
        text = _subs(path.read_text(encoding="utf-8"), paths)
        if text != path.read_text(encoding="utf-8"):
            texts[path] = text
    if problems:
        raise LayoutError("\n".join(problems))
    inits = {}
    for room, doc in ROOMS.items():
        path = FOLDER / room / "__init__.py" if room else FOLDER / "__init__.py"
        text = _docstring(texts.get(path, path.read_text(encoding="utf-8") if path.exists() else None), doc)
        if not path.exists() or text != path.read_text(encoding="utf-8"):
            inits[path] = text
            texts.pop(path, None)
    return todo, texts, inits


def apply(todo: list, texts: dict, inits: dict) -> None:
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
    for path, text in inits.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        subprocess.run(["git", "add", str(path)], cwd=ROOT, check=True)
    for source, dest in todo:
        dest.parent.mkdir(parents=True, exist_ok=True)
        tracked = subprocess.run(["git", "ls-files", "--error-unmatch", str(source)], cwd=ROOT,
                                 capture_output=True).returncode == 0
        if tracked:
            subprocess.run(["git", "mv", str(source), str(dest)], cwd=ROOT, check=True)
        else:  # a new module not committed yet
            source.rename(dest)
            subprocess.run(["git", "add", str(dest)], cwd=ROOT, check=True)


# ---- arrows between rooms --------------------------------------------------------------------------------------------

def _room_of(path: Path) -> str:
    rel = path.relative_to(FOLDER)
    if len(rel.parts) > 1:
        return rel.parts[0]
    if path.stem in TABLE.values():  # a module that stays at the top, under its new name
        return "top"
    room = TABLE.get(path.stem, "?/" + path.stem)  # a flat module not moved yet: the room it goes to
    return room.rpartition("/")[0] or "top"


def arrows() -> dict:
    """Module and room import arrows inside the package, on the tree as it is (a flat module counts in the room
    TABLE gives it): the numbers to compare before and after a move."""
    modules = {_module_of(p): p for p in FOLDER.rglob("*.py") if p.name != "__init__.py"}
    edges = set()
    for name, path in modules.items():
        package = _package_of(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            for target in targets:
                if target in modules and target != name:
                    edges.add((name, target))
    rooms = {name: _room_of(path) for name, path in modules.items()}
    room_edges = {}
    for a, b in edges:
        if rooms[a] != rooms[b]:
            room_edges[(rooms[a], rooms[b])] = room_edges.get((rooms[a], rooms[b]), 0) + 1
    return {"modules": len(modules), "module_arrows": len(edges),
            "module_cycles": [c for c in _components(modules, edges) if len(c) > 1],
            "room_arrows": room_edges,
            "room_cycles": [c for c in _components(set(rooms.values()), set(room_edges)) if len(c) > 1]}


def _components(nodes, edges) -> list:
    """Strongly connected components (Tarjan), each sorted."""
    graph = {n: [] for n in nodes}
    for a, b in edges:
        graph[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def print_arrows() -> None:
    found = arrows()
    short = lambda m: m[len(PACKAGE) + 1:]  # noqa: E731
    print(f"{found['modules']} modules, {found['module_arrows']} import arrows between them")
    print(f"module cycles: {len(found['module_cycles'])} "
          + "; ".join(f"{len(c)} modules ({', '.join(short(m) for m in c[:6])}{', ...' if len(c) > 6 else ''})"
                      for c in found["module_cycles"]))
    total = sum(found["room_arrows"].values())
    print(f"room arrows: {len(found['room_arrows'])} room pairs, {total} module arrows between rooms")
    for (a, b), n in sorted(found["room_arrows"].items()):
        print(f"  {a} -> {b}: {n}")
    print("room cycles: " + ("; ".join(" <-> ".join(c) for c in found["room_cycles"]) or "none"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="say what would change; exit 1 if anything would")
    parser.add_argument("--arrows", action="store_true", help="print the import arrows and cycles between rooms")
    args = parser.parse_args(argv)
    if args.arrows:
        print_arrows()
        return 0
    try:
        todo, texts, inits = plan()
    except LayoutError as error:
        print(f"layout_estimator: nothing changed:\n{error}", file=sys.stderr)
        return 2
    for source, dest in todo:
        print(f"move {source.relative_to(ROOT)} -> {dest.relative_to(ROOT)}")
    for path in sorted(texts):
        print(f"rewrite {path.relative_to(ROOT)}")
    for path in sorted(inits):
        print(f"write {path.relative_to(ROOT)}")
    if not (todo or texts or inits):
        print("nothing to do")
    if args.check:
        return 1 if todo or texts or inits else 0
    apply(todo, texts, inits)
    after = [dest if dest.exists() else source for source, dest in todo]
    files = [p for p in _python_files() if FOLDER in p.parents] + _text_files() + after
    left = leftover_mentions(sorted(set(files)))
    if left:
        print(f"{len(left)} mentions of renamed modules' old names to check by eye (may mean another module):")
        print("\n".join(f"  {line}" for line in left))
    refs = subprocess.run(["git", "grep", "-n", "-E", r"rules[./]estimator[./]\w+", "--", *SCANNED, *TEXTS, "fixtures"],
                          cwd=ROOT, capture_output=True, text=True).stdout.splitlines()
    refs = [line for line in refs if not re.match(r"[^:]+:\d+:\s*(from|import) ", line)]
    print(f"{len(refs)} lines name a module of the package outside an import (string references: check by eye):")
    print("\n".join(f"  {line[:150]}" for line in refs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
