"""Human and machine output of a verify: the step table, `--json`, `--junit` (one test case per compared
pair, for CI systems). The plot lives in `plot.py` so matplotlib is imported only when asked for."""
import json
import xml.etree.ElementTree as ET

from tf2migrate.harness.compare.compare import rel_diff


def table(result, max_rows=40):
    """step | original | migrated | abs diff | rel diff; long runs show the head, the first divergence, the tail."""
    o = result.original.losses if result.original else []
    m = result.migrated.losses if result.migrated else []
    n = max(len(o), len(m))
    if n == 0:
        return "(no training steps)"
    rows = _rows_to_show(n, max_rows, result.first_diverged_step)
    lines = [f"{'step':>6}  {'original':>22}  {'migrated':>22}  {'abs diff':>10}  {'rel diff':>10}"]
    last = 0
    for i in rows:
        if i != last + 1:
            lines.append(f"{'...':>6}")
        a = o[i - 1] if i <= len(o) else None
        b = m[i - 1] if i <= len(m) else None
        d = abs(a - b) if a is not None and b is not None else None
        rel = rel_diff(a, b) if d is not None else None
        mark = "  <- first difference" if i == result.first_diverged_step else ""
        lines.append(f"{i:>6}  {_f(a):>22}  {_f(b):>22}  {_g(d):>10}  {_g(rel):>10}{mark}")
        last = i
    return "\n".join(lines)


def _rows_to_show(n, max_rows, focus):
    if n <= max_rows:
        return list(range(1, n + 1))
    keep = set(range(1, 11)) | set(range(n - 9, n + 1))
    if focus:
        keep |= set(range(max(1, focus - 3), min(n, focus + 3) + 1))
    return sorted(keep)


def _f(v):
    return "-" if v is None else repr(float(v))


def _g(v):
    return "-" if v is None else f"{v:.3g}"


def summary_lines(result):
    lines = [f"verdict: {result.verdict} - {result.reason}"]
    if result.accepted_fixes:
        lines.append(f"reference: the original with {', '.join(result.accepted_fixes)} applied by the codemod "
                     f"(`tf2migrate rewrite --select {','.join(result.accepted_fixes)}`)")
    if result.alignment:
        lines.append(f"aligned: {result.alignment}")
    if result.network:
        lines.append(f"network: {result.network}")
    if result.module or result.original_args or result.migrated_args or result.cwd:
        lines.append("run as: " + run_as(result))
    if result.tolerance and not result.failed_side:
        lines.append(f"tolerance: {result.tolerance}")
    for label, side in (("original", result.original), ("migrated", result.migrated)):
        if side and side.versions:
            v = side.versions
            lines.append(f"{label}: {side.python} (Python {v.get('python')}, TF {v.get('tensorflow')}, "
                         f"{v.get('keras')})")
    if result.retried_ports:
        lines.append("ports: a server's port was taken by another process first; the pair ran again on new ports")
    if result.compared:
        lines.append("compared:")
        lines += [f"  - {line}" for line in result.compared]
    notes = [n for s in (result.original, result.migrated) if s for n in s.notes]
    if notes:
        lines.append("notes: " + "; ".join(dict.fromkeys(notes)))
    if result.failed_side:
        side = result.original if result.failed_side == "original" else result.migrated
        lines.append(f"--- tail of the {result.failed_side} program's output ---")
        lines.append(side.stderr_tail if side else "")
    return lines


def run_as(result):
    """`python -m trainer.task --train-steps 40` (per side when their arguments differ), and where."""
    def command(args):
        return " ".join(["python", f"-m {result.module}" if result.module else "SCRIPT", *args])

    same = result.original_args == result.migrated_args
    text = command(result.original_args) if same else (f"original: {command(result.original_args)}; "
                                                       f"migrated: {command(result.migrated_args)}")
    return text + (f" (in {result.cwd})" if result.cwd else "")


def to_dict(result):
    def side(s):
        if s is None:
            return None
        return {"status": s.status, "losses": s.losses, "variables": s.variables, "aligned": s.aligned,
                "api": s.api, "capture": s.capture, "seconds": round(s.seconds, 3), "error": s.error,
                "notes": s.notes, "dropouts": s.dropouts, "pipeline": s.pipeline, "eval_results": s.eval_results,
                "python": s.python, "versions": s.versions}

    return {"verdict": result.verdict, "reason": result.reason, "exit_code": result.exit_code,
            "original": result.original_path, "migrated": result.migrated_path, "cluster": result.cluster,
            "mode": result.mode, "rtol": result.rtol, "atol": result.atol, "tolerance": result.tolerance,
            "first_diverged_step": result.first_diverged_step, "alignment": result.alignment,
            "failed_side": result.failed_side or None, "rewrite_diagnostics": result.rewrite_diagnostics,
            "accepted_fixes": result.accepted_fixes, "retried_ports": result.retried_ports,
            "network": result.network, "module": result.module, "original_args": result.original_args,
            "migrated_args": result.migrated_args, "cwd": result.cwd, "env_keys": result.env_keys,
            "details": result.details, "compared": result.compared, "original_run": side(result.original),
            "migrated_run": side(result.migrated),
            "original_repeats": [side(r) for r in result.original_runs[1:]]}


def write_json(result, path):
    with open(path, "w") as f:
        json.dump(to_dict(result), f, indent=2)


def write_junit(results, path):
    """One <testcase> per compared pair: EQUIVALENT passes, DIVERGED fails, a crashed program is an error."""
    suite = ET.Element("testsuite", name="tf2migrate.verify", tests=str(len(results)))
    failures = errors = 0
    for r in results:
        seconds = max((s.seconds for s in [r.original, r.migrated] if s), default=0.0)
        case = ET.SubElement(suite, "testcase", classname="tf2migrate.verify",
                             name=f"{r.original_path} vs {r.migrated_path} [{r.cluster}]", time=f"{seconds:.3f}")
        if r.failed_side:
            errors += 1
            ET.SubElement(case, "error", message=r.reason).text = "\n".join(summary_lines(r))
        elif not r.equivalent:
            failures += 1
            ET.SubElement(case, "failure", message=f"{r.verdict}: {r.reason}").text = table(r)
        if r.compared:
            properties = ET.SubElement(case, "properties")
            for i, line in enumerate(r.compared):
                ET.SubElement(properties, "property", name=f"compared.{line.split(':', 1)[0]}", value=line)
        ET.SubElement(case, "system-out").text = "\n".join(["compared:"] + [f"  - {c}" for c in r.compared]
                                                             + [table(r)]) if r.compared else table(r)
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)
