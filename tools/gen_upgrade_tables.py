"""Generate rules/generated/tf_upgrade_v2.toml from tf_upgrade_v2's own tables (TFM6xx).

    python tools/gen_upgrade_tables.py            # needs tensorflow==2.15.1 installed (any tensorflow*)

Run by a developer, never at install or run time: `rewrite` reads the committed TOML and never imports
TensorFlow. The data comes from the installed wheel's `tensorflow/tools/compatibility/` (all_renames_v2,
renames_v2, reorders_v2, module_deprecations_v2 and `tf_upgrade_v2.TFAPIChangeSpec`); the deliberate
differences in rules/differences/tf_upgrade_v2.toml (`generate = false`) are left out.
"""
from __future__ import annotations

import argparse
import fnmatch
import functools
import json
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rules" / "generated" / "tf_upgrade_v2.toml"
DIFFERENCES = ROOT / "rules" / "differences" / "tf_upgrade_v2.toml"
SEVERITY = {"ERROR": "error", "WARNING": "warning", "INFO": "info"}
# transformers that add a fixed keyword where the call has none: the contrib summary ops wrote at the global
# step, TF2's need a `step` ("No step set" without one)
ADDED = {"_add_summary_step_transformer": {"step": "{tf}.compat.v1.train.get_or_create_global_step()"}}
# transformers that only act when an argument is passed: reported only then
ARG_TRANSFORMERS = {"_rename_if_arg_found_transformer", "_rename_if_any_arg_found_transformer"}

# tf_upgrade_v2 messages that would mislead a TF 2.16+ user, replaced by ours (tests/test_upgrade_tables.py)
CORRECTED = {
    "*.export_savedmodel": (
        "(Manual edit required) Estimator.export_savedmodel() is gone in TF2, and TF 2.16 removed Estimators "
        "with their export_saved_model(): export the model with tf.saved_model.save (or Keras' model.export, "
        "model.save under tf-keras) and a serving signature; the Estimator program's conversion (TFM301, "
        "TFM318) does that. TF 2.15's export_saved_model() takes no `strip_default_attrs` argument: it always "
        "strips the default attributes from ops."),
}

RULES = {  # code -> header (everything but the per-name data); `{name}`/`{new}`: the names as written
    "TFM601": dict(name="tf2-rename", summary="a TF1 name that TF2 spells differently -> its TF2 name",
                   message="`{name}` is `{new}` in TF2",
                   why="The same function or class is exported under another name in TF2 (`tf.log` is "
                       "`tf.math.log`). Renamed through the file's own alias; from tf_upgrade_v2's tables.",
                   before="import tensorflow as tf\ny = tf.log(x)\n", after="import tensorflow as tf\ny = tf.math.log(x)\n"),
    "TFM602": dict(name="tf2-keyword-arguments", summary="keyword arguments renamed, removed or added in TF2",
                   message="arguments of `{name}` changed in TF2",
                   why="TF2 renamed some keyword arguments (`keep_dims` -> `keepdims`), removed arguments "
                       "whose only TF2 behaviour is the TF1 default, and made some defaults explicit.",
                   before="import tensorflow.compat.v1 as tf\ny = tf.nn.softmax(logits, dim=-1)\n",
                   after="import tensorflow.compat.v1 as tf\ny = tf.nn.softmax(logits, axis=-1)\n"),
    "TFM603": dict(name="tf2-positional-arguments", summary="positional arguments whose position changed -> keywords",
                   message="the signature of `{name}` changed order in TF2: positional arguments made keywords",
                   why="TF2 reordered these signatures, so a positional argument after the unchanged prefix would "
                       "land on another parameter. They are passed by their TF1 keyword instead (then renamed).",
                   before="import tensorflow.compat.v1 as tf\nn = tf.shape(x, \"shape\", tf.int64)\n",
                   after="import tensorflow.compat.v1 as tf\nn = tf.shape(x, name=\"shape\", out_type=tf.int64)\n"),
    "TFM604": dict(name="tf2-changed-api", summary="a TF1 API removed or changed in TF2: check by hand",
                   message="`{name}` changed in TF2: check it by hand", fix="report only",
                   why="TF2 removed or changed this API in a way no rename expresses. The message is "
                       "tf_upgrade_v2's own; the code is left as it is.",
                   before="import tensorflow as tf\nm.export_savedmodel(path, serving_input_fn)\n"),
    "TFM605": dict(name="tf-contrib", summary="tf.contrib and tf.flags are gone in TF2", severity="error",
                   message="`{name}`: tf.contrib is not in TF2", fix="report only",
                   why="`tf.contrib` (and `tf.flags`/`tf.app.flags`) were removed in TF 2.0. Members with a "
                       "TF2 home are renamed by TFM601/TFM606; every other use is reported, with the most "
                       "specific advice tf_upgrade_v2 has (Addons, Keras RNN layers, absl flags, ...).",
                   before="import tensorflow as tf\ncell = tf.contrib.rnn.LSTMBlockCell(64)\n"),
    "TFM606": dict(name="tf1-compat-v1", summary="a TF1 name with no TF2 equivalent -> tf.compat.v1",
                   message="`{name}` has no TF2 equivalent: `{new}` keeps its TF1 behaviour",
                   why="Session, placeholders, variable scopes, queues, ... exist in TF2 only as "
                       "`tf.compat.v1`. The move keeps the program running on TF2; the finding says it is "
                       "still TF1 code. `--ignore TFM606` leaves these names as they are.",
                   before="import tensorflow as tf\nsess = tf.Session()\n",
                   after="import tensorflow as tf\nsess = tf.compat.v1.Session()\n"),
    "TFM607": dict(name="tf2-needs-code-rule", summary="tf_upgrade_v2 rewrites this call with logic tf2migrate "
                   "does not have yet: convert it by hand", message="`{name}` needs a manual conversion to TF2",
                   fix="report only", severity="error",
                   why="tf_upgrade_v2 converts these calls with code (`function_transformers`), not data. Until "
                       "tf2migrate has a code rule for a name, the call is reported and left as it is.",
                   before="import tensorflow as tf\nit = dataset.make_one_shot_iterator(shared_name=name)\n"),
}


def differences() -> list:
    return tomllib.loads(DIFFERENCES.read_text(encoding="utf-8"))["difference"]


def data_transformers(diffs: list) -> set:
    """tf_upgrade_v2 transformers that are data (an added keyword), generated instead of reported."""
    return {kind for d in diffs for kind in d.get("data_transformers", ())}


def left_out(name: str, diffs: list) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for d in diffs if d.get("generate") is False for pattern in d["names"])


def kept(name: str, diffs: list) -> bool:
    """Names of the TF API (or `*.method`) that the tables should carry."""
    return (name.startswith("tf.") or name.startswith("*.")) and not left_out(name, diffs)


def _transformer_name(fn) -> str:
    return fn.func.__name__ if isinstance(fn, functools.partial) else fn.__name__


def unchained(renames: dict, tf) -> dict:
    """Renames whose output no rename matches again, so that a second run changes nothing. tf_upgrade_v2
    chains a few: `tf.contrib.rnn.LSTMStateTuple` -> `tf.nn.rnn_cell.LSTMStateTuple` (itself renamed to
    `tf.compat.v1...`): followed to the end. `tf.nn.avg_pool_v2` -> `tf.nn.avg_pool`, which names the TF2
    function but, read as TF1, is renamed to `avg_pool2d`: written `tf.compat.v2.nn.avg_pool`, a spelling
    no TF1 rule touches."""
    out = {}
    for old, new in renames.items():
        seen = {old}
        while new in renames and new not in seen and not in_tf2(new, tf):
            seen.add(new)
            new = renames[new]
        if new in renames:
            new = "tf.compat.v2." + new[len("tf."):]
        out[old] = new
    return out


def collect(spec, diffs: list, tf) -> dict:
    """code -> the per-name data of that rule."""
    out = {code: {} for code in RULES}
    renames = {k: v for k, v in spec.symbol_renames.items() if kept(k, diffs)}
    info_notes = {}
    for name, (level, message) in spec.function_warnings.items():
        if not kept(name, diffs):
            continue
        text = CORRECTED.get(name, message.replace("<function name>", "{name}").strip())
        if level == "INFO" and name in renames:
            info_notes[name] = text
            continue
        code = "TFM605" if name.startswith("tf.contrib.") else "TFM604"
        key = "report_methods" if name.startswith("*.") else "reports"
        # a contrib name nothing renames is gone in TF2 (moved to Addons, ...): an error, whatever the level
        severity = "error" if code == "TFM605" and name not in renames else SEVERITY[level]
        out[code].setdefault(key, []).append(name.split(".", 1)[1] if name.startswith("*.") else name)
        out[code].setdefault("notes", {})[name.split(".", 1)[1] if name.startswith("*.") else name] = {
            "message": "{name} requires manual check. " + text, "severity": severity}
    for old, new in sorted(unchained(renames, tf).items()):
        code = "TFM606" if new.startswith("tf.compat.v1.") else "TFM601"
        out[code].setdefault("renames", {})[old] = new
        if old in info_notes:
            base = RULES[code]["message"]
            out[code].setdefault("notes", {})[old] = base + ". " + info_notes[old]
    calls = {}
    for name, order in spec.function_reorders.items():
        if not kept(name, diffs):
            continue
        keep = next((i for i, a in enumerate(order) if a is not None), len(order))
        assert all(a is not None for a in order[keep:]), name
        # the first `keep` positions stay positional: tf_upgrade_v2 does not name them (None)
        calls.setdefault(name, {})["args"] = [a or "" for a in order]
        calls[name]["keep"] = keep
    for name, keywords in spec.function_keyword_renames.items():
        if not kept(name, diffs):
            continue
        entry = calls.setdefault(name, {})
        renamed = {k: v for k, v in keywords.items() if v is not None}
        if renamed:
            entry["keywords"] = renamed
        removed = sorted(k for k, v in keywords.items() if v is None)
        if removed:
            entry["remove"] = removed
    warn = {}
    for name, args in spec.function_arg_warnings.items():
        if not name.startswith("tf.") or left_out(name, diffs):
            continue  # `*.minimize` and `*.compute_gradients`: INFO lines that restate the keyword removal
        warn[name] = [{"keyword": kw, "position": pos, "severity": SEVERITY[level],
                       "message": "{name} called with " + kw + ": " + message.replace("<function name>", "{name}")}
                      for (kw, pos), (level, message) in sorted(args.items())]
    for name, fn in spec.function_transformers.items():
        if not kept(name, diffs):
            continue
        kind = _transformer_name(fn)
        args = fn.keywords if isinstance(fn, functools.partial) else {}
        if kind in data_transformers(diffs) and kind in ADDED:
            calls.setdefault(name, {}).setdefault("add", {}).update(ADDED[kind])
        elif kind in data_transformers(diffs):
            calls.setdefault(name, {}).setdefault("add", {})[args["arg_name"]] = repr(args["arg_value_ast"].value)
        elif kind in ARG_TRANSFORMERS:
            names = args.get("arg_names") or [args["arg_name"]]
            warn.setdefault(name, []).extend(
                {"keyword": a, "position": -1, "severity": "warning", "code": "TFM607",
                 "message": "{name} called with " + a + ": " + args["message"]} for a in names)
        elif name in out["TFM604"].get("reports", ()) or name in out["TFM605"].get("reports", ()):
            continue  # already reported with tf_upgrade_v2's own message
        else:
            key = "report_methods" if name.startswith("*.") else "call_reports"
            short = name.split(".", 1)[1] if name.startswith("*.") else name
            out["TFM607"].setdefault(key, []).append(short)
            out["TFM607"].setdefault("notes", {})[short] = (
                "{name}: tf_upgrade_v2 converts this call with code (`%s`) that tf2migrate has no rule for yet: "
                "convert it by hand" % kind)
    for name, entry in sorted(calls.items()):
        code = "TFM603" if entry.get("args") and entry["keep"] < len(entry["args"]) else "TFM602"
        key = "method_calls" if name.startswith("*.") else "calls"
        out[code].setdefault(key, {})[name.split(".", 1)[1] if name.startswith("*.") else name] = entry
    for name, warnings in sorted(warn.items()):
        for w in warnings:
            code = w.pop("code", "TFM604")
            out[code].setdefault("warn", {}).setdefault(name, []).append(w)
    for name, (_, message) in spec.module_deprecations.items():
        # tf_upgrade_v2 says WARNING for some contrib modules, but none of them exists in TF2: the code
        # cannot run there, so every module finding is an error (and the exit code says so)
        out["TFM605"].setdefault("modules", []).append(name)
        out["TFM605"].setdefault("notes", {})[name] = {
            "message": "Using member {name} in deprecated module %s. %s" % (
                name, message.replace("<function name>", "{name}")), "severity": "error"}
    return out


def _toml(value) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml(k)} = {_toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


def in_tf2(name: str, tf) -> bool:
    """`tf.a.b` exists in TF2's own API (the installed `tensorflow` namespace), or is a method."""
    if name.startswith("*."):
        return False  # methods: what they report or remove is gone from TF2 (export_savedmodel, ...)
    node = tf
    for part in name.split(".")[1:]:
        try:
            node = getattr(node, part)
        except Exception:  # AttributeError, or a lazily loaded module that fails to import
            return False
    return True


def also_tf2(data: dict, tf) -> list:
    names = set()
    for code, entries in data.items():
        for section in ("renames", "calls", "warn", "notes"):
            names.update(entries.get(section, {}))
        for section in ("reports", "call_reports"):
            names.update(entries.get(section, ()))
        for section in ("report_methods",):
            names.update("*." + n for n in entries.get(section, ()))
        names.update("*." + n for n in entries.get("method_calls", {}))
    names = {n for n in names if n.startswith(("tf.", "*."))} - set(data["TFM605"].get("modules", ()))
    return sorted(n for n in names if in_tf2(n, tf))


def importable(data: dict) -> list:
    """Modules a rename writes into that `from M import X` can name (so a from-imported name stays bare:
    `from tensorflow import Session` -> `from tensorflow.compat.v1 import Session`)."""
    import importlib

    modules = set()
    for entries in data.values():
        for new in entries.get("renames", {}).values():
            modules.add("tensorflow" + new.rpartition(".")[0][len("tf"):])
    found = []
    for module in sorted(modules):
        try:
            importlib.import_module(module)
            found.append(module)
        except Exception:  # lazily loaded or not a real module (`tensorflow.keras.x` under Keras 3)
            pass
    return found


def render(data: dict, version: str, tf2_names: list, modules: list) -> str:
    lines = [
        f"# GENERATED by tools/gen_upgrade_tables.py from tensorflow {version}",
        "# (tensorflow/tools/compatibility: all_renames_v2, renames_v2, reorders_v2, module_deprecations_v2 and",
        "# tf_upgrade_v2.TFAPIChangeSpec). Do not edit: change the generator or",
        "# rules/differences/tf_upgrade_v2.toml, then regenerate with",
        "#     python tools/gen_upgrade_tables.py",
        "# The hand-written tables (rules/*.toml) take precedence over this file, name by name.",
        "",
        "# Names that TF2's own API also has (where they may mean something else: `tf.argmax`'s third",
        "# positional argument, `tf.keras.optimizers.Adam`): upgraded only in files known to be TF1.",
        f"also_tf2 = {_toml(tf2_names)}",
        f"importable_modules = {_toml(modules)}",
        "",
    ]
    for code, header in RULES.items():
        lines.append("[[rule]]")
        lines.append(f"code = {_toml(code)}")
        for key, value in header.items():
            lines.append(f"{key} = {_toml(value)}")
        for section in ("reports", "call_reports", "report_methods", "modules"):  # plain keys first
            if section in data[code]:
                lines.append(f"{section} = {_toml(sorted(data[code][section]))}")
        for section in ("renames", "calls", "method_calls", "notes", "warn"):
            if section in data[code]:
                lines.append(f"[rule.{section}]")
                for name, value in sorted(data[code][section].items()):
                    lines.append(f"{_toml(name)} = {_toml(value)}")
        lines.append("")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    import tensorflow as tf
    from tensorflow.tools.compatibility import tf_upgrade_v2

    spec = tf_upgrade_v2.TFAPIChangeSpec()
    data = collect(spec, differences(), tf)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(data, tf.__version__, also_tf2(data, tf), importable(data)), encoding="utf-8")
    from tf2migrate.rules.table_files import write_parsed

    write_parsed(args.out)  # the parsed table beside it: `rewrite` reads it instead of parsing 190 kB of TOML
    counts = {code: sum(len(v) for v in d.values() if isinstance(v, (dict, list))) for code, d in data.items()}
    print(f"wrote {args.out.relative_to(ROOT)}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
