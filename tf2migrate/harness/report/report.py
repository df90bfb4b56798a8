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
    rows = _rows_to_show(n, max_rows, result.comparison.first_diverged_step)
    lines = [f"{'step':>6}  {'original':>22}  {'migrated':>22}  {'abs diff':>10}  {'rel diff':>10}"]
    last = 0
    for i in rows:
        if i != last + 1:
            lines.append(f"{'...':>6}")
        a = o[i - 1] if i <= len(o) else None
        b = m[i - 1] if i <= len(m) else None
        d = abs(a - b) if a is not None and b is not None else None
        rel = rel_diff(a, b) if d is not None else None
        mark = "  <- first difference" if i == result.comparison.first_diverged_step else ""
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
    facts, c = result.facts, result.comparison
    lines = [f"verdict: {result.verdict} - {result.reason}"]
    if facts.accepted_fixes:
        lines.append(f"reference: the original with {', '.join(facts.accepted_fixes)} applied by the codemod "
                     f"(`tf2migrate rewrite --select {','.join(facts.accepted_fixes)}`)")
    if c.alignment:
        lines.append(f"aligned: {c.alignment}")
    if facts.network:
        lines.append(f"network: {facts.network}")
    if facts.module or facts.original_args or facts.migrated_args or facts.cwd:
        lines.append("run as: " + run_as(facts))
    if c.tolerance and not c.failed_side:
        lines.append(f"tolerance: {c.tolerance}")
    for label, side in (("original", result.original), ("migrated", result.migrated)):
        if side and side.versions:
            v = side.versions
            lines.append(f"{label}: {side.python} (Python {v.get('python')}, TF {v.get('tensorflow')}, "
                         f"{v.get('keras')})")
    if result.sides.retried_ports:
        lines.append("ports: a server's port was taken by another process first; the pair ran again on new ports")
    if c.compared:
        lines.append("compared:")
        lines += [f"  - {line}" for line in c.compared]
    notes = [n for s in (result.original, result.migrated) if s for n in s.notes]
    if notes:
        lines.append("notes: " + "; ".join(dict.fromkeys(notes)))
    if c.failed_side:
        side = result.original if c.failed_side == "original" else result.migrated
        lines.append(f"--- tail of the {c.failed_side} program's output ---")
        lines.append(side.stderr_tail if side else "")
    return lines


def run_as(facts):
    """`python -m trainer.task --train-steps 40` (per side when their arguments differ), and where."""
    def command(args):
        return " ".join(["python", f"-m {facts.module}" if facts.module else "SCRIPT", *args])

    same = facts.original_args == facts.migrated_args
    text = command(facts.original_args) if same else (f"original: {command(facts.original_args)}; "
                                                      f"migrated: {command(facts.migrated_args)}")
    return text + (f" (in {facts.cwd})" if facts.cwd else "")


def to_dict(result):
    def side(s):
        if s is None:
            return None
        return {"status": s.status, "losses": s.losses, "variables": s.variables, "aligned": s.aligned,
                "api": s.api, "capture": s.capture, "seconds": round(s.seconds, 3), "error": s.error,
                "notes": s.notes, "dropouts": s.dropouts, "pipeline": s.pipeline, "eval_results": s.eval_results,
                "python": s.python, "versions": s.versions}

    facts, c = result.facts, result.comparison
    return {"verdict": result.verdict, "reason": result.reason, "exit_code": result.exit_code,
            "original": facts.original_path, "migrated": facts.migrated_path, "cluster": facts.cluster,
            "mode": facts.mode, "rtol": c.rtol, "atol": c.atol, "tolerance": c.tolerance,
            "first_diverged_step": c.first_diverged_step, "alignment": c.alignment,
            "failed_side": c.failed_side or None, "rewrite_diagnostics": facts.rewrite_diagnostics,
            "accepted_fixes": facts.accepted_fixes, "retried_ports": result.sides.retried_ports,
            "network": facts.network, "module": facts.module, "original_args": facts.original_args,
            "migrated_args": facts.migrated_args, "cwd": facts.cwd, "env_keys": facts.env_keys,
            "details": c.details, "compared": c.compared, "original_run": side(result.original),
            "migrated_run": side(result.migrated),
            "original_repeats": [side(r) for r in result.sides.original_runs[1:]]}


def write_json(result, path):
    with open(path, "w") as f:
        json.dump(to_dict(result), f, indent=2)


def write_junit(results, path):
    """One <testcase> per compared pair: EQUIVALENT passes, DIVERGED fails, a crashed program is an error."""
    suite = ET.Element("testsuite", name="tf2migrate.verify", tests=str(len(results)))
    failures = errors = 0
    for r in results:
        seconds = max((s.seconds for s in [r.original, r.migrated] if s), default=0.0)
        facts, compared = r.facts, r.comparison.compared
        case = ET.SubElement(suite, "testcase", classname="tf2migrate.verify",
                             name=f"{facts.original_path} vs {facts.migrated_path} [{facts.cluster}]",
                             time=f"{seconds:.3f}")
        if r.comparison.failed_side:
            errors += 1
            ET.SubElement(case, "error", message=r.reason).text = "\n".join(summary_lines(r))
        elif not r.equivalent:
            failures += 1
            ET.SubElement(case, "failure", message=f"{r.verdict}: {r.reason}").text = table(r)
        if compared:
            properties = ET.SubElement(case, "properties")
            for i, line in enumerate(compared):
                ET.SubElement(properties, "property", name=f"compared.{line.split(':', 1)[0]}", value=line)
        ET.SubElement(case, "system-out").text = "\n".join(["compared:"] + [f"  - {c}" for c in compared]
                                                             + [table(r)]) if compared else table(r)
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)
